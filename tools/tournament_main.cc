// cardref_tournament: plays a series of matches on a running referee, each
// seat taken by a separate bot process.
//
//   cardref_tournament --server=localhost:50051 --bot=build/tools/cardref_bot
//
// For every game (--games, default: every game the referee lists) it creates
// --matches matches and starts one bot process per seat. Player names rotate
// through the seats from match to match, so statistics per player are not
// tied to one seat. Prints one line per match and the log paths.
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/cli_flags.h"

extern char** environ;

ABSL_FLAG(std::string, server, "localhost:50051", "Referee address");
ABSL_FLAG(std::string, bot, "cardref_bot", "Path of the bot binary");
ABSL_FLAG(std::string, strategy, "random", "Strategy passed to every bot");
ABSL_FLAG(std::vector<std::string>, games, {},
          "Games as id or id:players (e.g. craits:3,kraken); empty = every "
          "game the referee lists, at its default number of players");
ABSL_FLAG(int, matches, 2, "Matches per game");
ABSL_FLAG(std::string, params, "",
          "Extra parameters for every match of every game that has them, "
          "e.g. game_length=SHORT");
ABSL_FLAG(uint64_t, seed, 1, "Base of the dealing and bot seeds");
ABSL_FLAG(int64_t, decision_time_limit_ms, 5000, "Per-decision time limit");
ABSL_FLAG(std::string, player_prefix, "random",
          "Bots are named <prefix>_A, <prefix>_B, ...");

namespace {

struct GamePlan {
  std::string id;
  int players = 0;
  cardref::v1::GameInfo info;
};

pid_t Spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) !=
      0) {
    return -1;
  }
  return pid;
}

// Sets name=value from --params on `request` when the game has that
// parameter, typed by the game's parameter table.
bool AddParams(const cardref::v1::GameInfo& info,
               cardref::v1::CreateMatchRequest* request) {
  const std::string text = absl::GetFlag(FLAGS_params);
  if (text.empty()) return true;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    std::pair<std::string, std::string> kv = absl::StrSplit(item, '=');
    for (const cardref::v1::ParamInfo& p : info.params()) {
      if (p.name() != kv.first) continue;
      auto& v = (*request->mutable_params()->mutable_values())[kv.first];
      if (p.type() == "bool") {
        v.set_bool_value(kv.second == "true");
      } else if (p.type() == "integer") {
        int64_t n;
        if (!absl::SimpleAtoi(kv.second, &n)) return false;
        v.set_int_value(n);
      } else {
        v.set_enum_value(kv.second);
      }
    }
  }
  return true;
}

