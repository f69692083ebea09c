#include "analyzer/audit.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::analyzer {
namespace {

// "in round 3 (2 rounds completed)" / "after the game's last round".
std::string Progress(const LogReplay& replay) {
  const State& state = replay.state();
  if (state.IsTerminal()) return "with the game over";
  return absl::StrCat("in round ", state.round(), " (",
                      state.rounds_completed(), " rounds completed)");
}

std::string Records(int64_t n) {
  return absl::StrCat(n, n == 1 ? " record" : " records");
}

}  // namespace

absl::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kOk:
      return "OK";
    case Verdict::kMismatch:
      return "MISMATCH";
    case Verdict::kIncomplete:
      return "INCOMPLETE";
    case Verdict::kCorrupt:
      return "CORRUPT";
    case Verdict::kAborted:
      return "ABORTED";
    case Verdict::kTampered:
      return "TAMPERED";
    case Verdict::kUnreadable:
      return "UNREADABLE";
  }
  return "?";
}

std::string AuditReport::Line() const {
  if (verdict == Verdict::kOk) {
    return absl::StrCat("OK ", file, " (", game, ", ", rounds,
                        rounds == 1 ? " round, " : " rounds, ",
                        Records(records), ", ", integrity, ")");
  }
  return absl::StrCat(VerdictName(verdict), " ", file, ": ", message);
}

AuditReport AuditGameLog(const record::GameLog& log, absl::string_view file,
                         const GameRegistry& registry, bool salvage_mode,
                         const IntegrityOptions& integrity_options) {
  AuditReport report;
  report.file = std::string(file);
  report.records = static_cast<int64_t>(log.records.size());
  report.salvage_mode = salvage_mode;
  const std::string salvage_note = salvage_mode ? " [salvage mode]" : "";

  if (log.records.empty()) {
    switch (log.end) {
      case record::FileEnd::kCorrupt:
        report.verdict = Verdict::kCorrupt;
        report.message =
            absl::StrCat(log.damage, "; no intact record", salvage_note);
        break;
      case record::FileEnd::kTornTail:
        report.verdict = Verdict::kIncomplete;
        report.message =
            absl::StrCat("torn tail: ", log.damage, "; no intact record");
        break;
      case record::FileEnd::kComplete:
        report.verdict = Verdict::kIncomplete;
        report.message = "empty file: no header (the match never started)";
        break;
    }
    return report;
  }

  const v1::LogHeader& header = log.header();
  report.game = header.game();
  absl::StatusOr<std::unique_ptr<LogReplay>> created =
      LogReplay::Create(header, registry);
  if (!created.ok()) {
    report.verdict = Verdict::kUnreadable;
    report.message =
        absl::StrCat("record 0 at byte ", log.offsets[0],
                     " (header): cannot audit: ", created.status().message());
    return report;
  }
  LogReplay& replay = **created;
  report.consistent_records = 1;

  // The first record read past damage (salvage mode), or records.size().
  size_t first_salvaged = log.records.size();
  if (log.end == record::FileEnd::kCorrupt) {
    for (size_t i = 0; i < log.offsets.size(); ++i) {
      if (log.offsets[i] > log.damage_offset) {
        first_salvaged = i;
        break;
      }
    }
  }

  for (size_t i = 1; i < log.records.size(); ++i) {
    if (!replay.Apply(log.records[i], static_cast<int64_t>(i), log.offsets[i])
             .ok()) {
      break;
    }
    ++report.consistent_records;
  }
  report.rounds = replay.rounds_logged();
  report.discrepancy = replay.discrepancy();
  IntegrityChecker integrity(integrity_options);
  for (size_t i = 0; i < log.records.size(); ++i) {
    integrity.Add(log.payloads[i], log.offsets[i], log.records[i]);
  }
  integrity.Finish();
  report.integrity = integrity.Label();
  report.integrity_summary = integrity.Summary();
  if (integrity.first_finding() != nullptr) {
    report.integrity_finding = *integrity.first_finding();
  }
  // Also in a torn or damaged file: cutting a log short must not hide a
  // change before the cut. Records read past damage break the chain by
  // nature and are not judged.
  if (report.integrity_finding.has_value() &&
      static_cast<size_t>(report.integrity_finding->record_index) <
          first_salvaged &&
      (!report.discrepancy.has_value() ||
       report.integrity_finding->record_index <
           report.discrepancy->record_index)) {
    report.verdict = Verdict::kTampered;
    report.message = report.integrity_finding->ToString();
    return report;
  }
  const std::string consistent =
      absl::StrCat(Records(report.consistent_records), " replay consistently");

  if (report.discrepancy.has_value() &&
      static_cast<size_t>(report.discrepancy->record_index) < first_salvaged) {
    report.verdict = Verdict::kMismatch;
    report.message = report.discrepancy->ToString();
    return report;
  }
  switch (log.end) {
    case record::FileEnd::kCorrupt: {
      report.verdict = Verdict::kCorrupt;
      const int64_t before = static_cast<int64_t>(first_salvaged);
      report.message = absl::StrCat(log.damage, "; the ", Records(before),
                                    " before it replay "
                                    "consistently");
      if (salvage_mode) {
        const int64_t past = report.records - before;
        absl::StrAppend(&report.message, "; salvage mode read ", Records(past),
                        " past the damage");
        if (report.discrepancy.has_value()) {
          // Record numbers count the records read, not those lost.
          absl::StrAppend(&report.message,
                          ", replaying across the gap stops at ",
                          report.discrepancy->ToString());
        } else if (past > 0) {
          absl::StrAppend(&report.message, ", and they replay consistently",
                          replay.finished() ? " to the final result" : "");
        }
      }
      return report;
    }
    case record::FileEnd::kTornTail:
      report.verdict = Verdict::kIncomplete;
      report.message = absl::StrCat(
          "torn tail: ", log.damage, "; ", consistent, ", ", Progress(replay),
          replay.finished() ? "" : ", no final result");
      return report;
    case record::FileEnd::kComplete:
      break;
  }
  if (replay.aborted()) {
    report.verdict = Verdict::kAborted;
    const size_t last = log.records.size() - 1;
    report.message = absl::StrCat(
        "match aborted at record ", last, " (byte ", log.offsets[last], "): \"",
        replay.abort_reason(), "\"; ", consistent, ", ", Progress(replay));
    return report;
  }
  if (replay.finished()) {
    report.verdict = Verdict::kOk;
    report.message = absl::StrCat(consistent, salvage_note);
    return report;
  }
  report.verdict = Verdict::kIncomplete;
  const size_t last = log.records.size() - 1;
  report.message = absl::StrCat(
      "no final result: the file ends cleanly after record ", last, " (byte ",
      log.offsets[last], ", ", RecordKind(log.records[last]), "); ", consistent,
      ", ", Progress(replay));
  return report;
}

AuditReport AuditFile(const std::string& path, const AuditOptions& options,
                      const GameRegistry& registry) {
  record::ReadOptions read;
  read.salvage = options.salvage;
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path, read);
  if (!log.ok()) {
    AuditReport report;
    report.file = path;
    report.verdict = Verdict::kUnreadable;
    report.message = std::string(log.status().message());
    report.salvage_mode = options.salvage;
    return report;
  }
  IntegrityOptions integrity;
  integrity.trusted_public_key = options.referee_public_key;
  return AuditGameLog(*log, path, registry, options.salvage, integrity);
}

}  // namespace cardref::analyzer
