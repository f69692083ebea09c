#include "referee/service/deal_sets.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

absl::Status DealSets::Add(const std::string& deal_set, uint32_t size) {
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = sets_.try_emplace(deal_set);
  if (inserted) order_.push_back(deal_set);
  DealSet& set = it->second;
  if (size > 0 && set.size > 0 && size != set.size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "deal_set_size ", size, " contradicts the size ", set.size,
        " declared for deal set '", QuotePrefix(deal_set), "'"));
  }
  if (set.full()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "deal set '", QuotePrefix(deal_set), "' is closed (",
        set.closed ? "CloseDealSet" : "its declared size reached", ", ",
        set.counted, " matches): give the new match another deal_set_id"));
  }
  if (size > 0 && size < set.counted + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "deal_set_size ", size, " is below the ", set.counted + 1,
        " matches deal set '", QuotePrefix(deal_set), "' would then hold"));
  }
  if (size > 0) set.size = size;
  ++set.created;
  ++set.counted;
  TrimLocked();
  return absl::OkStatus();
}

void DealSets::Remove(const std::string& deal_set) {
  absl::MutexLock lock(&mu_);
  auto it = sets_.find(deal_set);
  if (it != sets_.end() && it->second.created > 0) {
    --it->second.created;
    if (it->second.counted > 0) --it->second.counted;
  }
}

void DealSets::Ended(const std::string& deal_set, bool finished) {
  absl::MutexLock lock(&mu_);
  auto it = sets_.find(deal_set);
  if (it == sets_.end()) return;
  ++it->second.over;
  if (!finished && it->second.counted > 0) --it->second.counted;
}

std::pair<uint32_t, uint32_t> DealSets::Close(const std::string& deal_set) {
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = sets_.try_emplace(deal_set);
  if (inserted) order_.push_back(deal_set);
  it->second.closed = true;
  TrimLocked();
  return {it->second.created, it->second.over};
}

bool DealSets::Done(const std::string& deal_set) const {
  absl::MutexLock lock(&mu_);
  auto it = sets_.find(deal_set);
  return it != sets_.end() && it->second.done();
}

void DealSets::TrimLocked() {
  // Oldest first; a set not yet done is kept whatever its age (and counted
  // again at the back), so the secret ones are never forgotten.
  size_t scanned = 0;
  while (sets_.size() > kMaxDealSets && scanned < order_.size()) {
    const std::string oldest = std::move(order_.front());
    order_.pop_front();
    auto it = sets_.find(oldest);
    if (it != sets_.end() && !it->second.done()) {
      order_.push_back(oldest);
      ++scanned;
      continue;
    }
    sets_.erase(oldest);
  }
}

}  // namespace cardref::service
