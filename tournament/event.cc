#include "tournament/event.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "analyzer/cli.h"
#include "nlohmann/json.hpp"
#include "grpcpp/grpcpp.h"
#include "referee/base/hex.h"
#include "referee/codec/game_catalog.h"
#include "games/all_games.h"
#include "games/api/game.h"
#include "referee/grpc/organiser_token.h"
#include "sandbox/environment.h"
#include "tournament/bot_folders.h"
#include "tournament/bot_pool.h"
#include "tournament/bot_sandbox.h"
#include "tournament/event_state.h"
#include "tournament/local_referee.h"
#include "tournament/process_tree.h"
#include "tournament/report.h"
#include "tournament/sprt_stop.h"

namespace cardref::tournament {
namespace {

int DefaultPlayers(const cardref::v1::GameInfo& info) {
  for (const cardref::v1::ParamInfo& p : info.params()) {
    if (p.name() == "num_players") return p.default_value().int_value();
  }
  return info.min_seats();
}

// Matches done, rate, ETA and wins so far, one line per match.
class Progress {
 public:
  Progress(std::FILE* out, size_t total, size_t already)
      : out_(out),
        total_(total),
        done_(already),
        start_(std::chrono::steady_clock::now()) {}

  void Done(const MatchOutcome& outcome, const ScheduledMatch& match,
            const ScheduleConfig& config) {
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    ++played_now_;
    for (int w : outcome.info.result().winners()) {
      if (w >= 0 && w < static_cast<int>(match.seats.size())) {
        ++wins_[config.bots[match.seats[w]].name];
      }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_)
            .count();
    const double rate = seconds > 0 ? played_now_ / seconds : 0;
    const double eta = rate > 0 ? (total_ - done_) / rate : 0;
    std::vector<std::string> wins;
    for (const auto& [name, n] : wins_)
      wins.push_back(absl::StrCat(name, " ", n));
    // A bot that exits 0 may still have timed out all match long: said so.
    std::vector<std::string> faults;
    for (const SeatOutcome& seat : outcome.seats) {
      std::string described = DescribeFaults(seat.faults);
      // A bot killed at a limit: its own fault, apart from the referee's.
      if (!seat.limit.empty()) {
        described = absl::StrCat("ended at its ", seat.limit,
                                  described.empty() ? "" : ", ", described);
      }
      if (described.empty()) continue;
      faults.push_back(
          absl::StrCat("seat ", seat.seat, " (", seat.bot, "): ", described));
      BotFaults& total = faults_[seat.bot];
      ++total.matches;
      if (!seat.limit.empty()) ++total.limits[seat.limit];
      total.timeouts += seat.faults.timeouts() + seat.faults.disconnections();
      total.rejections += seat.faults.rejections();
      total.absent += seat.faults.absent() ? 1 : 0;
      total.played_for += seat.faults.played_for();
    }
    std::fprintf(
        out_, "[%zu/%zu] %s %s%s%s%s%s  %.2f matches/s  ETA %.0f s  wins: %s\n",
        done_, total_, match.key.c_str(), outcome.record.outcome.c_str(),
        outcome.record.reason.empty() ? "" : " - ",
        outcome.record.reason.c_str(), faults.empty() ? "" : " - faults: ",
        absl::StrJoin(faults, "; ").c_str(), rate, eta,
        wins.empty() ? "none yet" : absl::StrJoin(wins, ", ").c_str());
    std::fflush(out_);
  }

  // One line per bot that had faults in the matches played now.
  void PrintFaults() {
    std::lock_guard<std::mutex> lock(mu_);
    if (faults_.empty()) return;
    std::fprintf(out_, "faults of the matches played now (matches/*.json has "
                       "each seat's):\n");
    for (const auto& [name, f] : faults_) {
      std::vector<std::string> limits;
      for (const auto& [limit, n] : f.limits) {
        limits.push_back(absl::StrCat(limit, " ", n));
      }
      std::fprintf(out_,
                   "  %s: faults in %d match(es): %d timeouts, %d rejected "
                   "submissions, made absent in %d, %d decisions played by "
                   "the referee%s%s\n",
                   name.c_str(), f.matches, f.timeouts, f.rejections, f.absent,
                   f.played_for, limits.empty() ? "" : "; ended at a limit: ",
                   absl::StrJoin(limits, ", ").c_str());
    }
    std::fflush(out_);
  }

