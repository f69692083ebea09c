#include "analyzer/log_tools/integrity_check.h"

#include "absl/strings/str_cat.h"
#include "analyzer/replay.h"
#include "cardref/v1/log.pb.h"

namespace cardref::log_tools {

absl::Status IntegrityCheck::Add(int64_t index, uint64_t offset,
                                 absl::string_view payload) {
  if (problem_.has_value()) return absl::OkStatus();
  v1::LogRecord record;
  std::string problem;
  if (!record.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
    problem = "payload is not a LogRecord";
  } else if ((index == 0) != record.has_header()) {
    problem = index == 0 ? "first record is not a header"
                         : "a second header record";
  }
  if (!problem.empty()) {
    problem_ = Problem{index, offset, std::move(problem)};
    return absl::OkStatus();
  }
  checker_.Add(payload, offset, record);
  last_index_ = index;
  last_offset_ = offset;
  last_kind_ = analyzer::RecordKindName(record);
  ended_ |= record.has_final_result() || record.has_aborted();
  return absl::OkStatus();
}

absl::Status IntegrityCheck::Finish() {
  if (!finished_) checker_.Finish();
  finished_ = true;
  return absl::OkStatus();
}

namespace {

// The audit's wording (audit.cc), with what the missing end costs.
std::string IncompleteMessage(const IntegrityCheck& check) {
  if (check.last_index() < 0) {
    return "empty file: no header (the match never started)";
  }
  return absl::StrCat(
      "no final result: the file ends cleanly after record ",
      check.last_index(), " at byte ", check.last_offset(), " (",
      check.last_kind(), "); ",
      check.header_names_key()
          ? "no signed last record, so no signature covers these records"
          : "an unsigned log",
      " (cut short, or a match still in play)");
}

}  // namespace

VerifyReport VerifyFileIntegrity(const std::string& path,
                                 const analyzer::IntegrityOptions& options) {
  IntegrityCheck check(options);
  VerifyReport report = VerifyFile(path, {&check});
  check.Finish().IgnoreError();  // also after a framing fault
  const analyzer::IntegrityFinding* finding = check.first_finding();
  if (report.ok() && check.problem().has_value()) {
    // Intact framing around a payload that is not a game log's record.
    report.fault = VerifyFault::kCheck;
    report.fault_offset = check.problem()->offset;
    report.records = check.problem()->index;
    report.message = check.problem()->message;
  } else if (report.ok()) {
    report.integrity = check.Label();
    if (finding != nullptr) {
      report.fault = VerifyFault::kTampered;
      report.fault_offset = finding->byte_offset;
      report.message =
          absl::StrCat("record ", finding->record_index, " at byte ",
                       finding->byte_offset, " (", finding->record_kind,
                       "): ", finding->message);
    } else if (!check.ended()) {
      report.fault = VerifyFault::kIncomplete;
      report.fault_offset = report.file_size;  // where the end is missing
      report.message = IncompleteMessage(check);
    }
  } else if (finding != nullptr && finding->record_index < report.records) {
    // Cutting a log short must not hide a change before the cut.
    absl::StrAppend(&report.message, "; before it, ", finding->ToString());
  }
  return report;
}

}  // namespace cardref::log_tools
