#include "tournament/report.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "analyzer/batch.h"
#include "analyzer/cli.h"
#include "nlohmann/json.hpp"
#include "games/all_games.h"

namespace cardref::tournament {

absl::Status WriteMatchFile(const std::string& dir,
                            const ScheduleConfig& config,
                            const ScheduledMatch& match,
                            const MatchOutcome& outcome) {
  const std::string folder = absl::StrCat(dir, "/matches");
  mkdir(folder.c_str(), 0700);
  nlohmann::json j;
  j["key"] = match.key;
  j["game"] = config.games[match.game].id;
  j["players"] = config.games[match.game].players;
  j["deal_set"] = match.deal_set;
  j["outcome"] = outcome.record.outcome;
  j["match_id"] = outcome.record.match_id;
  j["log"] = outcome.record.log_path;
  j["reason"] = outcome.record.reason;
  j["scores"] = nlohmann::json::array();
  for (int64_t s : outcome.info.result().scores()) j["scores"].push_back(s);
  j["winners"] = nlohmann::json::array();
  for (int w : outcome.info.result().winners()) j["winners"].push_back(w);
  // By seat, 1 = best (ties share): what --sprt reads back on a resume.
  j["ranks"] = nlohmann::json::array();
  for (int r : outcome.info.result().ranks()) j["ranks"].push_back(r);
  j["seats"] = nlohmann::json::array();
  for (size_t seat = 0; seat < match.seats.size(); ++seat) {
    nlohmann::json s;
    s["seat"] = seat;
    s["bot"] = config.bots[match.seats[seat]].name;
    if (seat < outcome.seats.size()) {
      s["exit"] = outcome.seats[seat].exit;
      // How its bot ended, by a stable name, and the limit that ended it
      // (a fault of its own, apart from timeouts, crashes and rejections).
      if (!outcome.seats[seat].end.empty()) s["end"] = outcome.seats[seat].end;
      if (!outcome.seats[seat].limit.empty()) {
        s["limit"] = outcome.seats[seat].limit;
      }
      s["failed"] = outcome.seats[seat].failed;
      const v1::SeatFaults& f = outcome.seats[seat].faults;
      s["faults"] = {{"timeouts", f.timeouts()},
                     {"disconnections", f.disconnections()},
                     {"rejections", f.rejections()},
                     {"played_for", f.played_for()},
                     {"absent", f.absent()},
                     {"forfeited", f.forfeited()}};
      if (!outcome.seats[seat].stderr_tail.empty()) {
        s["stderr_tail"] = outcome.seats[seat].stderr_tail;
      }
    }
    j["seats"].push_back(s);
  }
  return WriteFileAtomically(
      absl::StrCat(folder, "/", match.key, ".json"),
      j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
      0600);
}

absl::StatusOr<int> WriteEventReport(
    const std::string& dir, const std::vector<ScheduledMatch>& schedule,
    const std::map<std::string, MatchRecord>& records) {
  nlohmann::json report;
  report["scheduled"] = schedule.size();
  report["matches"] = nlohmann::json::array();
  int not_finished = 0;
  int played = 0;
  for (const ScheduledMatch& match : schedule) {
    auto it = records.find(match.key);
    if (it == records.end()) continue;
    ++played;
    std::ifstream in(absl::StrCat(dir, "/matches/", match.key, ".json"));
    nlohmann::json entry = nlohmann::json::parse(in, nullptr, false);
    if (entry.is_discarded()) {
      entry = {{"key", match.key},
               {"outcome", it->second.outcome},
               {"match_id", it->second.match_id},
               {"log", it->second.log_path},
               {"reason", it->second.reason}};
    }
    if (it->second.outcome != "finished") ++not_finished;
    report["matches"].push_back(entry);
  }
  report["played"] = played;
  report["not_finished"] = not_finished;
  absl::Status s = WriteFileAtomically(
      absl::StrCat(dir, "/report.json"),
      report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
          "\n",
      0600);
  if (!s.ok()) return s;
  return not_finished;
}

absl::StatusOr<Standings> ComputeStandings(const std::vector<std::string>& logs,
                                           const std::string& referee_key) {
  Standings standings;
  if (logs.empty()) return standings;
  analyzer::CliOptions options;
  options.referee_key = referee_key;
  options.jobs = 2;
  std::ostringstream out, err;
  for (analyzer::Format format :
       {analyzer::Format::kText, analyzer::Format::kJson}) {
    options.format = format;
    out.str("");
    const int code =
        analyzer::RunCommand("ratings", logs, options, AllGames(), out, err);
    if (code != analyzer::kExitOk) {
      return absl::InternalError(absl::StrCat(
          "the analyzer's ratings failed (exit ", code, "): ", err.str()));
    }
    (format == analyzer::Format::kText ? standings.text : standings.json) =
        out.str();
  }
  return standings;
}

absl::Status WriteStandingsPartial(const std::string& path,
                                   const std::vector<std::string>& logs,
                                   const std::string& referee_key,
                                   const ShardSpec& shard) {
  analyzer::BatchOptions batch;
  batch.jobs = 2;
  if (!referee_key.empty()) {
    absl::StatusOr<std::string> key = analyzer::ReadRefereeKey(referee_key);
    if (!key.ok()) return key.status();
    batch.audit.referee_public_key = *key;
  }
  v1::AnalysisPartial partial;
  partial.set_command("ratings");
  partial.set_shard_index(shard.index + 1);
  partial.set_shard_count(shard.count);
  for (v1::GameSummary& s : analyzer::SummarizeFiles(logs, batch, AllGames())) {
    *partial.add_games() = std::move(s);
  }
  return WriteFileAtomically(path, partial.SerializeAsString(), 0600);
}

}  // namespace cardref::tournament
