// Structured log lines for operators: one line per match start, end and
// fault, as key=value pairs (docs/operations.md, "Structured log lines"),
// e.g. (one line)
//   ts=2026-12-01T12:00:00.123Z event=match_end match=<game>-... game=<game>
//   status=ABORTED cause=ABORT_CAUSE_LOG_WRITE_FAILED reason="cannot ..."
#ifndef CARDREF_REFEREE_SERVICE_OPS_LOG_H_
#define CARDREF_REFEREE_SERVICE_OPS_LOG_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace cardref::service {

// Where the lines go. Thread-safe; Write may be called with a match's lock
// held, so it must not block for long.
class OpsLog {
 public:
  virtual ~OpsLog() = default;
  // One line, without its newline.
  virtual void Write(const std::string& line) = 0;
};

// Writes each line to stderr with one write(2), so lines of different
// threads never interleave.
OpsLog* StderrOpsLog();

using OpsField = std::pair<std::string, std::string>;

// "ts=<RFC 3339 UTC, ms> k1=v1 k2=v2 ...". A value that is empty or holds a
// space, '"', '=', '\\' or a control character is quoted, with '"' and
// '\\' escaped and control characters written as \n, \t or \xHH, so every
// line stays one line and splits unambiguously.
std::string FormatOpsLine(absl::Time ts, const std::vector<OpsField>& fields);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_OPS_LOG_H_
