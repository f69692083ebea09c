#include "referee/service/match_reporter.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"

namespace cardref::service {

MatchReporter::MatchReporter(std::string match_id, std::string game,
                             MetricsSink* metrics, OpsLog* ops_log)
    : match_id_(std::move(match_id)),
      game_(std::move(game)),
      metrics_(metrics),
      ops_log_(ops_log) {
  metrics_->MatchStatusChanged(game_, v1::MATCH_STATUS_UNSPECIFIED, reported_);
}

MatchReporter::~MatchReporter() {
  metrics_->MatchStatusChanged(game_, reported_, v1::MATCH_STATUS_UNSPECIFIED);
}

std::string MatchReporter::Line(const std::string& event,
                                std::vector<OpsField> fields) const {
  std::vector<OpsField> all = {
      {"event", event}, {"match", match_id_}, {"game", game_}};
  for (OpsField& f : fields) all.push_back(std::move(f));
  return FormatOpsLine(absl::Now(), all);
}

void MatchReporter::Written(const v1::LogRecord& record, uint64_t bytes) {
  metrics_->RecordWritten(game_, record, bytes);
  if (record.has_fault()) {
    const v1::FaultEvent& f = record.fault();
    ops_log_->Write(Line("fault", {{"seat", absl::StrCat(f.seat())},
                                   {"kind", v1::FaultKind_Name(f.kind())},
                                   {"detail", f.detail()}}));
  } else if (record.has_forfeit()) {
    const v1::Forfeit& f = record.forfeit();
    ops_log_->Write(Line("forfeit", {{"seat", absl::StrCat(f.seat())},
                                     {"reason", v1::ForfeitReason_Name(
                                                    f.reason())},
                                     {"detail", f.detail()}}));
  }
}

void MatchReporter::Status(const Snapshot& now) {
  if (now.status == reported_) return;
  metrics_->MatchStatusChanged(game_, reported_, now.status);
  const v1::MatchStatus before = reported_;
  reported_ = now.status;
  if (now.status == v1::MATCH_STATUS_IN_PROGRESS) {
    ops_log_->Write(
        Line("match_start", {{"players", absl::StrJoin(now.players, ",")}}));
    return;
  }
  if (now.status != v1::MATCH_STATUS_FINISHED &&
      now.status != v1::MATCH_STATUS_ABORTED &&
      now.status != v1::MATCH_STATUS_CANCELLED) {
    return;
  }
  std::vector<OpsField> fields = {
      {"status", v1::MatchStatus_Name(now.status)},
      {"started", before == v1::MATCH_STATUS_WAITING_FOR_PLAYERS ? "false"
                                                                 : "true"}};
  if (now.status == v1::MATCH_STATUS_ABORTED) {
    fields.emplace_back("cause", v1::AbortCause_Name(now.cause));
  }
  if (now.result != nullptr) {
    fields.emplace_back("ranks", absl::StrJoin(now.result->ranks(), ","));
  }
  fields.emplace_back("reason", now.end_reason);
  ops_log_->Write(Line("match_end", std::move(fields)));
}

void MatchReporter::Problem(const std::string& event,
                            const std::string& detail) {
  ops_log_->Write(Line(event, {{"detail", detail}}));
}

}  // namespace cardref::service
