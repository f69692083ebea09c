// Where the referee's time comes from, so deadlines and time banks can be
// tested on a fake clock without sleeping.
#ifndef CARDREF_REFEREE_SERVICE_CLOCK_H_
#define CARDREF_REFEREE_SERVICE_CLOCK_H_

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace cardref::service {

// Thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
};

// absl::Now().
class RealClock : public Clock {
 public:
  absl::Time Now() const override { return absl::Now(); }
  // One shared instance (it has no state).
  static const Clock* Get() {
    static const RealClock clock;
    return &clock;
  }
};

// Time moves only when a test says so.
class FakeClock : public Clock {
 public:
  explicit FakeClock(absl::Time start = absl::FromUnixSeconds(1'800'000'000))
      : now_(start) {}
  absl::Time Now() const override {
    absl::MutexLock lock(&mu_);
    return now_;
  }
  void Advance(absl::Duration d) {
    absl::MutexLock lock(&mu_);
    now_ += d;
  }

 private:
  mutable absl::Mutex mu_;
  absl::Time now_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_CLOCK_H_
