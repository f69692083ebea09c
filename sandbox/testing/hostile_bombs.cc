// A hostile bot that takes what it can: `fork` forks without end (every
// child forks too), `memory` touches memory 1 MiB at a time without end,
// `threads` starts sleeping threads until one is refused, then keeps
// trying; `crash` dereferences a null pointer; `exit N` exits with N.
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void* Sleep(void*) {
  while (true) pause();
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "fork") {
    std::printf("forking\n");
    while (true) fork();
  }
  if (mode == "memory") {
    std::printf("allocating\n");
    while (true) {
      char* block = static_cast<char*>(std::malloc(1 << 20));
      if (block == nullptr) continue;
      std::memset(block, 0x5a, 1 << 20);  // resident, not just reserved
    }
  }
  if (mode == "threads") {
    int started = 0;
    bool said = false;
    while (true) {
      pthread_t t;
      if (pthread_create(&t, nullptr, Sleep, nullptr) == 0) {
        ++started;
      } else if (!said) {
        std::printf("threads: %d, then refused\n", started);
        said = true;
      }
    }
  }
  if (mode == "crash") {
    volatile int* nowhere = nullptr;
    return *nowhere;
  }
  if (mode == "exit" && argc > 2) return std::atoi(argv[2]);
  std::fprintf(stderr, "usage: %s fork|memory|threads|crash|exit N\n", argv[0]);
  return 2;
}
