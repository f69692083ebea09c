// Bots for the CPU: `busy` spins a thread on every online core without
// end; `idle` sleeps without end; `calibrate MS` prints how many rounds of
// the work loop take MS milliseconds here; `steps ROUNDS STEPS SLEEP_MS`
// is an honest bot: STEPS times, it thinks for ROUNDS rounds, prints how
// long that took in microseconds, of the clock and of its own CPU time
// ("step WALL CPU"), and waits SLEEP_MS (its opponent's turn).
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

volatile uint64_t sink;

// A fixed amount of integer work (xorshift rounds).
void Work(int64_t rounds) {
  uint64_t x = 88172645463325252ull;
  for (int64_t i = 0; i < rounds; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  sink = x;
}

int64_t NowMicros(clockid_t clock = CLOCK_MONOTONIC) {
  timespec t;
  clock_gettime(clock, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

void* Spin(void*) {
  while (true) Work(1 << 20);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "busy") {
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    std::printf("spinning on %ld cores\n", cores);
    for (long i = 1; i < cores; ++i) {
      pthread_t t;
      pthread_create(&t, nullptr, Spin, nullptr);
    }
    Spin(nullptr);
  }
  if (mode == "idle") {
    std::printf("idle\n");
    while (true) pause();
  }
  if (mode == "calibrate" && argc > 2) {
    const int64_t target_us = std::atoll(argv[2]) * 1000;
    int64_t rounds = 1 << 16;
    // Double until a run takes a tenth of the target, then scale; the
    // median of 7 runs at that size.
    while (true) {
      const int64_t t0 = NowMicros();
      Work(rounds);
      if (NowMicros() - t0 >= target_us / 10) break;
      rounds *= 2;
    }
    std::vector<int64_t> per_run;
    for (int i = 0; i < 7; ++i) {
      const int64_t t0 = NowMicros();
      Work(rounds);
      per_run.push_back(std::max<int64_t>(1, NowMicros() - t0));
    }
    std::sort(per_run.begin(), per_run.end());
    std::printf("rounds %lld\n",
                static_cast<long long>(rounds * target_us / per_run[3]));
    return 0;
  }
  if (mode == "steps" && argc > 4) {
    const int64_t rounds = std::atoll(argv[2]);
    const int steps = std::atoi(argv[3]);
    const int sleep_ms = std::atoi(argv[4]);
    for (int i = 0; i < steps; ++i) {
      const int64_t t0 = NowMicros();
      const int64_t cpu0 = NowMicros(CLOCK_THREAD_CPUTIME_ID);
      Work(rounds);
      const int64_t cpu = NowMicros(CLOCK_THREAD_CPUTIME_ID) - cpu0;
      std::printf("step %lld %lld\n", static_cast<long long>(NowMicros() - t0),
                  static_cast<long long>(cpu));
      usleep(static_cast<useconds_t>(sleep_ms) * 1000);
    }
    return 0;
  }
  std::fprintf(stderr, "usage: %s busy|idle|calibrate MS|steps ROUNDS STEPS SLEEP_MS\n",
               argv[0]);
  return 2;
}
