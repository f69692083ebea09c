#include "referee/service/recovery.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"

namespace cardref::service {

namespace {

constexpr char kLogSuffix[] = ".cardlog";

// Appends the abort record to the (intact, endless) log at `path`.
absl::Status AppendAbort(
    const std::string& path, const record::GameLog& log,
    std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key) {
  ASSIGN_OR_RETURN(std::unique_ptr<record::WritableSink> sink,
                   record::OpenAppendSink(path));
  record::GameLogWriter writer(std::move(sink), std::move(signing_key));
  // A torn tail has been cut: the file ends where the damage began.
  writer.ContinueAfter(log, log.end == record::FileEnd::kTornTail
                                ? log.damage_offset
                                : log.file_size);
  v1::LogRecord record;
  record.mutable_aborted()->set_reason(kRestartedReason);
  record.mutable_aborted()->set_cause(v1::ABORT_CAUSE_REFEREE_RESTARTED);
  RETURN_IF_ERROR(writer.Write(std::move(record)));  // synced: the last one
  return writer.Close();
}

RecoveredLog RecoverOne(
    const std::string& path, const std::string& match_id,
    const absl::StatusOr<record::GameLog>& log,
    const std::shared_ptr<const crypto::Ed25519PrivateKey>& signing_key) {
  RecoveredLog out;
  out.match_id = match_id;
  out.path = path;
  auto damaged = [&](const std::string& why) {
    out.outcome = RecoveredLog::Outcome::kDamaged;
    out.description = absl::StrCat(match_id, ": ", why, "; left as it is");
    return out;
  };
  if (!log.ok()) return damaged(std::string(log.status().message()));
  if (log->end == record::FileEnd::kCorrupt) {
    return damaged(record::DescribeEnd(*log));
  }
  if (!log->has_header()) {
    // Created but never started (a waiting match), or torn in its header:
    // nothing was played. Removed, as a cancelled match's log is.
    std::error_code error;
    std::filesystem::remove(path, error);
    if (error) return damaged(absl::StrCat("cannot remove: ", error.message()));
    out.outcome = RecoveredLog::Outcome::kRemoved;
    out.description = absl::StrCat(
        match_id, ": interrupted before it started (", log->file_size,
        " bytes, no complete header); log removed");
    return out;
  }
  std::string cut;
  if (log->end == record::FileEnd::kTornTail) {
    if (absl::Status st = record::TruncateFile(path, log->damage_offset);
        !st.ok()) {
      return damaged(std::string(st.message()));
    }
    cut = absl::StrCat(", torn tail of ", log->file_size - log->damage_offset,
                       " bytes cut");
  }
  const size_t records = log->records.size();
  if (log->finished()) {  // ended, then torn after its end: nothing to add
    out.description =
        absl::StrCat(match_id, ": complete (", records, " records", cut, ")");
    return out;
  }
  if (absl::Status st = AppendAbort(path, *log, signing_key); !st.ok()) {
    return damaged(
        absl::StrCat("cannot append the abort record: ", st.message()));
  }
  out.description =
      absl::StrCat(match_id, ": interrupted after ", records, " records", cut,
                   "; logged as aborted (cause REFEREE_RESTARTED)");
  return out;
}

}  // namespace

absl::StatusOr<std::vector<RecoveredLog>> RecoverInterruptedLogs(
    const std::string& log_dir,
    const std::shared_ptr<const crypto::Ed25519PrivateKey>& signing_key) {
  std::vector<std::pair<std::string, std::string>> logs;  // (id, path)
  std::error_code error;
  for (std::filesystem::directory_iterator it(log_dir, error), end;
       !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!absl::EndsWith(name, kLogSuffix) || !it->is_regular_file()) continue;
    logs.emplace_back(name.substr(0, name.size() - (sizeof(kLogSuffix) - 1)),
                      it->path().string());
  }
  if (error) {
    return absl::UnavailableError(absl::StrCat("cannot list the log directory ",
                                               log_dir, ": ", error.message()));
  }
  std::sort(logs.begin(), logs.end());
  std::vector<RecoveredLog> recovered;
  for (const auto& [id, path] : logs) {
    // Sealed after its last record was synced: finished, and not worth
    // reading (a long event's directory holds mostly these).
    if (record::IsSealedFile(path)) continue;
    const absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
    if (log.ok() && log->end == record::FileEnd::kComplete && log->finished()) {
      continue;  // a finished game
    }
    recovered.push_back(RecoverOne(path, id, log, signing_key));
  }
  return recovered;
}

}  // namespace cardref::service
