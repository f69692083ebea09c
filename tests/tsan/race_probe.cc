// Shows the TSan lane can fail (tests/tsan/CMakeLists.txt): two threads
// increment a counter, guarded by an absl::Mutex ("guarded": no report
// expected, which needs absl_tsan_annotations.cc) or not ("unguarded": TSan
// must report the race and the test expects the failure).
#include <cstdio>
#include <cstring>
#include <thread>

#include "absl/synchronization/mutex.h"

int main(int argc, char** argv) {
  const bool guarded = argc > 1 && std::strcmp(argv[1], "guarded") == 0;
  absl::Mutex mu;
  long counter = 0;
  auto work = [&] {
    for (int i = 0; i < 10000; ++i) {
      if (guarded) {
        absl::MutexLock lock(&mu);
        ++counter;
      } else {
        ++counter;
      }
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  std::printf("counter %ld\n", counter);
  return 0;
}
