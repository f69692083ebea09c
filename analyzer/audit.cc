#include "analyzer/audit.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/codec/arena_message.h"
#include "referee/codec/unknown_fields.h"
#include "referee/record/record_stream.h"

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

LogAudit::LogAudit(absl::string_view file, const GameRegistry* registry,
                   bool salvage_mode, const IntegrityOptions& integrity)
    : file_(file),
      registry_(registry),
      salvage_mode_(salvage_mode),
      integrity_(integrity) {}

LogAudit::~LogAudit() = default;

void LogAudit::Add(absl::string_view payload, const v1::LogRecord& record,
                   uint64_t offset, bool salvaged) {
  integrity_.Add(payload, offset, record);
  const int64_t index = records_++;
  last_offset_ = offset;
  last_kind_.assign(RecordKindName(record).data(), RecordKindName(record).size());
  if (salvaged && first_salvaged_ < 0) first_salvaged_ = index;
  if (index == 0) {
    first_offset_ = offset;
    const v1::LogHeader& header = record.header();
    game_ = header.game();
    Discrepancy problem;
    problem.record_index = 0;
    problem.byte_offset = offset;
    problem.record_kind = "header";
    // proto3 keeps unknown fields silently: a header with data this
    // analyzer cannot read is not audited as if the data were absent.
    if (std::optional<std::string> unknown = codec::FindUnknownField(record)) {
      problem.field = *unknown;
      problem.recorded = "present";
      problem.recomputed = "unknown to this analyzer";
      problem.explanation =
          "the header has a field this analyzer's schema does not know "
          "(written by a newer referee?)";
      unreadable_ = absl::StrCat("cannot audit: ", problem.ToString());
      header_problem_ = std::move(problem);
      return;
    }
    absl::StatusOr<std::unique_ptr<LogReplay>> created =
        LogReplay::Create(header, *registry_);
    if (!created.ok()) {
      problem.explanation = std::string(created.status().message());
      unreadable_ =
          absl::StrCat("record 0 at byte ", offset,
                       " (header): cannot audit: ", created.status().message());
      header_problem_ = std::move(problem);
      return;
    }
    replay_ = std::move(*created);
    consistent_records_ = 1;
    return;
  }
  if (replay_ == nullptr || stopped_) return;
  if (!replay_->Apply(record, index, offset, payload).ok()) {
    stopped_ = true;
    return;
  }
  ++consistent_records_;
}

