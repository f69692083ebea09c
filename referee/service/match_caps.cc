#include "referee/service/match_caps.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref::service {

MatchPlace& MatchPlace::operator=(MatchPlace&& other) noexcept {
  if (this != &other) {
    Release();
    caps_ = other.caps_;
    other.caps_ = nullptr;
  }
  return *this;
}

void MatchPlace::Release() {
  if (caps_ != nullptr) caps_->Release();
  caps_ = nullptr;
}

absl::StatusOr<MatchPlace> MatchCaps::Reserve() {
  absl::MutexLock lock(&mu_);
  if (max_waiting_ > 0 && waiting_ >= max_waiting_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        waiting_, " matches are waiting for players, this referee's limit "
        "(--max_waiting_matches); retry once some have started, or cancel "
        "some (CancelMatch)"));
  }
  if (max_in_progress_ > 0 && in_progress_ + waiting_ >= max_in_progress_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        in_progress_, " matches are in progress and ", waiting_,
        " waiting for players, who may start them, this referee's limit of ",
        max_in_progress_, " (--max_matches_in_progress counts both); retry "
        "once some have finished, or cancel waiting ones (CancelMatch)"));
  }
  ++waiting_;  // the new match starts waiting for players
  return MatchPlace(this);
}

void MatchCaps::Release() {
  absl::MutexLock lock(&mu_);
  --waiting_;
}

void MatchCaps::StatusChanged(v1::MatchStatus from, v1::MatchStatus to) {
  if (from == v1::MATCH_STATUS_UNSPECIFIED) return;  // counted by its place
  absl::MutexLock lock(&mu_);
  if (from == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) --waiting_;
  if (from == v1::MATCH_STATUS_IN_PROGRESS) --in_progress_;
  if (to == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) ++waiting_;
  if (to == v1::MATCH_STATUS_IN_PROGRESS) ++in_progress_;
}

int64_t MatchCaps::waiting() const {
  absl::MutexLock lock(&mu_);
  return waiting_;
}

int64_t MatchCaps::in_progress() const {
  absl::MutexLock lock(&mu_);
  return in_progress_;
}

}  // namespace cardref::service
