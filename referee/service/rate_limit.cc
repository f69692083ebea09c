#include "referee/service/rate_limit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace cardref::service {

RateLimiter::RateLimiter(double per_second, double burst, const Clock* clock,
                         size_t max_keys)
    : per_second_(per_second),
      burst_(std::max(burst, 1.0)),
      clock_(clock),
      max_keys_(std::max<size_t>(max_keys, 1)) {}

double RateLimiter::TokensAt(const Bucket& b, int64_t now_nanos) const {
  const double refill =
      static_cast<double>(now_nanos - b.last_nanos) * 1e-9 * per_second_;
  return std::min(burst_, b.tokens + std::max(0.0, refill));
}

void RateLimiter::DropFullBucketsLocked(int64_t now_nanos) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    auto here = it++;
    if (TokensAt(here->second, now_nanos) >= burst_) buckets_.erase(here);
  }
}

absl::Status RateLimiter::Admit(absl::string_view what, absl::string_view key) {
  if (per_second_ <= 0) return absl::OkStatus();
  const int64_t now = absl::ToUnixNanos(clock_->Now());
  absl::MutexLock lock(&mu_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) DropFullBucketsLocked(now);
    // Still full of active keys: refuse newcomers rather than grow.
    if (buckets_.size() >= max_keys_) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "too many distinct callers (", max_keys_, ") for ", what,
          "; retry in 1000 ms"));
    }
    it = buckets_.emplace(std::string(key), Bucket{burst_, now}).first;
  }
  Bucket& b = it->second;
  b.tokens = TokensAt(b, now);
  b.last_nanos = now;
  if (b.tokens >= 1.0) {
    b.tokens -= 1.0;
    return absl::OkStatus();
  }
  const double wait_ms = std::ceil((1.0 - b.tokens) / per_second_ * 1000.0);
  return absl::ResourceExhaustedError(absl::StrCat(
      "rate limit: at most ", per_second_, " ", what, " per second (bursts of ",
      burst_, "); retry in ", static_cast<int64_t>(std::max(1.0, wait_ms)),
      " ms (docs/limits.md)"));
}

}  // namespace cardref::service