int DefaultPlayers(const cardref::v1::GameInfo& info) {
  for (const cardref::v1::ParamInfo& p : info.params()) {
    if (p.name() == "num_players") return p.default_value().int_value();
  }
  return info.min_seats();
}

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_tournament",
      "Plays a tournament of bot processes on a running cardref referee.\n"
      "Usage: cardref_tournament --server=localhost:50051 "
      "--bot=path/to/cardref_bot [--games=craits:3,kraken] [--matches=2]");
  auto channel = grpc::CreateChannel(absl::GetFlag(FLAGS_server),
                                     grpc::InsecureChannelCredentials());
  auto stub = cardref::v1::Referee::NewStub(channel);

  cardref::v1::ListGamesResponse listed;
  {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    grpc::Status s =
        stub->ListGames(&context, cardref::v1::ListGamesRequest(), &listed);
    if (!s.ok()) {
      std::fprintf(stderr, "cannot reach the referee at %s: %s\n",
                   absl::GetFlag(FLAGS_server).c_str(),
                   s.error_message().c_str());
      return 1;
    }
  }
  std::vector<GamePlan> plans;
  std::vector<std::string> wanted = absl::GetFlag(FLAGS_games);
  if (wanted.empty()) {
    for (const auto& g : listed.games()) wanted.push_back(g.id());
  }
  for (const std::string& w : wanted) {
    std::vector<std::string> parts = absl::StrSplit(w, ':');
    GamePlan plan;
    plan.id = parts[0];
    bool found = false;
    for (const auto& g : listed.games()) {
      if (g.id() == plan.id) {
        plan.info = g;
        found = true;
      }
    }
    if (!found) {
      std::fprintf(stderr, "the referee has no game '%s'\n", plan.id.c_str());
      return 2;
    }
    plan.players = DefaultPlayers(plan.info);
    if (parts.size() > 1 && !absl::SimpleAtoi(parts[1], &plan.players)) {
      std::fprintf(stderr, "bad player count in '%s'\n", w.c_str());
      return 2;
    }
    plans.push_back(plan);
  }

  int failures = 0;
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  for (const GamePlan& plan : plans) {
    for (int m = 0; m < absl::GetFlag(FLAGS_matches); ++m) {
      cardref::v1::CreateMatchRequest create;
      create.set_game(plan.id);
      if (plan.info.min_seats() != plan.info.max_seats()) {
        (*create.mutable_params()->mutable_values())["num_players"]
            .set_int_value(plan.players);
      }
      if (!AddParams(plan.info, &create)) {
        std::fprintf(stderr, "bad --params\n");
        return 2;
      }
      create.set_dealing_seed(seed * 1000003 + m + 1);
      create.set_decision_time_limit_millis(
          absl::GetFlag(FLAGS_decision_time_limit_ms));
      cardref::v1::CreateMatchResponse created;
      grpc::ClientContext context;
      grpc::Status s = stub->CreateMatch(&context, create, &created);
      if (!s.ok()) {
        std::fprintf(stderr, "CreateMatch %s: %s\n", plan.id.c_str(),
                     s.error_message().c_str());
        return 1;
      }
      std::vector<pid_t> bots;
      for (int seat = 0; seat < created.num_seats(); ++seat) {
        const int player = (seat + m) % created.num_seats();
        const std::string name = absl::StrCat(
            absl::GetFlag(FLAGS_player_prefix), "_",
            std::string(1, static_cast<char>('A' + player)));
        bots.push_back(Spawn({absl::GetFlag(FLAGS_bot),
                              absl::StrCat("--server=", absl::GetFlag(FLAGS_server)),
                              absl::StrCat("--match_id=", created.match_id()),
                              absl::StrCat("--seat=", seat),
                              absl::StrCat("--name=", name),
                              absl::StrCat("--strategy=", absl::GetFlag(FLAGS_strategy)),
                              absl::StrCat("--seed=", seed * 7919 + m * 31 + seat),
                              "--quiet"}));
        if (bots.back() < 0) {
          std::fprintf(stderr, "cannot start %s\n",
                       absl::GetFlag(FLAGS_bot).c_str());
          return 1;
        }
      }
      for (pid_t pid : bots) {
        int status = 0;
        waitpid(pid, &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failures;
      }
      cardref::v1::GetMatchRequest get;
      get.set_match_id(created.match_id());
      cardref::v1::MatchInfo info;
      grpc::ClientContext info_context;
      s = stub->GetMatch(&info_context, get, &info);
      if (!s.ok() || info.status() != cardref::v1::MATCH_STATUS_FINISHED) {
        ++failures;
        std::printf("%-40s NOT FINISHED\n", created.match_id().c_str());
        continue;
      }
      std::vector<std::string> seats;
      for (const auto& seat : info.seats()) {
        seats.push_back(absl::StrCat(seat.player_name(), "=",
                                     info.result().scores(seat.seat())));
      }
      std::vector<std::string> winners;
      for (int w : info.result().winners()) {
        winners.push_back(info.seats(w).player_name());
      }
      std::printf("%-44s %s  winners: %s\n  log: %s\n",
                  created.match_id().c_str(), absl::StrJoin(seats, " ").c_str(),
                  winners.empty() ? "(draw)" : absl::StrJoin(winners, ",").c_str(),
                  info.log_path().c_str());
      std::fflush(stdout);
    }
  }
  if (failures > 0) {
    std::fprintf(stderr, "%d bot or match failures\n", failures);
    return 1;
  }
  return 0;
}
