#include "referee/service/stream_budget.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::service {

StreamSlot& StreamSlot::operator=(StreamSlot&& other) noexcept {
  if (this != &other) {
    Release();
    budget_ = std::exchange(other.budget_, nullptr);
    key_ = std::move(other.key_);
  }
  return *this;
}

void StreamSlot::Release() {
  if (budget_ != nullptr) std::exchange(budget_, nullptr)->Release(key_);
}

absl::StatusOr<StreamSlot> StreamBudget::Acquire(absl::string_view what,
                                                 absl::string_view key) {
  absl::MutexLock lock(&mu_);
  int& n = open_[key];
  if (max_per_key_ > 0 && n >= max_per_key_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, " has ", n, " streams open, this referee's limit; close one "
        "first (docs/limits.md)"));
  }
  ++n;
  return StreamSlot(this, std::string(key));
}

int StreamBudget::open(absl::string_view key) const {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(key);
  return it == open_.end() ? 0 : it->second;
}

void StreamBudget::Release(const std::string& key) {
  absl::MutexLock lock(&mu_);
  auto it = open_.find(key);
  if (it == open_.end()) return;
  if (--it->second <= 0) open_.erase(it);
}

}  // namespace cardref::service
