// GetMatch for a match that is no longer in memory: its MatchInfo read back
// from its log (docs/recovery.md). Used once a finished match is evicted,
// and for the matches the recovery scan found interrupted.
#ifndef CARDREF_REFEREE_SERVICE_MATCH_ARCHIVE_H_
#define CARDREF_REFEREE_SERVICE_MATCH_ARCHIVE_H_

#include <string>

#include "absl/status/statusor.h"
#include "cardref/v1/referee.pb.h"
#include "referee/record/game_log.h"

namespace cardref::service {

// The MatchInfo a log shows: header (game, parameters, seats, policies,
// seed commitment), result or abort reason, forfeits, each seat's faults
// (counted from the records as the match counted them), the revealed
// seed, with from_log set. Status FINISHED or ABORTED by its last record; a log
// with neither (a match still being written, or damaged) is IN_PROGRESS,
// with end_reason describing how the file ends. log_path only
// `for_organiser`; `open` is not logged, so it reads false.
v1::MatchInfo MatchInfoFromLog(const record::GameLog& log,
                               const std::string& path, bool for_organiser);

// Reads `path` first. NOT_FOUND if there is no such log; FAILED_PRECONDITION
// if it has no header (a match that never started).
absl::StatusOr<v1::MatchInfo> ReadMatchInfo(const std::string& path,
                                            bool for_organiser);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_ARCHIVE_H_
