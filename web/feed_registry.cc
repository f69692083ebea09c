#include "web/feed_registry.h"

#include <algorithm>
#include <utility>

namespace cardref::web {

absl::StatusOr<std::shared_ptr<MatchFeed>> FeedRegistry::Get(
    const std::string& match_id) {
  {
    absl::MutexLock lock(&mu_);
    auto it = feeds_.find(match_id);
    if (it != feeds_.end()) {
      if (std::shared_ptr<MatchFeed> feed = it->second.lock()) return feed;
    }
  }
  // Made without the lock (a log is read whole); two streams that come at
  // once may make two, and the later one is kept.
  absl::StatusOr<std::shared_ptr<MatchFeed>> feed = Make(match_id);
  if (!feed.ok()) return feed.status();
  absl::MutexLock lock(&mu_);
  feeds_[match_id] = *feed;
  if (feeds_.size() >= sweep_at_) {
    absl::erase_if(feeds_, [](const auto& entry) { return entry.second.expired(); });
    sweep_at_ = std::max<size_t>(64, 2 * feeds_.size());
  }
  return feed;
}

absl::StatusOr<std::shared_ptr<MatchFeed>> FeedRegistry::Make(
    const std::string& match_id) {
  absl::StatusOr<std::shared_ptr<service::Match>> match =
      manager_->Find(match_id);
  if (match.ok()) {
    return MatchFeed::Follow(*std::move(match), &manager_->registry(),
                             scheduler_, refresh_interval_);
  }
  if (match.status().code() != absl::StatusCode::kFailedPrecondition) {
    return match.status();  // NOT_FOUND
  }
  // Over and out of memory: read back from its log.
  absl::StatusOr<v1::MatchInfo> info =
      manager_->Info(match_id, /*for_organiser=*/true);
  if (!info.ok()) return info.status();
  if (info->status() == v1::MATCH_STATUS_CANCELLED ||
      info->log_path().empty()) {
    return MatchFeed::Empty("cancelled");
  }
  return MatchFeed::FromLog(info->log_path(), manager_->registry());
}

}  // namespace cardref::web
