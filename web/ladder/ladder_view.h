// What the ladder's web front shows (docs/web.md, "Ladder pages"), read
// from the ladder's store as JSON that the pages draw and the API answers:
// the leaderboard of each game, the entrants, one entrant's record and the
// recent matches.
//
// The twin rule: until every match dealt from the same seed of the same
// deal set is over (finished or voided), a match of it shows its id, game,
// kind and state only: no seats, result or log. A match's seed never appears. Ratings are the
// store's, which count a result as soon as it is recorded.
#ifndef CARDREF_WEB_LADDER_LADDER_VIEW_H_
#define CARDREF_WEB_LADDER_LADDER_VIEW_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ladder/store/store.h"
#include "nlohmann/json.hpp"

namespace cardref::web {

// Where the ladder keeps its files (ladder/run/play_match.h, LadderPaths).
struct LadderFiles {
  std::string logs;  // <log hash>.cardlog
  std::string bots;  // m<match id>.seat<N>.stderr
};

// One read of the store, for one answer. Not thread-safe; cheap to drop.
class LadderSnapshot {
 public:
  // FAILED_PRECONDITION for a store without a ladder.
  [[nodiscard]] static absl::StatusOr<LadderSnapshot> Read(
      ladder::LadderStore& store);

  const ladder::LadderConfig& config() const { return config_; }
  const std::vector<ladder::Entrant>& entrants() const { return entrants_; }
  const ladder::Entrant* FindEntrant(const std::string& name) const;
  const ladder::Version* FindVersion(int64_t id) const;
  const ladder::Match* FindMatch(int64_t id) const;
  const ladder::LadderGame* FindGame(int64_t id) const;
  // Every match of its deal set dealt from its seed (its twins) is
  // finished or voided.
  bool DealSetOver(const ladder::Match& match) const;
  // The entrant whose version sits in `seat` of `match`; "" if unknown.
  std::string EntrantOfSeat(const ladder::Match& match, size_t seat) const;
  // Matches, newest first.
  const std::vector<ladder::Match>& matches() const { return matches_; }
  const std::vector<ladder::Version>& versions() const { return versions_; }

 private:
  ladder::LadderConfig config_;
  std::vector<ladder::Entrant> entrants_;
  std::vector<ladder::Version> versions_;
  std::vector<ladder::Match> matches_;
  std::map<int64_t, size_t> version_index_, match_index_;
  std::set<std::string> open_deal_sets_;
};

// "craits:3" (and "/params" when the game has parameters).
std::string GameLabel(const ladder::LadderGame& game);

// {"ladder", "games": [{"id", "game", "label", "players", "params",
//  "standings": [{"rank", "entrant", "version_id", "conservative", "mu",
//  "sigma", "interval": [LOW, HIGH], "games", "last_game_micros"}]}]}:
// ranked versions by conservative rating (mu - 3 sigma), best first.
[[nodiscard]] absl::StatusOr<nlohmann::json> StandingsJson(
    ladder::LadderStore& store, const LadderSnapshot& snapshot);

// {"entrants": [{"name", "created_micros", "versions", "active_version",
//  "links": {"page", "api"}}]}.
nlohmann::json EntrantsJson(const LadderSnapshot& snapshot);

// One match as anyone may see it (the twin rule above); with
// `with_result`, the seats' ranks and scores of a finished one.
[[nodiscard]] absl::StatusOr<nlohmann::json> LadderMatchJson(
    ladder::LadderStore& store, const LadderSnapshot& snapshot,
    const ladder::Match& match);

// {"matches": [MATCH, ...]}: the `limit` newest matches.
[[nodiscard]] absl::StatusOr<nlohmann::json> RecentMatchesJson(
    ladder::LadderStore& store, const LadderSnapshot& snapshot, int limit);

// One entrant: {"name", "created_micros", "versions": [{"id", "status",
// "reason", "content_hash", "created_micros", "status_micros"}],
// "ratings": [{"game_id", "game", "version_id", "history": [{"mu",
// "sigma", "conservative"}]}], "recent_matches": [MATCH...], "faults":
// {"counted_matches", "by_kind": {KIND: N}}}. Faults are counted in the
// logs of its `fault_window` newest finished matches whose deal sets are
// over, and in its voided matches. NOT_FOUND for an unknown entrant.
[[nodiscard]] absl::StatusOr<nlohmann::json> EntrantJson(
    ladder::LadderStore& store, const LadderSnapshot& snapshot,
    const LadderFiles& files, const std::string& name, int recent,
    int fault_window);

// The path of a recorded log in `files`.
std::string LogPathOf(const LadderFiles& files, const std::string& log_hash);

}  // namespace cardref::web

#endif  // CARDREF_WEB_LADDER_LADDER_VIEW_H_
