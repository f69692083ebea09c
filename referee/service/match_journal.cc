#include "referee/service/match_journal.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "referee/base/status_macros.h"
#include "referee/service/match_events.h"

namespace cardref::service {

MatchJournal::MatchJournal(int seats, JournalOptions options,
                           MatchReporter* reporter)
    : options_(std::move(options)), reporter_(reporter), budgets_(seats) {}

absl::Status MatchJournal::Open() {
  if (log_ != nullptr) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<record::WritableSink>> sink =
      options_.open_log ? options_.open_log(options_.log_path)
                        : record::OpenAppendSink(options_.log_path);
  if (!sink.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot open the match log: ", sink.status().message()));
  }
  log_ = std::make_unique<record::GameLogWriter>(std::move(*sink),
                                                 options_.signing_key);
  log_->set_sync_policy(options_.log_sync);
  return absl::OkStatus();
}

absl::Status MatchJournal::Write(v1::LogRecord record) {
  if (log_ == nullptr) {
    return absl::FailedPreconditionError("the match log is closed");
  }
  absl::Status st = record.has_rejected() ? absl::OkStatus()
                                          : FlushUnloggedRejections();
  if (st.ok()) st = WriteOne(std::move(record));
  if (!st.ok()) {
    failed_ = true;
    // The operator's line has the whole error; what the seats and
    // GetMatch see names no path of the referee's machine.
    reporter_->Problem("log_write_failed", std::string(st.message()));
    return absl::UnavailableError(absl::StrCat(
        "cannot write the match log: ", WithoutPaths(st)));
  }
  return absl::OkStatus();
}

absl::Status MatchJournal::WriteRejection(int seat, uint64_t version,
                                          v1::LogRecord record) {
  RejectionBudget& budget = budgets_[seat];
  const int cap = options_.max_rejections_logged_per_decision;
  if (cap >= 0 && budget.logged >= cap) {
    // Counted only; written as one record before the next other record.
    ++budget.unlogged;
    budget.unlogged_version = version;
    return absl::OkStatus();
  }
  ++budget.logged;
  return Write(std::move(record));
}

absl::Status MatchJournal::FlushUnloggedRejections() {
  for (size_t s = 0; s < budgets_.size(); ++s) {
    RejectionBudget& budget = budgets_[s];
    budget.logged = 0;
    if (budget.unlogged == 0) continue;
    v1::LogRecord record;
    v1::RejectionsNotLogged* dropped = record.mutable_rejections_not_logged();
    dropped->set_seat(static_cast<int>(s));
    dropped->set_decision_version(budget.unlogged_version);
    dropped->set_count(budget.unlogged);
    budget.unlogged = 0;
    RETURN_IF_ERROR(WriteOne(std::move(record)));
  }
  return absl::OkStatus();
}

absl::Status MatchJournal::WriteOne(v1::LogRecord record) {
  v1::LogRecord written;  // as the log holds it: chained, maybe signed
  const uint64_t bytes_before = log_->bytes_written();
  RETURN_IF_ERROR(log_->Write(std::move(record), &written));
  reporter_->Written(written, log_->bytes_written() - bytes_before);
  const uint32_t actions_before =
      actions_through_.empty() ? 0 : actions_through_.back();
  actions_through_.push_back(actions_before + (written.has_action() ? 1 : 0));
  records_.push_back(std::move(written));
  return absl::OkStatus();
}

absl::Status MatchJournal::SyncDue() {
  if (log_ == nullptr) return absl::OkStatus();
  absl::Status st = log_->SyncDue();
  if (!st.ok()) {
    failed_ = true;
    reporter_->Problem("log_sync_failed", std::string(st.message()));
    return absl::Status(st.code(), WithoutPaths(st));
  }
  return st;
}

std::string MatchJournal::WithoutPaths(const absl::Status& st) const {
  const std::string dir =
      std::filesystem::path(options_.log_path).parent_path().string();
  std::string message = absl::StrReplaceAll(
      st.message(), {{options_.log_path, "the log file"}});
  if (!dir.empty()) message = absl::StrReplaceAll(message, {{dir, "the log folder"}});
  return message;
}

absl::Status MatchJournal::Close() {
  if (log_ == nullptr) return absl::OkStatus();
  absl::Status closed = log_->Close();
  log_.reset();
  return closed;
}

void MatchJournal::CloseAbandoned(std::vector<v1::LogRecord> records) {
  if (log_ == nullptr) return;
  // Without the torn record, and with the space kept for them, a full disk
  // still takes the closing records; if not, the file at least ends
  // cleanly after its last whole record.
  log_->DropTornTail().IgnoreError();
  log_->UseClosingReserve();
  absl::Status st = absl::OkStatus();
  for (v1::LogRecord& record : records) {
    st = FlushUnloggedRejections();
    if (st.ok()) st = WriteOne(std::move(record));
    if (!st.ok()) break;
  }
  if (!st.ok()) log_->DropTornTail().IgnoreError();
  log_->Close().IgnoreError();
  log_.reset();
}

EventBatch MatchJournal::EventsAfter(uint64_t after_index, Audience audience,
                                     uint32_t delay_decisions,
                                     size_t max_events, bool over) const {
  EventBatch batch;
  const uint32_t actions =
      actions_through_.empty() ? 0 : actions_through_.back();
  size_t i = std::min<uint64_t>(after_index, records_.size());
  for (; i < records_.size() && batch.events.size() < max_events; ++i) {
    if (audience == Audience::kSpectator && !over &&
        actions - actions_through_[i] < delay_decisions) {
      break;  // not yet: too few decisions since
    }
    std::optional<v1::MatchEvent> event =
        MakeMatchEvent(i + 1, records_[i], audience);
    if (event.has_value()) batch.events.push_back(*std::move(event));
  }
  batch.complete = over && i == records_.size();
  return batch;
}

}  // namespace cardref::service
