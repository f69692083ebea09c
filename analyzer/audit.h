// The audit of one game log file: is it complete, intact, and exactly what
// the engine computes from its own header, chance events and actions?
// Reading is record/game_log.h's job, replaying replay.h's; this file turns
// both into one verdict and a one-line message.
#ifndef CARDREF_ANALYZER_AUDIT_H_
#define CARDREF_ANALYZER_AUDIT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "analyzer/integrity.h"
#include "analyzer/replay.h"
#include "referee/games/api/registry.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {

enum class Verdict {
  kOk,          // intact, complete (final result) and consistent
  kMismatch,    // a record does not follow from the ones before it
  kIncomplete,  // ends early: torn tail, empty file, or no final result
  kCorrupt,     // damage in the framing or a payload that is not a record
  kAborted,     // the referee aborted the match (the log says why)
  kTampered,    // not the log the referee signed and committed to: broken
                // hash chain, bad signature, another key, a seed or a deck
                // order that does not match the commitment (integrity.h)
  kUnreadable,  // cannot be read, or this build cannot audit it (unknown
                // game, newer format, other rules_version, bad header)
};

// "OK", "MISMATCH", "INCOMPLETE", "CORRUPT", "ABORTED", "TAMPERED",
// "UNREADABLE".
absl::string_view VerdictName(Verdict verdict);

struct AuditOptions {
  // Read past corruption (record::ReadOptions::salvage) and replay the
  // salvaged records too. The verdict of a damaged file stays CORRUPT.
  bool salvage = false;
  // The referee's public key (32 bytes) every log must be signed with.
  std::string referee_public_key;
};

struct AuditReport {
  std::string file;
  Verdict verdict = Verdict::kUnreadable;
  std::string message;  // one line, without the verdict and file name
  std::string game;     // from the header; empty without one
  int rounds = 0;       // round results verified
  int64_t records = 0;  // records read (salvaged ones included)
  // Records from the start (header included) that replayed consistently.
  int64_t consistent_records = 0;
  bool salvage_mode = false;
  std::optional<Discrepancy> discrepancy;  // the first one, if any
  // IntegrityChecker::Label() and Summary(), and its first finding.
  std::string integrity;
  std::string integrity_summary;
  std::optional<IntegrityFinding> integrity_finding;

  bool ok() const { return verdict == Verdict::kOk; }
  // "OK <file> (<game>, <n> rounds, <m> records, <integrity>)" or
  // "<VERDICT> <file>: <message>".
  std::string Line() const;
};

// Audits a log already read. `file` is only for the report. A replay
// discrepancy is reported before an integrity finding at the same record
// or a later one.
AuditReport AuditGameLog(const record::GameLog& log, absl::string_view file,
                         const GameRegistry& registry,
                         bool salvage_mode = false,
                         const IntegrityOptions& integrity = {});

// Reads `path` and audits it (UNREADABLE if it cannot be read).
AuditReport AuditFile(const std::string& path, const AuditOptions& options,
                      const GameRegistry& registry);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_AUDIT_H_
