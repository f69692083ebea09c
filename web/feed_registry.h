// The feeds of the matches people watch, by match id: one per match while
// any stream holds it (a feed lives as long as its streams; the registry
// only finds it).
#ifndef CARDREF_WEB_FEED_REGISTRY_H_
#define CARDREF_WEB_FEED_REGISTRY_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "referee/service/match_manager.h"
#include "web/match_feed.h"
#include "web/scheduler.h"

namespace cardref::web {

// Thread-safe. The manager and scheduler outlive it and its feeds.
class FeedRegistry {
 public:
  FeedRegistry(service::MatchManager* manager, Scheduler* scheduler,
               absl::Duration refresh_interval)
      : manager_(manager),
        scheduler_(scheduler),
        refresh_interval_(refresh_interval) {}

  // The feed of `match_id`: following the match while it is in memory,
  // else read from its log. NOT_FOUND for a match the referee does not
  // know; the log's read errors.
  [[nodiscard]] absl::StatusOr<std::shared_ptr<MatchFeed>> Get(
      const std::string& match_id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  absl::StatusOr<std::shared_ptr<MatchFeed>> Make(const std::string& match_id);

  service::MatchManager* const manager_;
  Scheduler* const scheduler_;
  const absl::Duration refresh_interval_;
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::weak_ptr<MatchFeed>> feeds_
      ABSL_GUARDED_BY(mu_);
  size_t sweep_at_ ABSL_GUARDED_BY(mu_) = 64;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_FEED_REGISTRY_H_
