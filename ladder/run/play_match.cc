#include "ladder/run/play_match.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "analyzer/audit.h"
#include "analyzer/summary.h"
#include "games/all_games.h"
#include "ladder/store/pg_db.h"
#include "ladder/tools/remote_entrant.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"
#include "tournament/schedule.h"

namespace cardref::ladder::run {
absl::Status MakeDir(const std::string& path) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  }
  // An existing folder may have been made by hand with a wider mode.
  if (chmod(path.c_str(), 0700) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot make ", path, " owner-only: ",
                     std::strerror(errno)));
  }
  return absl::OkStatus();
}

namespace {

// Keeps the log under its hash: a hard link (the referee's logs are
// read-only once finished), a copy if the folders are on two file systems.
absl::Status KeepLog(const std::string& from, const std::string& to) {
  if (link(from.c_str(), to.c_str()) == 0 || errno == EEXIST) {
    return absl::OkStatus();
  }
  std::ifstream in(from, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string tmp = absl::StrCat(to, ".tmp");
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << bytes.str();
    if (!in || !out.flush()) {
      return absl::InternalError(
          absl::StrCat("cannot copy the log ", from, " to ", to));
    }
  }
  chmod(tmp.c_str(), 0400);
  if (rename(tmp.c_str(), to.c_str()) != 0) {
    return absl::InternalError(
        absl::StrCat("cannot rename ", tmp, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace

LadderPaths PathsFor(const std::string& db) {
  LadderPaths paths;
  paths.root = absl::StrCat(db, ".d");
  paths.referee = absl::StrCat(paths.root, "/referee");
  paths.logs = absl::StrCat(paths.root, "/logs");
  paths.bots = absl::StrCat(paths.root, "/bots");
  paths.credentials = absl::StrCat(paths.root, "/credentials");
  return paths;
}

absl::StatusOr<LadderPaths> LadderFolder(const std::string& db,
                                         const std::string& dir) {
  const bool postgres = IsPostgresUrl(db);
  if (dir.empty()) {
    if (postgres) {
      return absl::InvalidArgumentError(
          "--dir is needed with a PostgreSQL --db: the ladder's folder "
          "(referee keys, logs, the bots' output), one every worker sees or "
          "one per machine (docs/scale.md)");
    }
    return PathsFor(std::filesystem::absolute(db).string());
  }
  LadderPaths paths;
  paths.root = std::filesystem::absolute(dir).string();
  paths.referee = absl::StrCat(paths.root, "/referee");
  if (postgres) {
    char host[256] = {};
    gethostname(host, sizeof(host) - 1);
    paths.referee =
        absl::StrCat(paths.root, "/referees/", host, ".", getpid());
  }
  paths.logs = absl::StrCat(paths.root, "/logs");
  paths.bots = absl::StrCat(paths.root, "/bots");
  paths.credentials = absl::StrCat(paths.root, "/credentials");
  return paths;
}

absl::Status MakeLadderDirs(const LadderPaths& paths) {
  const std::string referees =
      std::filesystem::path(paths.referee).parent_path().string();
  for (const std::string* dir :
       {&paths.root, &referees, &paths.referee, &paths.logs, &paths.bots,
        &paths.credentials}) {
    if (dir->empty()) continue;  // a folder this use has no need of
    RETURN_IF_ERROR(MakeDir(*dir));
  }
  return absl::OkStatus();
}

std::string PlayerName(const Version& version) {
  return absl::StrCat(version.entrant_name, "-v", version.id);
}

std::vector<tournament::BotSpec> SeatBots(const std::vector<Version>& seats) {
  std::vector<tournament::BotSpec> bots;
  for (const Version& v : seats) {
    tournament::BotSpec bot;
    bot.name = PlayerName(v);
    // A remote entrant's bot connects by invitation: no process.
    if (IsRemoteCommand(v.command)) {
      bot.remote = true;
    } else {
      bot.command = absl::StrSplit(v.command, ' ', absl::SkipEmpty());
    }
    bots.push_back(std::move(bot));
  }
  return bots;
}

absl::StatusOr<std::string> FileSha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path));
  }
  crypto::Sha256Hasher hasher;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    hasher.Update(absl::string_view(buffer, in.gcount()));
  }
  return ToHex(hasher.Finish());
}

