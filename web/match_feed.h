// One match's public event stream as the web front sends it: each event of
// the spectators' stream (referee/service/match_events.h: no deck order, no
// refused submission, no seed) with the step a person sees after it
// (log_tools' public playback: the table as every seat sees it, hands as
// counts, the move in words), as server-sent events (docs/web.md):
//
//   id: <event index>
//   event: step
//   data: {"index": ..., "step": {...}, "event": {...}}
//
// then, once the match is over and every event was sent, `event: end`.
//
// A feed is built once per match and shared by all its streams, which copy
// its text. A live feed follows a Match in the process (not through the
// gRPC stream caps): the match's watcher only schedules a refresh on the
// web front's threads (at most one pending, at most one per
// refresh_interval), so spectators cost the match's own threads almost
// nothing whatever their number. A feed of a match that has left memory is
// built once from its log.
//
// Thread-safe.
#ifndef CARDREF_WEB_MATCH_FEED_H_
#define CARDREF_WEB_MATCH_FEED_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "analyzer/log_tools/playback.h"
#include "cardref/v1/log.pb.h"
#include "games/api/registry.h"
#include "referee/service/match.h"
#include "web/scheduler.h"

namespace cardref::web {

class MatchFeed : public std::enable_shared_from_this<MatchFeed> {
 public:
  // Follows `match` from its first event. `registry` and `scheduler`
  // outlive the feed.
  static std::shared_ptr<MatchFeed> Follow(
      std::shared_ptr<service::Match> match, const GameRegistry* registry,
      Scheduler* scheduler, absl::Duration refresh_interval);
  // Every event of the log at `log_path` (a match over). Errors of
  // record::ReadGameLog.
  [[nodiscard]] static absl::StatusOr<std::shared_ptr<MatchFeed>> FromLog(
      const std::string& log_path, const GameRegistry& registry);
  // A match that ended without a log (cancelled before it started): no
  // event, then the end.
  static std::shared_ptr<MatchFeed> Empty(const std::string& status);
  ~MatchFeed();

  struct Slice {
    std::string text;        // whole events, text/event-stream
    uint64_t last_index = 0;  // the last event's index (after_index if none)
    bool complete = false;    // `text` ends with the end event
  };
  // The events with index > after_index that spectators see with a delay
  // of `delay_decisions` decisions (an event is seen once that many
  // actions follow it, or once the match is over), about max_bytes of them
  // (at least one), then the end event if the match is over and they were
  // the last.
  Slice After(uint64_t after_index, uint32_t delay_decisions,
              size_t max_bytes) const ABSL_LOCKS_EXCLUDED(mu_);

  // Grows with every change After may show.
  uint64_t version() const ABSL_LOCKS_EXCLUDED(notify_mu_);
  // Calls `wake` once, on any thread, when version() passes `seen` (at
  // once if it already has), replacing the wake `id` had. `wake` is called
  // with the feed's notify lock held, so it must only post work elsewhere;
  // once Unwatch(id) returns it is never called.
  void WatchSince(uint64_t seen, int id, std::function<void()> wake)
      ABSL_LOCKS_EXCLUDED(notify_mu_);
  void Unwatch(int id) ABSL_LOCKS_EXCLUDED(notify_mu_);
  // An id for WatchSince, unique in this feed.
  int NewWatchId() { return next_watch_id_.fetch_add(1); }

  // Reads what the match added since the last refresh. Called by the
  // scheduled refreshes; tests call it to be exact.
  void Refresh() ABSL_LOCKS_EXCLUDED(build_mu_, mu_, notify_mu_);

 private:
  struct PublicEvent {
    uint64_t index = 0;
    uint32_t actions_through = 0;  // actions in the log up to this event
    std::string text;              // the event in text/event-stream form
  };
  // What the records read so far make, before it is published.
  struct Built {
    std::vector<PublicEvent> events;
    uint32_t actions = 0;
    // For the end event.
    std::string final_text;
    std::string end_reason;
    std::string problem;
  };

  MatchFeed(const GameRegistry* registry, Scheduler* scheduler,
            absl::Duration refresh_interval);
  // From the match's watcher (its thread, no lock of the match held).
  void RequestRefresh();
  // The record at log position `index` (the header is 1).
  void AddRecord(uint64_t index, const v1::LogRecord& record, Built* built)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(build_mu_);
  // `built` with what the end event tells.
  void Finish(Built* built) ABSL_EXCLUSIVE_LOCKS_REQUIRED(build_mu_);
  void Publish(Built built, bool over, const std::string& end_status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(build_mu_)
          ABSL_LOCKS_EXCLUDED(mu_, notify_mu_);

  const GameRegistry* const registry_;
  Scheduler* const scheduler_;
  const absl::Duration refresh_interval_;
  std::shared_ptr<service::Match> match_;  // null for a log's feed
  int watcher_id_ = -1;
  std::weak_ptr<MatchFeed> self_;
  std::atomic<bool> refresh_pending_{false};
  // When the next refresh may run (absl::Time in ns since the epoch): the
  // watcher reads it without a lock.
  std::atomic<int64_t> next_refresh_ns_{0};
  std::atomic<int> next_watch_id_{1};

  // The public playback: made by one refresh at a time.
  absl::Mutex build_mu_ ABSL_ACQUIRED_BEFORE(mu_);
  uint64_t read_ ABSL_GUARDED_BY(build_mu_) = 0;  // records read
  std::unique_ptr<log_tools::PlaybackBuilder> builder_
      ABSL_GUARDED_BY(build_mu_);
  std::string problem_ ABSL_GUARDED_BY(build_mu_);
  log_tools::Table last_table_ ABSL_GUARDED_BY(build_mu_);
  int rounds_ ABSL_GUARDED_BY(build_mu_) = 0;
  uint32_t actions_ ABSL_GUARDED_BY(build_mu_) = 0;
  std::string final_text_ ABSL_GUARDED_BY(build_mu_);
  std::string end_reason_ ABSL_GUARDED_BY(build_mu_);

  // What the streams read.
  mutable absl::Mutex mu_ ABSL_ACQUIRED_BEFORE(notify_mu_);
  std::vector<PublicEvent> events_ ABSL_GUARDED_BY(mu_);
  uint32_t actions_total_ ABSL_GUARDED_BY(mu_) = 0;
  bool over_ ABSL_GUARDED_BY(mu_) = false;
  std::string end_text_ ABSL_GUARDED_BY(mu_);

  mutable absl::Mutex notify_mu_;
  uint64_t version_ ABSL_GUARDED_BY(notify_mu_) = 0;
  std::map<int, std::function<void()>> waiting_ ABSL_GUARDED_BY(notify_mu_);
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_MATCH_FEED_H_
