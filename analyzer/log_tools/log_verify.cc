#include "analyzer/log_tools/log_verify.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::log_tools {

absl::string_view VerifyFaultName(VerifyFault fault) {
  switch (fault) {
    case VerifyFault::kNone:
      return "OK";
    case VerifyFault::kUnreadable:
      return "UNREADABLE";
    case VerifyFault::kTornTail:
      return "TORN";
    case VerifyFault::kCorrupt:
      return "CORRUPT";
    case VerifyFault::kCheck:
      return "CHECK";
    case VerifyFault::kTampered:
      return "TAMPERED";
    case VerifyFault::kIncomplete:
      return "INCOMPLETE";
  }
  return "?";
}

std::string VerifyReport::Line() const {
  if (ok()) {
    return absl::StrCat("OK ", file, " (", records, " records, ", file_size,
                        " bytes", integrity.empty() ? "" : ", ", integrity,
                        ")");
  }
  if (fault == VerifyFault::kUnreadable || fault == VerifyFault::kTampered) {
    return absl::StrCat(VerifyFaultName(fault), " ", file, ": ", message);
  }
  // Framing messages name their byte offset already (record_io.cc).
  const std::string where =
      fault == VerifyFault::kCheck
          ? absl::StrCat("record ", records, " at byte ", fault_offset, ": ")
          : "";
  return absl::StrCat(VerifyFaultName(fault), " ", file, ": ", where, message,
                      " (", records, " intact records)");
}

VerifyReport VerifyBytes(absl::string_view bytes, absl::string_view file,
                         const std::vector<RecordCheck*>& checks) {
  VerifyReport report;
  report.file = std::string(file);
  report.file_size = bytes.size();
  absl::Status check_status;
  uint64_t check_offset = 0;
  const record::RecordFile framing = record::ScanRecords(
      bytes, [&](uint64_t offset, absl::string_view payload) {
        for (RecordCheck* check : checks) {
          check_status = check->Add(report.records, offset, payload);
          if (!check_status.ok()) {
            check_offset = offset;
            return false;
          }
        }
        ++report.records;
        return true;
      });
  if (!check_status.ok()) {
    report.fault = VerifyFault::kCheck;
    report.fault_offset = check_offset;
    report.message = std::string(check_status.message());
    return report;
  }
  switch (framing.end) {
    case record::FileEnd::kComplete:
      break;
    case record::FileEnd::kTornTail:
      report.fault = VerifyFault::kTornTail;
      break;
    case record::FileEnd::kCorrupt:
      report.fault = VerifyFault::kCorrupt;
      break;
  }
  if (!report.ok()) {
    report.fault_offset = framing.damage_offset;
    report.message = framing.damage;
    return report;
  }
  for (RecordCheck* check : checks) {
    if (absl::Status st = check->Finish(); !st.ok()) {
      report.fault = VerifyFault::kCheck;
      report.fault_offset = bytes.size();
      report.message = std::string(st.message());
      return report;
    }
  }
  return report;
}

VerifyReport VerifyFile(const std::string& path,
                        const std::vector<RecordCheck*>& checks) {
  absl::StatusOr<std::string> bytes = record::ReadWholeFile(path);
  if (!bytes.ok()) {
    VerifyReport report;
    report.file = path;
    report.fault = VerifyFault::kUnreadable;
    report.message = std::string(bytes.status().message());
    return report;
  }
  return VerifyBytes(*bytes, path, checks);
}

}  // namespace cardref::log_tools
