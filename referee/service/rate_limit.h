// Calls per second per key (a caller's token, a peer's address): a token
// bucket per key that refills at `per_second` up to `burst`. A call past it
// is refused with RESOURCE_EXHAUSTED and the time until the next call would
// be admitted, so a flood costs the referee one map lookup per call and
// never reaches a match's lock.
#ifndef CARDREF_REFEREE_SERVICE_RATE_LIMIT_H_
#define CARDREF_REFEREE_SERVICE_RATE_LIMIT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "referee/service/clock.h"

namespace cardref::service {

// The keys each limiter at the gRPC edge (per token, per peer, the refusal
// quota) keeps a bucket for: random tokens must not grow the maps without
// bound. About 100 bytes each.
inline constexpr size_t kMaxTrackedCallers = 20'000;

// Thread-safe.
class RateLimiter {
 public:
  // `per_second` <= 0: no limit (Admit is always OK). `clock` is not owned.
  // At most `max_keys` buckets are kept: past that, full buckets (keys idle
  // long enough to have refilled) are dropped, which changes nothing.
  RateLimiter(double per_second, double burst, const Clock* clock,
              size_t max_keys = 100'000);

  // Takes one call from `key`'s bucket. RESOURCE_EXHAUSTED naming `what`
  // (e.g. "calls per token"), the limit, and "retry in N ms" when empty.
  absl::Status Admit(absl::string_view what, absl::string_view key)
      ABSL_LOCKS_EXCLUDED(mu_);

  bool enabled() const { return per_second_ > 0; }

 private:
  // Times in Unix nanoseconds: absl::Duration arithmetic was a third of a
  // call's cost.
  struct Bucket {
    double tokens = 0;
    int64_t last_nanos = 0;
  };
  double TokensAt(const Bucket& b, int64_t now_nanos) const;
  void DropFullBucketsLocked(int64_t now_nanos)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const double per_second_;
  const double burst_;
  const Clock* const clock_;
  const size_t max_keys_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> buckets_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_RATE_LIMIT_H_