 private:
  std::mutex mu_;
  std::FILE* out_;
  size_t total_;
  size_t done_;
  size_t played_now_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::map<std::string, int> wins_;
  struct BotFaults {
    int matches = 0;  // with any fault
    int timeouts = 0;  // disconnections included
    int rejections = 0;
    int absent = 0;  // matches it was made absent in
    int played_for = 0;
    std::map<std::string, int> limits;  // matches ended at each limit
  };
  std::map<std::string, BotFaults> faults_;
};

// Matches whose creation was given up when its answers were lost may wait
// on the referee for bots that will never come: end them, and say so.
void SettleLost(cardref::v1::Referee::Stub& stub,
                const std::vector<cardref::v1::CreateMatchRequest>& lost,
                const MatchOptions& options, std::FILE* progress) {
  if (lost.empty()) return;
  const SettledCreations settled = SettleLostCreations(stub, lost, options);
  std::fprintf(progress,
               "%zu creation(s) had their answers lost: %d match(es) they "
               "made ended on the referee",
               lost.size(), settled.ended);
  if (settled.unchecked > 0) {
    std::fprintf(progress,
                 "; %d not checked (the referee did not answer): they may "
                 "wait on it until it stops",
                 settled.unchecked);
  }
  std::fprintf(progress, "\n");
  std::fflush(progress);
}

// A match recorded as started by a run that was stopped: true (and
// recorded as finished) if the referee or its log says it finished; else
// it is ended on the referee if still there, and false: play it again.
absl::StatusOr<bool> RecoverStarted(cardref::v1::Referee::Stub& stub,
                                    const MatchOptions& options,
                                    const ScheduleConfig& config,
                                    const ScheduledMatch& match,
                                    const MatchRecord& started,
                                    const std::string& referee_key,
                                    const std::string& dir, EventState& state) {
  MatchOutcome outcome;
  outcome.record = started;
  cardref::v1::GetMatchRequest get;
  get.set_match_id(started.match_id);
  grpc::ClientContext context;
  grpc_service::AddOrganiserCredential(options.organiser_token, &context);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  cardref::v1::MatchInfo info;
  bool finished = false;
  if (stub.GetMatch(&context, get, &info).ok()) {
    finished = info.status() == cardref::v1::MATCH_STATUS_FINISHED;
    if (!finished && info.status() != cardref::v1::MATCH_STATUS_ABORTED &&
        info.status() != cardref::v1::MATCH_STATUS_CANCELLED) {
      // Its bots died with the stopped run: never leave it open.
      EndOnReferee(stub, options, started.match_id,
                   "the tournament was interrupted; the match is replayed");
    }
    if (!info.log_path().empty()) outcome.record.log_path = info.log_path();
    outcome.info = info;
  } else if (!started.log_path.empty() &&
             access(started.log_path.c_str(), R_OK) == 0) {
    // The referee is another one now: the log says whether it finished.
    std::ostringstream out, err;
    finished = analyzer::RunAudit({started.log_path}, false, AllGames(), out,
                                  err, referee_key) == analyzer::kExitOk;
  }
  if (!finished) return false;
  outcome.record.outcome = "finished";
  outcome.record.reason =
      "recovered: it finished before the run that played it was stopped";
  for (size_t seat = 0; seat < match.seats.size(); ++seat) {
    SeatOutcome recovered;
    recovered.seat = static_cast<int>(seat);
    recovered.bot = config.bots[match.seats[seat]].name;
    recovered.exit = "unknown (the run was stopped)";
    for (const cardref::v1::SeatFaults& f : info.seat_faults()) {
      if (f.seat() == recovered.seat) recovered.faults = f;
    }
    outcome.seats.push_back(std::move(recovered));
  }
  absl::Status s = WriteMatchFile(dir, config, match, outcome);
  if (s.ok()) s = state.Record(outcome.record);
  if (!s.ok()) return s;
  return true;
}

// Fills in the event's games (every game of the referee's when none were
// given) and their default player counts, and checks each game, player
// count and --params against the referee's list.
absl::StatusOr<std::vector<cardref::v1::GameInfo>> ResolveGames(
    const cardref::v1::ListGamesResponse& listed, const std::string& params,
    ScheduleConfig* config) {
  if (config->games.empty()) {
    for (const auto& g : listed.games()) config->games.push_back({g.id(), 0});
  }
  std::vector<cardref::v1::GameInfo> infos;
  for (GameSpec& game : config->games) {
    const cardref::v1::GameInfo* info = nullptr;
    for (const auto& g : listed.games()) {
      if (g.id() == game.id) info = &g;
    }
    if (info == nullptr) {
      std::vector<std::string> known;
      for (const auto& g : listed.games()) known.push_back(g.id());
      return absl::InvalidArgumentError(
          absl::StrCat("the referee has no game '", game.id, "' (it has ",
                       absl::StrJoin(known, ", "), ")"));
    }
    if (game.players == 0) game.players = DefaultPlayers(*info);
    if (game.players < info->min_seats() || game.players > info->max_seats()) {
      return absl::InvalidArgumentError(
          absl::StrCat(game.id, " is for ", info->min_seats(), " to ",
                       info->max_seats(), " players, not ", game.players));
    }
    cardref::v1::CreateMatchRequest probe;
    if (absl::Status s = AddParams(*info, params, &probe); !s.ok()) return s;
    infos.push_back(*info);
  }
  return infos;
}

// The web front of the event's own referee, once it has written its port
// (right after its gRPC port); empty if it has not within 5 s.
std::string RefereeWebAddress(const std::string& dir) {
  const std::string path = absl::StrCat(dir, "/referee_http.port");
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(path);
    int port = -1;
    if (in >> port && port > 0) return absl::StrCat("http://127.0.0.1:", port);
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return "";
}

// Prints `status` as cardref_tournament's error and returns `code`.
int Fail(int code, const absl::Status& status) {
  std::fprintf(stderr, "cardref_tournament: %s\n",
               std::string(status.message()).c_str());
  return code;
}

// The games `server` serves; UNAVAILABLE naming it if it cannot be asked.
absl::StatusOr<cardref::v1::ListGamesResponse> ListRefereeGames(
    const std::string& server) {
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(server, grpc::InsecureChannelCredentials()));
  cardref::v1::ListGamesResponse listed;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  grpc::Status s =
      stub->ListGames(&context, cardref::v1::ListGamesRequest(), &listed);
  if (!s.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot reach the referee at ", server, ": ", s.error_message()));
  }
  return listed;
}

// The event's games on `server`: `config`'s games and player counts filled
// in and checked against the games it lists (ResolveGames). UNAVAILABLE if
// it cannot be asked; INVALID_ARGUMENT for a game, count or --params it
// does not serve.
absl::StatusOr<std::vector<cardref::v1::GameInfo>> ResolveOnReferee(
    const std::string& server, const std::string& params,
    ScheduleConfig* config) {
  absl::StatusOr<cardref::v1::ListGamesResponse> listed =
      ListRefereeGames(server);
  if (!listed.ok()) return listed.status();
  return ResolveGames(*listed, params, config);
}

// cardref_tournament's exit code for a failed ResolveOnReferee.
int ResolveFailed(const absl::Status& status) {
  return Fail(absl::IsUnavailable(status) ? kEventError : kEventUsage, status);
}

// The ranks by seat a match file (report.h) recorded; empty if none.
std::vector<int> RecordedRanks(const std::string& dir, const std::string& key) {
  std::ifstream in(absl::StrCat(dir, "/matches/", key, ".json"));
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  std::vector<int> ranks;
  if (j.is_discarded() || !j.contains("ranks") || !j["ranks"].is_array() ||
      j.value("outcome", "") != "finished") {
    return ranks;
  }
  for (const nlohmann::json& r : j["ranks"]) {
    if (r.is_number_integer()) ranks.push_back(r.get<int>());
  }
  return ranks;
}

// Each game's partnerships, for the paired outcomes of --sprt.
std::vector<std::vector<int>> TeamsByGame(const ScheduleConfig& config) {
  std::vector<std::vector<int>> teams;
  for (const GameSpec& g : config.games) {
    const GameTraits& traits = TraitsOf(g.id);
    teams.push_back(traits.teams ? traits.teams(g.players) : std::vector<int>());
  }
  return teams;
}

// Whether `bot` takes its seats by invitation in this event.
bool ByInvitation(const EventOptions& options, const BotSpec& bot) {
  if (bot.remote) return true;
  // Started by hand: a process per match, the one you start.
  if (bot.name == options.match.by_hand) return false;
  if (options.bot_lifetime == "event") return true;
  if (options.bot_lifetime == "match") return false;
  return bot.invitable;
}

bool AnyByInvitation(const EventOptions& options) {
  for (const BotSpec& bot : options.schedule.bots) {
    if (ByInvitation(options, bot)) return true;
  }
  return false;
}

// The pools of the bots taken by invitation: each bot's processes ask for
// enough matches at once to hold every seat it can have while `concurrency`
// matches are played, so no match waits for a bot's room.
std::vector<PooledBot> PoolsFor(const EventOptions& options,
                                const std::vector<ScheduledMatch>& schedule) {
  std::vector<PooledBot> pools;
  for (size_t b = 0; b < options.schedule.bots.size(); ++b) {
    const BotSpec& bot = options.schedule.bots[b];
    if (!ByInvitation(options, bot)) continue;
    int most = 0;  // seats it holds in one match
    for (const ScheduledMatch& m : schedule) {
      most = std::max<int>(
          most, static_cast<int>(std::count(m.seats.begin(), m.seats.end(),
                                            static_cast<int>(b))));
    }
    PooledBot pooled;
    pooled.name = bot.name;
    pooled.command = bot.remote ? std::vector<std::string>() : bot.command;
    pooled.processes = bot.remote ? 0 : std::max(1, options.bot_pool);
    const int at_once = std::max(1, most * std::max(1, options.concurrency));
    pooled.max_matches = bot.remote ? at_once
                                    : (at_once + pooled.processes - 1) /
                                          pooled.processes;
    pools.push_back(std::move(pooled));
  }
  return pools;
}

}  // namespace

