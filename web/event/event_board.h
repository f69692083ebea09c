// What the event's web page shows (docs/web.md, "The event page"): the
// schedule's matches as they start and end, faults per bot, and the
// standings the analyzer computes from the finished logs.
//
// The twin rule: until every match of a deal set is over, a match of it
// shows its key, game, bots, status and link only (the referee's own page
// says no more about it either), and neither its result nor its faults
// count anywhere; its log joins the standings once the set is over. A
// seed never appears. A deal set split over shards is never over here.
#ifndef CARDREF_WEB_EVENT_EVENT_BOARD_H_
#define CARDREF_WEB_EVENT_EVENT_BOARD_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"
#include "tournament/event_listener.h"

namespace cardref::web {

// Thread-safe.
class EventBoard {
 public:
  void Start(const tournament::EventStart& start);
  void Started(const tournament::MatchRecord& record);
  // Returns true when it completed a deal set (the standings may change).
  bool Done(const tournament::ScheduledMatch& match,
            const tournament::MatchOutcome& outcome);
  void End();

  // {"event", "over", "counts": {STATUS: N}, "matches": [...], "faults":
  // [...], "games": [...], "bots": [...]} (docs/web.md).
  nlohmann::json EventJson() const;
  // The finished logs of the deal sets that are over, in schedule order.
  std::vector<std::string> StandingsLogs() const;
  std::string referee_key() const;
  // The log of match `key` if its replay may be shown: finished, its deal
  // set over; "" otherwise.
  std::string ReplayLog(const std::string& key) const;

  // The standings, once computed: the analyzer's ratings JSON text of
  // `logs` logs (empty text: none yet), or the error that computing them
  // met.
  void SetStandings(int logs, const std::string& ratings_json,
                    const std::string& error);
  // {"logs", "pending_logs", "updated_micros", "ratings", "error"}.
  nlohmann::json StandingsJson() const;

 private:
  struct Entry {
    tournament::ScheduledMatch match;
    std::string status = "scheduled";  // MatchRecord.outcome once known
    std::string match_id;
    std::string log_path;
    std::string reason;
    std::vector<int64_t> scores;
    std::vector<int> ranks;
    std::vector<std::string> seat_faults;  // per seat, in words
    bool over() const {
      return status == "finished" || status == "aborted" ||
             status == "cancelled" || status == "failed";
    }
  };
  struct BotFaults {
    int matches = 0;  // with any fault
    int timeouts = 0;
    int rejections = 0;
    int absent = 0;
    int played_for = 0;
    std::map<std::string, int> limits;
  };
  bool DealSetOverLocked(const std::string& deal_set) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CountFaultsLocked(const std::string& deal_set)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool ended_ ABSL_GUARDED_BY(mu_) = false;
  std::string event_ ABSL_GUARDED_BY(mu_);
  std::string referee_web_ ABSL_GUARDED_BY(mu_);
  std::string referee_key_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> games_ ABSL_GUARDED_BY(mu_);  // "craits:3"
  std::vector<std::string> bots_ ABSL_GUARDED_BY(mu_);
  std::vector<Entry> entries_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, size_t> by_key_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> deal_set_sizes_ ABSL_GUARDED_BY(mu_);
  // Faults of each bot over the seats its outcome told of, per deal set
  // until the set is over, then into `faults_`.
  std::map<std::string, std::map<std::string, BotFaults>> held_faults_
      ABSL_GUARDED_BY(mu_);
  std::map<std::string, BotFaults> faults_ ABSL_GUARDED_BY(mu_);
  int standings_logs_ ABSL_GUARDED_BY(mu_) = 0;
  nlohmann::json ratings_ ABSL_GUARDED_BY(mu_);
  std::string standings_error_ ABSL_GUARDED_BY(mu_);
  int64_t standings_micros_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_EVENT_EVENT_BOARD_H_
