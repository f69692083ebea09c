#include "referee/service/match_archive.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "referee/service/fault_referee.h"

namespace cardref::service {

v1::MatchInfo MatchInfoFromLog(const record::GameLog& log,
                               const std::string& path, bool for_organiser) {
  v1::MatchInfo info;
  info.set_from_log(true);
  if (for_organiser) info.set_log_path(path);
  info.set_status(v1::MATCH_STATUS_IN_PROGRESS);
  if (!log.has_header()) return info;
  const v1::LogHeader& header = log.header();
  info.set_match_id(header.match_id());
  info.set_game(header.game());
  *info.mutable_params() = header.params();
  info.set_num_seats(header.seats_size());
  for (const v1::SeatInfo& seat : header.seats()) {
    if (!seat.player_name().empty()) *info.add_seats() = seat;
  }
  info.set_decision_time_limit_millis(header.decision_time_limit_millis());
  info.set_seed_commitment(header.seed_commitment());
  info.set_deal_set_id(header.deal_set_id());
  *info.mutable_clock() = header.clock();
  *info.mutable_fault_policy() = header.fault_policy();
  std::vector<int> forfeited;
  // The seats' faults, counted again from the records as the match did.
  FaultReferee faults(header.seats_size(), header.fault_policy());
  for (const v1::LogRecord& record : log.records) {
    faults.Replay(record);
    if (record.has_forfeit()) forfeited.push_back(record.forfeit().seat());
    if (record.has_seed_reveal()) info.set_seed(record.seed_reveal().seed());
    if (record.has_final_result()) {
      info.set_status(v1::MATCH_STATUS_FINISHED);
      *info.mutable_result() = record.final_result();
    }
    if (record.has_aborted()) {
      info.set_status(v1::MATCH_STATUS_ABORTED);
      info.set_end_reason(record.aborted().reason());
    }
  }
  std::sort(forfeited.begin(), forfeited.end());
  forfeited.erase(std::unique(forfeited.begin(), forfeited.end()),
                  forfeited.end());
  for (int s : forfeited) info.add_forfeited_seats(s);
  for (int s = 0; s < header.seats_size(); ++s) {
    *info.add_seat_faults() = faults.Tally(s);
  }
  if (!log.finished()) {
    // Never show the seed of a game whose end is not in the log.
    info.clear_seed();
    info.set_end_reason(
        absl::StrCat("the log has no end: ", record::DescribeEnd(log)));
  }
  return info;
}

absl::StatusOr<v1::MatchInfo> ReadMatchInfo(const std::string& path,
                                            bool for_organiser) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  if (!log.ok()) return log.status();
  if (!log->has_header()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the log of this match has no header: it never started (",
                     record::DescribeEnd(*log), ")"));
  }
  return MatchInfoFromLog(*log, path, for_organiser);
}

}  // namespace cardref::service