absl::Status CheckEventOptions(const EventOptions& options) {
  if (absl::Status shape = CheckScheduleShape(options.schedule); !shape.ok()) {
    return shape;
  }
  if (absl::Status shard = ParseShardSpec(options.shard).status();
      !shard.ok()) {
    return shard;
  }
  if (options.out_dir.empty()) {
    return absl::InvalidArgumentError(
        "--out=DIR is required: the event's folder, for resuming");
  }
  if (options.concurrency < 1) {
    return absl::InvalidArgumentError("--concurrency must be 1 or more");
  }
  if (!options.bot_lifetime.empty() && options.bot_lifetime != "event" &&
      options.bot_lifetime != "match") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_lifetime must be event or match, got '", options.bot_lifetime,
        "'"));
  }
  if (options.bot_pool < 1 || options.bot_pool > 256) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_pool must be 1 to 256 processes per bot, got ",
        options.bot_pool));
  }
  if (!(options.remote_wait_s > 0 && options.remote_wait_s <= 86400)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--remote_wait_s must be more than 0 and at most 86400, got ",
        options.remote_wait_s));
  }
  for (const BotSpec& bot : options.schedule.bots) {
    if (bot.remote && !options.match.by_hand.empty() &&
        bot.name == options.match.by_hand) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--by_hand=", bot.name, " names a remote bot: it connects by "
          "itself"));
    }
  }
  if (!options.sprt.empty()) {
    if (absl::Status s = ParseSprtSpec(options.sprt).status(); !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckSprtEvent(options.schedule); !s.ok()) return s;
    if (!options.shard.empty()) {
      return absl::InvalidArgumentError(
          "--sprt decides on the whole event's deal sets in order: it cannot "
          "stop one shard (give --sprt without --shard)");
    }
  }
  if (!options.match.by_hand.empty() && AnyByInvitation(options) &&
      options.bot_lifetime == "event") {
    return absl::InvalidArgumentError(
        "--by_hand plays a match at a time with processes per match: give "
        "--bot_lifetime=match with it");
  }
  if (!options.match.by_hand.empty()) {
    bool named = false;
    for (const BotSpec& bot : options.schedule.bots) {
      named |= bot.name == options.match.by_hand;
    }
    if (!named) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--by_hand=", options.match.by_hand,
          " names no --bot: give the bot as --bot='", options.match.by_hand,
          "=COMMAND' too (its command is what to start by hand)"));
    }
  }
  // A referee of our own from this build serves this build's games: check
  // the games, player counts and --params before it starts. Another referee
  // answers for itself in RunEvent: --server before the folder exists, a
  // --referee_bin of another build once it has started there.
  if (options.server.empty() &&
      options.referee_binary == DefaultRefereeBinary()) {
    ScheduleConfig resolved = options.schedule;
    if (absl::Status games =
            ResolveGames(codec::GameCatalog(AllGames()), options.match.params,
                         &resolved)
                .status();
        !games.ok()) {
      return games;
    }
    // Too few bots for a partnership game's teams, say.
    if (absl::Status schedule = BuildSchedule(resolved).status();
        !schedule.ok()) {
      return schedule;
    }
  }
  const MatchOptions& match = options.match;
  // 0 asks for the referee's default limit.
  if (match.decision_time_limit_ms < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--decision_time_limit_ms must be 0 (the referee's default) or more, "
        "got ", match.decision_time_limit_ms));
  }
  // Written so that NaN fails too.
  if (!(match.join_timeout_s > 0 && match.join_timeout_s <= 86400)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--join_timeout_s must be more than 0 and at most 86400, got ",
        match.join_timeout_s));
  }
  if (!(match.match_budget_s > 0 && match.match_budget_s <= 7 * 86400)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--match_budget_s must be more than 0 and at most 604800, got ",
        match.match_budget_s));
  }
  if (match.max_bot_output_mb < 1 || match.max_bot_output_mb > 1024) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_bot_output_mb must be 1 to 1024, got ",
        match.max_bot_output_mb));
  }
  if (match.max_bot_memory_mb < 16 || match.max_bot_memory_mb > (1 << 20)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_bot_memory_mb must be 16 to 1048576, got ",
        match.max_bot_memory_mb));
  }
  // Past kMaxTreeProcesses a bot's tree is not walked further.
  if (match.max_bot_threads < 16 ||
      match.max_bot_threads > kMaxTreeProcesses) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_bot_threads must be 16 to ", kMaxTreeProcesses, ", got ",
        match.max_bot_threads));
  }
  return absl::OkStatus();
}

