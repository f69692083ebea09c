// Early stopping of a two-bot event (cardref_tournament --sprt; docs/
// tournament.md, "Early stopping"): the first bot against the second, the
// SPRT of analyzer/inference/sprt.h on deal-set outcomes (paired.h's
// HeadToHead, averaged over the matches of each deal set).
//
// Deal sets are taken in the schedule's order, and only once every match
// of a deal set is done (finished or not: an unfinished match adds no
// result), so the test sees the same sequence of units whatever order
// concurrent matches end in: it is checked after each deal set of that
// sequence, and the first one at which it accepts H0 or H1 is the
// decision. The same event (the same secret: the same deals and bot seeds)
// therefore stops at the same deal set with the same LLR, however many
// matches were in flight then and however often it was resumed.
//
// Thread-safe.
#ifndef CARDREF_TOURNAMENT_SPRT_STOP_H_
#define CARDREF_TOURNAMENT_SPRT_STOP_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "analyzer/inference/sprt.h"
#include "games/api/game.h"
#include "tournament/schedule.h"

namespace cardref::tournament {

// "ELO0,ELO1[,ALPHA,BETA]" (alpha and beta default to 0.05).
// INVALID_ARGUMENT naming --sprt otherwise (CheckSprtOptions' rules).
[[nodiscard]] absl::StatusOr<inference::SprtOptions> ParseSprtSpec(
    const std::string& text);

// What the stop rule knows now.
struct SprtState {
  // Set once the test accepted H0 or H1: the result at the deciding deal
  // set. Unset while it continues (or cannot decide yet).
  std::optional<inference::SprtResult> decision;
  // The last evaluation (the decision, once there is one).
  inference::SprtResult last;
  int deal_sets = 0;  // in the sequence tested so far
  int games = 0;      // finished matches in them
};

class SprtStop {
 public:
  // `schedule` is the whole event's (every shard's), `config` its
  // configuration (exactly two bots; CheckSprtEvent says so). `teams`
  // gives each game's partnerships (GameTraits::teams; may be empty).
  SprtStop(const ScheduleConfig& config,
           const std::vector<ScheduledMatch>& schedule,
           inference::SprtOptions options,
           std::vector<std::vector<int>> teams_by_game);

  // Match `key` is done: `ranks` by seat from its final result (empty if
  // it did not finish). Keys not in the schedule, and a key given twice,
  // are ignored. Returns the state after it.
  SprtState Done(const std::string& key, const std::vector<int>& ranks)
      ABSL_LOCKS_EXCLUDED(mu_);
  SprtState state() const ABSL_LOCKS_EXCLUDED(mu_);
  bool decided() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct DealSet {
    std::vector<std::string> keys;  // its matches, in schedule order
    int done = 0;
    std::vector<double> outcomes;  // the first bot's, per finished match
  };
  void AdvanceLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const inference::SprtOptions options_;
  const std::vector<std::vector<int>> teams_by_game_;
  std::map<std::string, const ScheduledMatch*> by_key_;
  std::vector<ScheduledMatch> schedule_;

  mutable absl::Mutex mu_;
  std::vector<DealSet> deal_sets_ ABSL_GUARDED_BY(mu_);  // schedule order
  std::map<std::string, int> deal_set_of_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, bool> seen_ ABSL_GUARDED_BY(mu_);
  std::vector<double> units_ ABSL_GUARDED_BY(mu_);  // the tested sequence
  size_t next_ ABSL_GUARDED_BY(mu_) = 0;  // first deal set not yet in it
  SprtState state_ ABSL_GUARDED_BY(mu_);
};

// INVALID_ARGUMENT unless the event has exactly two bots.
[[nodiscard]] absl::Status CheckSprtEvent(const ScheduleConfig& config);

// "SPRT: H1 accepted: LLR 3.02 (bounds -2.94, 2.94) after 14 deal sets, 28
// games; a against b: mean deal-set score 0.71" (or "SPRT: no decision
// ...").
std::string DescribeSprt(const SprtState& state, const ScheduleConfig& config);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_SPRT_STOP_H_