absl::StatusOr<PlayedMatch> ReadAuditedLog(const std::string& path,
                                           const std::string& referee_public_key,
                                           const Match& match) {
  analyzer::AuditOptions audit;
  audit.referee_public_key = referee_public_key;
  const v1::GameSummary summary =
      analyzer::SummarizeFile(path, audit, AllGames(), /*statistics=*/false);
  if (summary.audit().verdict() != "OK") {
    return absl::FailedPreconditionError(
        absl::StrCat("the log ", path, " does not audit: ",
                     summary.audit().verdict(), " ",
                     summary.audit().message()));
  }
  if (summary.seats_size() != static_cast<int>(match.seat_versions.size())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the log ", path, " has ", summary.seats_size(), " seats, match ",
        match.id, " ", match.seat_versions.size()));
  }
  PlayedMatch played;
  played.outcome = Outcome::kScored;
  ASSIGN_OR_RETURN(played.result.log_hash, FileSha256(path));
  played.result.match_id = match.id;
  for (const v1::SeatSummary& seat : summary.seats()) {
    if (seat.seat() < 0 ||
        seat.seat() >= static_cast<int>(match.seat_versions.size()) ||
        seat.rank() < 1) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the log ", path, " has no rank for seat ", seat.seat()));
    }
    played.result.seats.push_back(
        {seat.seat(), match.seat_versions[seat.seat()], seat.rank(),
         static_cast<double>(seat.score())});
  }
  played.game_digest = ToHex(summary.game_digest());
  played.seat_faults.assign(match.seat_versions.size(), "");
  return played;
}

PlayedMatch PlayLadderMatch(const Table& table, const LadderConfig& config,
                            const LadderGame& game,
                            const cardref::v1::GameInfo& info,
                            const Match& match,
                            const std::vector<Version>& seats,
                            const std::string& worker) {
  PlayedMatch played;
  played.seat_faults.assign(seats.size(), "");
  absl::StatusOr<std::string> secret = FromHex(match.seed, 32, "the match's seed");
  if (!secret.ok()) {
    played.reason = absl::StrCat("match ", match.id, " has a bad seed");
    return played;
  }
  tournament::ScheduleConfig schedule;
  schedule.bots = SeatBots(seats);
  schedule.games = {{game.game, game.players}};
  schedule.duplicate = config.duplicate;
  tournament::ScheduledMatch scheduled;
  scheduled.key = absl::StrCat("m", match.id);
  scheduled.deal_set = match.deal_set;
  scheduled.game = 0;
  for (size_t seat = 0; seat < seats.size(); ++seat) {
    scheduled.seats.push_back(static_cast<int>(seat));
  }
  tournament::MatchOptions options = table.match;
  options.params = game.params;
  options.decision_time_limit_ms = config.decision_time_limit_ms;
  options.match_budget_s = static_cast<double>(config.match_budget_ms) / 1000;
  for (const tournament::BotSpec& bot : schedule.bots) {
    if (bot.remote) options.invited_bots.insert(bot.name);
  }

  const tournament::MatchOutcome outcome = tournament::RunMatch(
      *table.stub, info, schedule, scheduled, *secret, options);
  played.referee_log = outcome.record.log_path;
  std::vector<std::string> bot_failures;
  for (const tournament::SeatOutcome& seat : outcome.seats) {
    if (seat.seat < 0 || seat.seat >= static_cast<int>(seats.size())) continue;
    std::vector<std::string> what;
    if (seat.failed) {
      what.push_back(seat.stderr_tail.empty()
                         ? seat.exit
                         : absl::StrCat(seat.exit, " (its output ends: ",
                                        absl::StripAsciiWhitespace(
                                            seat.stderr_tail),
                                        ")"));
      bot_failures.push_back(
          absl::StrCat("seat ", seat.seat, " (", seat.bot, "): ", seat.exit));
    }
    const std::string faults = tournament::DescribeFaults(seat.faults);
    if (!faults.empty()) what.push_back(faults);
    played.seat_faults[seat.seat] = absl::StrJoin(what, "; ");
  }
  if (!outcome.played) {
    played.reason = outcome.record.reason;
    return played;
  }
  if (outcome.info.status() != cardref::v1::MATCH_STATUS_FINISHED) {
    played.outcome =
        bot_failures.empty() ? Outcome::kRefereeFault : Outcome::kBotFault;
    played.reason = absl::StrCat("the match was ", outcome.record.outcome,
                                 outcome.record.reason.empty() ? "" : ": ",
                                 outcome.record.reason);
    return played;
  }
  absl::StatusOr<PlayedMatch> read = ReadAuditedLog(
      outcome.record.log_path, table.referee_public_key, match);
  if (!read.ok()) {
    // Bots cannot damage the referee's log: the disk or the referee did.
    played.reason = std::string(read.status().message());
    return played;
  }
  read->seat_faults = played.seat_faults;
  read->referee_log = played.referee_log;
  read->result.worker = worker;
  read->reason = outcome.record.reason;
  read->log_path =
      absl::StrCat(table.logs_dir, "/", read->result.log_hash, ".cardlog");
  if (absl::Status kept = KeepLog(outcome.record.log_path, read->log_path);
      !kept.ok()) {
    played.reason = std::string(kept.message());
    return played;
  }
  return *std::move(read);
}

}  // namespace cardref::ladder::run