int RunEvent(EventOptions options, std::FILE* progress) {
  // Before the event's folder or a referee exists: a typo leaves nothing.
  if (absl::Status st = CheckEventOptions(options); !st.ok()) {
    return Fail(kEventUsage, st);
  }
  if (options.sandbox) {
    std::vector<BotSpec> started;  // a bot started by hand is the user's
    for (const BotSpec& bot : options.schedule.bots) {
      if (bot.name != options.match.by_hand) started.push_back(bot);
    }
    if (absl::Status st = CheckBotFolders(started, options.bot_folders);
        !st.ok()) {
      return Fail(kEventUsage, st);
    }
  }
  // The games are resolved on the referee as soon as there is one: another
  // referee (--server) before the event's folder exists, so a game it
  // lacks, or a referee that is not there, leaves nothing behind either;
  // our own once it has started, in the folder.
  absl::StatusOr<std::vector<cardref::v1::GameInfo>> infos;
  if (!options.server.empty()) {
    infos = ResolveOnReferee(options.server, options.match.params,
                             &options.schedule);
    if (!infos.ok()) return ResolveFailed(infos.status());
    if (absl::Status st = BuildSchedule(options.schedule).status(); !st.ok()) {
      return Fail(kEventUsage, st);
    }
  }
  const std::string& dir = options.out_dir;
  absl::StatusOr<std::string> secret = LoadOrCreateSecret(dir);
  if (!secret.ok()) {
    return Fail(kEventError, secret.status());
  }
  absl::StatusOr<EventState> state = EventState::Open(dir);
  if (!state.ok()) {
    return Fail(kEventError, state.status());
  }
  std::optional<LocalReferee> local;
  if (options.server.empty()) {
    // Its own referee holds the event's bots' streams and seats whatever
    // their pools ask (the runner sizes them to --concurrency).
    // Logs synced at each match's end only: a match cut off by a crash is
    // played again from the start (docs/tournament.md), so a round's sync
    // would keep nothing the event uses; a finished match's last record is
    // synced before it counts, whatever the policy.
    std::vector<std::string> extra = {"--log_sync=end"};
    if (AnyByInvitation(options)) {
      extra.insert(extra.end(),
                   {"--max_invitations_per_credential=100000",
                    "--max_invitation_streams_per_credential=1024"});
    }
    if (options.referee_web) {
      // A resumed event's old port must not be read for the new one's.
      std::remove(absl::StrCat(dir, "/referee_http.port").c_str());
      extra.emplace_back("--http_port=0");
      extra.push_back(absl::StrCat("--http_port_file=", dir,
                                   "/referee_http.port"));
    }
    absl::StatusOr<LocalReferee> started =
        // Each seat's bot and the runner's own channel, with room for
        // bots that reconnect before their old connection is gone.
        StartLocalReferee(options.referee_binary, dir,
                          4 * options.concurrency * kMaxSeats + 16, extra);
    if (!started.ok()) {
      return Fail(kEventError, started.status());
    }
    local = *std::move(started);
    options.server = local->address;
    options.organiser_token = local->token;
  }
  options.match.server = options.server;
  options.match.organiser_token = options.organiser_token;
  options.match.bot_output_dir = absl::StrCat(dir, "/bots");
  mkdir(options.match.bot_output_dir.c_str(), 0700);
  if (!options.match.by_hand.empty()) {
    // One seat's environment file at a time: one match at a time.
    options.match.by_hand_env = absl::StrCat(dir, "/by_hand.env");
    options.match.by_hand_out = progress;
    options.concurrency = 1;
  }

  if (local.has_value()) {
    infos = ResolveOnReferee(options.server, options.match.params,
                             &options.schedule);
    if (!infos.ok()) return ResolveFailed(infos.status());
  }
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(options.server, grpc::InsecureChannelCredentials()));
  // The logs of our own referee must carry its (kept) key; with --server
  // the event may span referees, and each log is checked against its own.
  std::string referee_key;
  if (local.has_value()) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    cardref::v1::RefereeKey key;
    if (stub->GetRefereeKey(&context, cardref::v1::GetRefereeKeyRequest(), &key)
            .ok()) {
      referee_key = ToHex(key.public_key());
    }
  }
  const ScheduleConfig& config = options.schedule;
  absl::StatusOr<std::vector<ScheduledMatch>> all = BuildSchedule(config);
  if (!all.ok()) {
    return Fail(kEventUsage, all.status());
  }
  absl::StatusOr<std::vector<ScheduledMatch>> schedule =
      SelectShard(*all, options.shard);
  if (!schedule.ok()) {
    return Fail(kEventUsage, schedule.status());
  }
  // What the machine does to fair timing, and the bots' sandbox: a slot
  // (a CPU share) for every bot that may run at once.
  int max_seats = 1;
  for (const GameSpec& game : config.games) {
    max_seats = std::max(max_seats, game.players);
  }
  int slots = std::max(1, options.concurrency) * max_seats;
  // Event-long bot processes hold a slot each for the whole event.
  for (const PooledBot& pooled : PoolsFor(options, *schedule)) {
    slots += pooled.processes;
  }
  sandbox::ProbeOptions probe;
  probe.bots = slots;
  std::fprintf(progress, "%s",
               sandbox::EnvironmentSummary(sandbox::ProbeEnvironment(probe))
                   .c_str());
  std::unique_ptr<BotLauncher> launcher;
  if (options.sandbox) {
    absl::StatusOr<std::unique_ptr<BotLauncher>> started =
        StartBotSandbox(options.server, slots, options.bot_folders);
    if (!started.ok()) return Fail(kEventError, started.status());
    launcher = *std::move(started);
    options.match.launcher = launcher.get();
    std::fprintf(progress,
                 "bots run in the sandbox (docs/sandbox.md), each as a uid of "
                 "its own, reaching the referee only through its socket\n");
    for (const std::string& lack : launcher->host()->unenforced()) {
      std::fprintf(progress, "sandbox: not enforced here: %s\n", lack.c_str());
    }
  } else {
    std::fprintf(progress,
                 "bots run outside the sandbox (--trust_bots): none of it is "
                 "enforced\n");
  }
  std::fflush(progress);

  // Matches a killed run left "started": finished ones are recorded from
  // the referee or their log, the others ended and played again.
  options.match.on_started = [&state](const MatchRecord& r) {
    return state->Record(r);
  };
  const std::map<std::string, MatchRecord> before = state->records();
  for (const ScheduledMatch& m : *schedule) {
    auto it = before.find(m.key);
    if (it == before.end() || it->second.outcome != "started") continue;
    absl::StatusOr<bool> recovered = RecoverStarted(
        *stub, options.match, config, m, it->second, referee_key, dir, *state);
    if (!recovered.ok()) {
      return Fail(kEventError, recovered.status());
    }
    if (*recovered) {
      std::fprintf(progress,
                   "%s: recovered, it finished before the last run "
                   "was stopped\n",
                   m.key.c_str());
    }
  }
  if (options.listener != nullptr) {
    const std::map<std::string, MatchRecord> recorded_now = state->records();
    EventStart start;
    start.config = &config;
    start.schedule = &*schedule;
    start.records = &recorded_now;
    start.event_dir = dir;
    start.referee_key = referee_key;
    if (local.has_value() && options.referee_web) {
      start.referee_web = RefereeWebAddress(dir);
    }
    options.listener->OnStart(start);
    auto recorded = std::move(options.match.on_started);
    options.match.on_started = [recorded,
                                listener = options.listener](const MatchRecord& r) {
      listener->OnStarted(r);
      return recorded(r);
    };
  }
  // What will be played, before anything is: the whole event's schedule
  // (a shard plays its share of it).
  std::fprintf(progress, "%s", DescribeSchedule(config, *all).c_str());
  std::vector<const ScheduledMatch*> pending;
  for (const ScheduledMatch& m : *schedule) {
    if (!state->Played(m.key)) pending.push_back(&m);
  }
  std::fprintf(progress,
               "event %s: %zu matches scheduled, %zu already played, %zu to "
               "play on %s, %d at a time\n",
               dir.c_str(), schedule->size(), schedule->size() - pending.size(),
               pending.size(), options.server.c_str(), options.concurrency);
  std::fflush(progress);

  // --sprt: the decision so far (a resumed event's recorded matches first).
  std::unique_ptr<SprtStop> sprt;
  std::atomic<bool> sprt_told{false};
  if (!options.sprt.empty()) {
    sprt = std::make_unique<SprtStop>(config, *all, *ParseSprtSpec(options.sprt),
                                      TeamsByGame(config));
    for (const ScheduledMatch& m : *schedule) {
      if (state->Played(m.key)) sprt->Done(m.key, RecordedRanks(dir, m.key));
    }
    if (sprt->decided()) {
      sprt_told = true;
      std::fprintf(progress, "%s (decided before this run: nothing more to "
                             "play)\n",
                   DescribeSprt(sprt->state(), config).c_str());
      std::fflush(progress);
    }
  }

  // Bots taken by invitation: started once for the event (or remote),
  // before any match is made for them.
  std::unique_ptr<BotPools> pools;
  if (AnyByInvitation(options) && !pending.empty() &&
      !(sprt != nullptr && sprt->decided())) {
    PoolOptions pool;
    pool.server = options.server;
    pool.launcher = launcher.get();
    pool.organiser_token = options.organiser_token;
    for (const GameSpec& g : config.games) pool.games.push_back(g.id);
    pool.bot_output_dir = options.match.bot_output_dir;
    pool.run_as = options.match.run_as;
    pool.uid_pool = options.match.uid_pool;
    // An event-long process writes all its matches' output to one file.
    pool.max_output_bytes = std::min<uint64_t>(
        uint64_t{1} << 30,
        (static_cast<uint64_t>(options.match.max_bot_output_mb) << 20) *
            std::max<uint64_t>(1, pending.size()));
    pool.max_memory_bytes =
        static_cast<uint64_t>(options.match.max_bot_memory_mb) << 20;
    pool.max_tasks = options.match.max_bot_threads;
    pool.ready_timeout_s = options.match.join_timeout_s;
    pool.remote_wait_s = options.remote_wait_s;
    pool.credentials_dir = absl::StrCat(dir, "/credentials");
    pool.remote_latency_allowance_ms = options.remote_latency_allowance_ms;
    absl::StatusOr<std::unique_ptr<BotPools>> started =
        BotPools::Start(*stub, PoolsFor(options, *schedule), std::move(pool),
                        progress);
    if (!started.ok()) {
      if (local.has_value()) local->process.Kill();
      return Fail(kEventError, started.status());
    }
    pools = *std::move(started);
    for (const BotSpec& bot : config.bots) {
      if (ByInvitation(options, bot)) options.match.invited_bots.insert(bot.name);
    }
  }

  Progress bar(progress, schedule->size(), schedule->size() - pending.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> failed_to_record{false};
  std::atomic<int> unplayed{0};
  absl::Mutex lost_mu;
  std::vector<cardref::v1::CreateMatchRequest> lost_creations;
  auto worker = [&] {
    for (;;) {
      // The SPRT decided: no new match; those in flight finish.
      if (sprt != nullptr && sprt->decided()) return;
      const size_t i = next.fetch_add(1);
      if (i >= pending.size() || failed_to_record) return;
      const ScheduledMatch& match = *pending[i];
      MatchOutcome outcome = RunMatch(*stub, (*infos)[match.game], config, match,
                                      *secret, options.match);
      if (options.listener != nullptr) options.listener->OnDone(match, outcome);
      if (!outcome.played) {
        unplayed.fetch_add(1);
        if (outcome.lost_creation.has_value()) {
          absl::MutexLock lock(&lost_mu);
          lost_creations.push_back(*std::move(outcome.lost_creation));
        }
        bar.Done(outcome, match, config);
        continue;
      }
      // The match file first: once matches.tsv names the match, its
      // details are there too.
      absl::Status s = WriteMatchFile(dir, config, match, outcome);
      if (s.ok()) s = state->Record(outcome.record);
      if (!s.ok()) {
        std::fprintf(stderr, "cardref_tournament: %s\n",
                     std::string(s.message()).c_str());
        failed_to_record = true;
        return;
      }
      bar.Done(outcome, match, config);
      if (sprt != nullptr) {
        std::vector<int> ranks;
        if (outcome.record.outcome == "finished") {
          ranks.assign(outcome.info.result().ranks().begin(),
                       outcome.info.result().ranks().end());
        }
        const SprtState now = sprt->Done(match.key, ranks);
        if (now.decision.has_value() && !sprt_told.exchange(true)) {
          std::fprintf(progress, "%s; no new match is started, those in "
                                 "flight finish\n",
                       DescribeSprt(now, config).c_str());
          std::fflush(progress);
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < std::max(1, options.concurrency); ++t) {
    threads.emplace_back(worker);
  }
  for (std::thread& t : threads) t.join();
  // The page says the event is over once its report and standings are
  // written (a reader then finds them), or once it failed to write them.
  absl::Cleanup tell_the_end = [listener = options.listener] {
    if (listener != nullptr) listener->OnEnd();
  };
  if (pools != nullptr) {
    std::fprintf(progress, "bots by invitation at the end: %s\n",
                 pools->Describe().c_str());
    pools->Stop();
  }
  bar.PrintFaults();
  SettleLost(*stub, lost_creations, options.match, progress);
  if (failed_to_record) return kEventError;

  const std::map<std::string, MatchRecord> records = state->records();
  absl::StatusOr<int> not_finished = WriteEventReport(dir, *schedule, records);
  if (!not_finished.ok()) {
    return Fail(kEventError, not_finished.status());
  }
  std::vector<std::string> logs;
  for (const ScheduledMatch& m : *schedule) {
    auto it = records.find(m.key);
    if (it != records.end() && it->second.outcome == "finished" &&
        !it->second.log_path.empty()) {
      logs.push_back(it->second.log_path);
    }
  }
  absl::StatusOr<Standings> standings = ComputeStandings(logs, referee_key);
  if (!standings.ok()) {
    return Fail(kEventError, standings.status());
  }
  for (const auto& [name, text] :
       {std::pair{"standings.json", standings->json},
        std::pair{"standings.txt", standings->text}}) {
    absl::Status s =
        WriteFileAtomically(absl::StrCat(dir, "/", name), text, 0600);
    if (!s.ok()) {
      return Fail(kEventError, s);
    }
  }
  // This shard's share of the standings, for `cardref_analyze merge`.
  absl::StatusOr<ShardSpec> shard = ParseShardSpec(options.shard);
  absl::Status partial =
      shard.ok()
          ? WriteStandingsPartial(absl::StrCat(dir, "/standings.partial"), logs,
                                  referee_key, *shard)
          : shard.status();
  if (!partial.ok()) {
    return Fail(kEventError, partial);
  }
  std::fprintf(progress,
               "event %s: %zu of %zu matches finished; report %s/report.json\n"
               "standings (ratings with 95%% intervals, from %zu logs):\n%s",
               dir.c_str(), logs.size(), schedule->size(), dir.c_str(),
               logs.size(), standings->text.c_str());
  std::fflush(progress);
  std::move(tell_the_end).Invoke();
  if (local.has_value()) local->process.Kill();
  if (unplayed > 0) {
    std::fprintf(progress,
                 "event %s: %d matches not played (the referee was "
                 "unreachable or stayed busy); run the same command again "
                 "to play them\n",
                 dir.c_str(), unplayed.load());
  }
  if (sprt != nullptr) {
    // The last line: the verdict, or that there is none yet.
    std::fprintf(progress, "%s\n", DescribeSprt(sprt->state(), config).c_str());
    std::fflush(progress);
    // A decision is the event's answer: the matches it did not need are
    // not missing.
    if (sprt->decided()) return kEventComplete;
  }
  return *not_finished == 0 && unplayed == 0 ? kEventComplete
                                             : kEventIncomplete;
}

}  // namespace cardref::tournament