AuditReport LogAudit::Finish(record::FileEnd end, uint64_t damage_offset,
                             absl::string_view damage) {
  AuditReport report;
  report.file = file_;
  report.records = records_;
  report.salvage_mode = salvage_mode_;
  report.end = end;
  if (end != record::FileEnd::kComplete) {
    report.damage_offset = damage_offset;
    report.damage = std::string(damage);
  }
  const std::string salvage_note = salvage_mode_ ? " [salvage mode]" : "";

  if (records_ == 0) {
    switch (end) {
      case record::FileEnd::kCorrupt:
        report.verdict = Verdict::kCorrupt;
        report.message =
            absl::StrCat(damage, "; no intact record", salvage_note);
        break;
      case record::FileEnd::kTornTail:
        report.verdict = Verdict::kIncomplete;
        report.message =
            absl::StrCat("torn tail: ", damage, "; no intact record");
        break;
      case record::FileEnd::kComplete:
        report.verdict = Verdict::kIncomplete;
        report.message = "empty file: no header (the match never started)";
        break;
    }
    return report;
  }

  report.game = game_;
  if (replay_ == nullptr) {
    report.verdict = Verdict::kUnreadable;
    report.message = unreadable_;
    report.header_problem = header_problem_;
    return report;
  }
  LogReplay& replay = *replay_;
  report.consistent_records = consistent_records_;
  // The first record read past damage (salvage mode), or records_.
  const int64_t first_salvaged =
      first_salvaged_ >= 0 ? first_salvaged_ : records_;
  report.rounds = replay.rounds_logged();
  report.discrepancy = replay.discrepancy();
  integrity_.Finish();
  report.integrity = integrity_.Label();
  report.integrity_summary = integrity_.Summary();
  if (integrity_.first_finding() != nullptr) {
    report.integrity_finding = *integrity_.first_finding();
  }
  // Also in a torn or damaged file: cutting a log short must not hide a
  // change before the cut. Records read past damage break the chain by
  // nature and are not judged.
  if (report.integrity_finding.has_value() &&
      report.integrity_finding->record_index < first_salvaged &&
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
      report.discrepancy->record_index < first_salvaged) {
    report.verdict = Verdict::kMismatch;
    report.message = report.discrepancy->ToString();
    return report;
  }
  switch (end) {
    case record::FileEnd::kCorrupt: {
      report.verdict = Verdict::kCorrupt;
      const int64_t before = first_salvaged;
      report.message = absl::StrCat(damage, "; the ", Records(before),
                                    " before it replay "
                                    "consistently");
      if (salvage_mode_) {
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
          "torn tail: ", damage, "; ", consistent, ", ", Progress(replay),
          replay.finished() ? "" : ", no final result");
      return report;
    case record::FileEnd::kComplete:
      break;
  }
  const int64_t last = records_ - 1;
  if (replay.aborted()) {
    report.verdict = Verdict::kAborted;
    report.message = absl::StrCat("match aborted at record ", last, " (byte ",
                                  last_offset_, "): \"", replay.abort_reason(),
                                  "\"; ", consistent, ", ", Progress(replay));
    return report;
  }
  if (replay.finished()) {
    report.verdict = Verdict::kOk;
    report.message = absl::StrCat(consistent, salvage_note);
    return report;
  }
  report.verdict = Verdict::kIncomplete;
  report.message =
      absl::StrCat("no final result: the file ends cleanly after record ", last,
                   " (byte ", last_offset_, ", ", last_kind_, "); ", consistent,
                   ", ", Progress(replay));
  return report;
}

AuditReport AuditGameLog(const record::GameLog& log, absl::string_view file,
                         const GameRegistry& registry, bool salvage_mode,
                         const IntegrityOptions& integrity) {
  LogAudit audit(file, &registry, salvage_mode, integrity);
  for (size_t i = 0; i < log.records.size(); ++i) {
    // Records past the damage, whatever marked them (framing or payload).
    const bool salvaged = log.end == record::FileEnd::kCorrupt &&
                          log.offsets[i] > log.damage_offset;
    audit.Add(log.payloads[i], log.records[i], log.offsets[i], salvaged);
  }
  return audit.Finish(log.end, log.damage_offset, log.damage);
}

namespace {

// ParseGameLog's rules for one raw record: "" if it is a usable LogRecord
// (parsed into *record), else what is wrong with it.
// Each record is parsed onto an arena, dropped before the next: a reused
// heap LogRecord was cleared twice per record (once by the parse) and
// allocated its sub-messages anew each time.
using RecordArena = codec::ArenaMessage<v1::LogRecord>;

std::string ParsePayload(absl::string_view payload, bool first,
                         v1::LogRecord* record) {
  if (!record->ParseFromArray(payload.data(),
                              static_cast<int>(payload.size()))) {
    return "payload is not a LogRecord";
  }
  if (first != record->has_header()) {
    return first ? "first record is not a header" : "a second header record";
  }
  return "";
}

IntegrityOptions Integrity(const AuditOptions& options) {
  IntegrityOptions integrity;
  integrity.trusted_public_key = options.referee_public_key;
  return integrity;
}

AuditReport Unreadable(const std::string& path, const absl::Status& status,
                       bool salvage) {
  AuditReport report;
  report.file = path;
  report.verdict = Verdict::kUnreadable;
  report.message = std::string(status.message());
  report.salvage_mode = salvage;
  return report;
}

// Salvage reads the whole file (resynchronising needs to look ahead).
AuditReport AuditWholeFile(const std::string& path, const AuditOptions& options,
                           const GameRegistry& registry,
                           const RecordObserver& observer) {
  record::ReadOptions read;
  read.salvage = options.salvage;
  absl::StatusOr<record::RecordFile> file = record::ReadRecordFile(path, read);
  if (!file.ok()) return Unreadable(path, file.status(), options.salvage);
  LogAudit audit(path, &registry, options.salvage, Integrity(options));
  record::FileEnd end = file->end;
  uint64_t damage_offset = file->damage_offset;
  std::string damage = file->damage;
  bool payload_damage = false;
  RecordArena arena;
  for (const record::Record& raw : file->records) {
    v1::LogRecord& record = arena.Fresh();
    const std::string problem =
        ParsePayload(raw.payload, audit.records() == 0, &record);
    if (!problem.empty()) {
      if (raw.salvaged || payload_damage) continue;
      payload_damage = true;
      end = record::FileEnd::kCorrupt;
      damage_offset = raw.offset;
      damage = absl::StrCat("record ", audit.records(), " at byte ", raw.offset,
                            ": ", problem);
      if (!options.salvage) break;
      continue;
    }
    const bool salvaged = raw.salvaged || payload_damage;
    if (observer) observer(raw.payload, record, raw.offset, salvaged, audit);
    audit.Add(raw.payload, record, raw.offset, salvaged);
  }
  return audit.Finish(end, damage_offset, damage);
}

}  // namespace

AuditReport AuditFile(const std::string& path, const AuditOptions& options,
                      const GameRegistry& registry,
                      const RecordObserver& observer) {
  if (options.salvage) {
    return AuditWholeFile(path, options, registry, observer);
  }
  absl::StatusOr<std::unique_ptr<record::RecordStream>> stream =
      record::RecordStream::Open(path);
  if (!stream.ok()) return Unreadable(path, stream.status(), false);
  LogAudit audit(path, &registry, false, Integrity(options));
  absl::string_view payload;
  uint64_t offset = 0;
  RecordArena arena;
  while ((*stream)->Next(&payload, &offset)) {
    v1::LogRecord& record = arena.Fresh();
    const std::string problem =
        ParsePayload(payload, audit.records() == 0, &record);
    if (!problem.empty()) {
      return audit.Finish(record::FileEnd::kCorrupt, offset,
                          absl::StrCat("record ", audit.records(), " at byte ",
                                       offset, ": ", problem));
    }
    if (observer) observer(payload, record, offset, false, audit);
    audit.Add(payload, record, offset, false);
  }
  return audit.Finish((*stream)->end(), (*stream)->damage_offset(),
                      (*stream)->damage());
}

}  // namespace cardref::analyzer
