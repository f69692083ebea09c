// What an event leaves in its folder besides the logs:
//   DIR/matches/<key>.json  one match: outcome, reason, every seat's bot,
//                           exit, faults (MatchInfo.seat_faults) and (if it
//                           failed) the tail of its stderr
//   DIR/report.json         every scheduled match's outcome, in order
//   DIR/standings.json      the analyzer's ratings of the finished logs
//   DIR/standings.txt       the same as a table (printed at the end)
//   DIR/standings.partial   the same logs as the analyzer's partial result
//                           of shard I+1 of N (`cardref_analyze merge` of
//                           every shard's file prints the event's standings)
#ifndef CARDREF_TOURNAMENT_REPORT_H_
#define CARDREF_TOURNAMENT_REPORT_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tournament/event_state.h"
#include "tournament/match_runner.h"
#include "tournament/schedule.h"

namespace cardref::tournament {

// DIR/matches/<key>.json for one match.
[[nodiscard]] absl::Status WriteMatchFile(const std::string& dir,
                                          const ScheduleConfig& config,
                                          const ScheduledMatch& match,
                                          const MatchOutcome& outcome);

// DIR/report.json over `schedule` (this shard's matches), from the match
// files. Returns the number of matches recorded as not finished.
[[nodiscard]] absl::StatusOr<int> WriteEventReport(
    const std::string& dir, const std::vector<ScheduledMatch>& schedule,
    const std::map<std::string, MatchRecord>& records);

struct Standings {
  std::string text;
  std::string json;
};

// Ratings with 95% bootstrap intervals of the logs (analyzer/ratings.h, the
// same as `cardref_analyze ratings --format=json LOGS`); `referee_key` as
// cardref_analyze --referee_key (empty: each log's own key).
[[nodiscard]] absl::StatusOr<Standings> ComputeStandings(
    const std::vector<std::string>& logs, const std::string& referee_key);

// Writes to `path` (atomically) the AnalysisPartial of `ratings` over the
// logs, as shard `shard.index + 1` of `shard.count` in the analyzer's
// numbering (1..N), so that `cardref_analyze merge` of the N shards' files
// prints the ratings of every shard's logs together, exactly as
// ComputeStandings of all of them. A shard without finished logs still
// writes its (empty) partial: the merge needs every shard.
[[nodiscard]] absl::Status WriteStandingsPartial(
    const std::string& path, const std::vector<std::string>& logs,
    const std::string& referee_key, const ShardSpec& shard);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_REPORT_H_
