// The audit of one game log file: is it complete, intact, and exactly what
// the engine computes from its own header, chance events and actions?
// Reading is record/record_stream.h's job (record/game_log.h's for a log
// already in memory), replaying replay.h's; this file turns both into one
// verdict and a one-line message.
#ifndef CARDREF_ANALYZER_AUDIT_H_
#define CARDREF_ANALYZER_AUDIT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "analyzer/integrity.h"
#include "analyzer/replay.h"
#include "games/api/registry.h"
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
  // The header holds a field this analyzer's schema does not know, or
  // cannot be audited: the finding at record 0.
  std::optional<Discrepancy> header_problem;
  record::FileEnd end = record::FileEnd::kComplete;
  uint64_t damage_offset = 0;
  std::string damage;  // framing damage, empty if none
  // IntegrityChecker::Label() and Summary(), and its first finding.
  std::string integrity;
  std::string integrity_summary;
  std::optional<IntegrityFinding> integrity_finding;

  bool ok() const { return verdict == Verdict::kOk; }
  // "OK <file> (<game>, <n> rounds, <m> records, <integrity>)" or
  // "<VERDICT> <file>: <message>".
  std::string Line() const;
};

// The audit of one log fed record by record, in file order, so a log can
// be audited as it streams by (memory bounded by the game's state, not the
// file). AuditGameLog and AuditFile are built on it. Not thread-safe.
class LogAudit {
 public:
  LogAudit(absl::string_view file, const GameRegistry* registry,
           bool salvage_mode, const IntegrityOptions& integrity = {});
  ~LogAudit();
  LogAudit(const LogAudit&) = delete;
  LogAudit& operator=(const LogAudit&) = delete;

  // Record `records()` of the file: record 0 is the header; `payload` is
  // its bytes exactly as framed (for the hash chain and signature).
  // `salvaged`: read past damage (salvage mode). Records after a
  // discrepancy are only counted (and still checked for integrity).
  void Add(absl::string_view payload, const v1::LogRecord& record,
           uint64_t offset, bool salvaged);
  // How the file ended (record_io.h); the report. A replay discrepancy is
  // reported before an integrity finding at the same record or a later
  // one. Call once.
  AuditReport Finish(record::FileEnd end, uint64_t damage_offset,
                     absl::string_view damage);

  int64_t records() const { return records_; }
  // The replay is running and every record so far followed (statistics can
  // use the records).
  bool consistent() const { return replay_ != nullptr && !stopped_; }
  // The replayed game after the records added so far; nullptr before the
  // header or when it cannot be audited.
  const State* state() const {
    return replay_ == nullptr ? nullptr : &replay_->state();
  }

 private:
  std::string file_;
  const GameRegistry* registry_;
  bool salvage_mode_;
  int64_t records_ = 0;
  int64_t consistent_records_ = 0;
  int64_t first_salvaged_ = -1;
  uint64_t first_offset_ = 0;
  uint64_t last_offset_ = 0;
  std::string last_kind_;
  std::string game_;
  std::string unreadable_;  // why the header cannot be audited
  std::optional<Discrepancy> header_problem_;
  std::unique_ptr<LogReplay> replay_;
  bool stopped_ = false;  // the replay found a discrepancy
  IntegrityChecker integrity_;
};

// Audits a log already read. `file` is only for the report.
AuditReport AuditGameLog(const record::GameLog& log, absl::string_view file,
                         const GameRegistry& registry,
                         bool salvage_mode = false,
                         const IntegrityOptions& integrity = {});

// Sees every usable record of a file as it is audited, in file order,
// before LogAudit::Add: its raw payload bytes (exactly as framed in the file,
// for hash chains and signatures), the parsed record, its byte offset,
// whether it was read past damage, and the audit so far.
using RecordObserver =
    std::function<void(absl::string_view payload, const v1::LogRecord& record,
                       uint64_t offset, bool salvaged, const LogAudit& audit)>;

// Audits `path` (UNREADABLE if it cannot be read). Streams the file record
// by record (record/record_stream.h); salvage mode reads the whole file.
AuditReport AuditFile(const std::string& path, const AuditOptions& options,
                      const GameRegistry& registry,
                      const RecordObserver& observer = nullptr);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_AUDIT_H_
