// The recovery scan (docs/recovery.md): when a referee starts on a log
// directory, every log there that has no end (no final_result or aborted
// record) belongs to a match interrupted by a crash or kill of an earlier
// referee. Each is closed out: a torn tail is cut back to the last
// complete record, and a MatchAborted record (cause REFEREE_RESTARTED,
// chained, signed with the referee's key when it has one) is appended, so
// the log replays and audits up to where the match stopped.
//
// Only one referee may use a log directory at a time: the scan would close
// out another live referee's matches.
#ifndef CARDREF_REFEREE_SERVICE_RECOVERY_H_
#define CARDREF_REFEREE_SERVICE_RECOVERY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "referee/base/ed25519.h"

namespace cardref::service {

struct RecoveredLog {
  enum class Outcome {
    kAborted,  // closed out with an abort record: GetMatch shows ABORTED
    kRemoved,  // no header (the match never started): the file is removed
    kDamaged,  // corrupt before its end: left as it is, for a person
  };
  std::string match_id;  // the file name without ".cardlog"
  std::string path;
  Outcome outcome = Outcome::kAborted;
  // One line for the referee's start report, e.g.
  // "<match id>: interrupted after 57 records (torn tail of 12 bytes cut);
  // logged as aborted".
  std::string description;
};

// Scans `log_dir` (files named *.cardlog), in name order, reading every
// log that is not read-only (a sealed log is a finished one: record_io.h,
// IsSealedFile; finished logs of referees from before sealing are read,
// then skipped). Fails only if the directory cannot be listed; a log that
// cannot be repaired is reported as kDamaged.
absl::StatusOr<std::vector<RecoveredLog>> RecoverInterruptedLogs(
    const std::string& log_dir,
    const std::shared_ptr<const crypto::Ed25519PrivateKey>& signing_key);

// The reason written into the abort record.
inline constexpr char kRestartedReason[] =
    "the referee stopped during the match (crash or kill) and found it "
    "unfinished when it restarted; the log ends at its last complete record";

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_RECOVERY_H_
