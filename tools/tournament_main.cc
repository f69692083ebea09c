// cardref_tournament: plays a series of matches on a running referee, each
// seat taken by a separate bot process.
//
//   cardref_tournament --server=localhost:50051 --bot=build/tools/cardref_bot
//
// For every game (--games, default: every game the referee lists) it creates
// --matches matches and starts one bot process per seat. Player names rotate
// through the seats from match to match, so statistics per player are not
// tied to one seat. Prints one line per match and the log paths.
//
// It acts as the organiser: the credential comes from
// --organiser_token_file or $CARDREF_ORGANISER_TOKEN (docs/auth.md). Every
// match is by invitation: each bot gets its seat's single-use ticket in the
// environment variable CARDREF_JOIN_TICKET. Bots are untrusted programs: as
// root, --bot_user runs them as another user (who cannot read the logs);
// otherwise --trust_bots must say that running them as this user is fine.
#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"
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
ABSL_FLAG(uint64_t, seed, 0,
          "Base of the dealing seeds, for reproducible deals; 0 = the referee "
          "draws every match's seed from the OS (use 0 in a real event: "
          "known seeds mean known deals). Bot seeds derive from it too");
ABSL_FLAG(int64_t, decision_time_limit_ms, 5000, "Per-decision time limit");
ABSL_FLAG(std::string, player_prefix, "random",
          "Bots are named <prefix>_A, <prefix>_B, ...");
ABSL_FLAG(std::string, organiser_token_file, "",
          "File holding the organiser's bearer token (mode 600); else "
          "$CARDREF_ORGANISER_TOKEN; none for a loopback referee without one");
ABSL_FLAG(std::string, bot_user, "",
          "Run every bot as this user (needs root), so bots cannot read the "
          "referee's files");
ABSL_FLAG(bool, trust_bots, false,
          "Run the bots as this program's own user (without --bot_user): only "
          "for bots you trust, since they could read what this user can");

namespace {

struct GamePlan {
  std::string id;
  int players = 0;
  cardref::v1::GameInfo info;
};

// The user bots run as (--bot_user), resolved once.
struct BotUser {
  bool set = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

// Starts a bot with CARDREF_JOIN_TICKET=ticket in its environment (not on
// its command line, which other users can read) and without the organiser
// credential, as `user` if set. Everything the child needs is prepared
// before fork(): gRPC's threads may hold locks the child would wait on.
pid_t Spawn(const std::vector<std::string>& args, const std::string& ticket,
            const BotUser& user) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const absl::string_view entry(*e);
    if (absl::StartsWith(entry, "CARDREF_JOIN_TICKET=") ||
        absl::StartsWith(entry, absl::StrCat(
                                    cardref::grpc_service::kOrganiserTokenEnv,
                                    "="))) {
      continue;
    }
    env_strings.emplace_back(entry);
  }
  env_strings.push_back(absl::StrCat("CARDREF_JOIN_TICKET=", ticket));
  std::vector<char*> envp;
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;  // the parent, or -1
  // The child: drop privileges for good, then run the bot.
  if (user.set && (setgroups(0, nullptr) != 0 || setgid(user.gid) != 0 ||
                   setuid(user.uid) != 0)) {
    static constexpr char kMessage[] =
        "cardref_tournament: cannot switch to --bot_user\n";
    (void)!write(2, kMessage, sizeof(kMessage) - 1);
    _exit(126);
  }
  execvpe(argv[0], argv.data(), envp.data());
  static constexpr char kMessage[] = "cardref_tournament: cannot start the bot\n";
  (void)!write(2, kMessage, sizeof(kMessage) - 1);
  _exit(127);
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
  absl::StatusOr<std::optional<std::string>> token =
      cardref::grpc_service::LoadOrganiserToken(
          absl::GetFlag(FLAGS_organiser_token_file));
  if (!token.ok()) {
    std::fprintf(stderr, "cardref_tournament: %s\n",
                 std::string(token.status().message()).c_str());
    return 2;
  }
  BotUser bot_user;
  if (const std::string name = absl::GetFlag(FLAGS_bot_user); !name.empty()) {
    const struct passwd* pw = getpwnam(name.c_str());
    if (pw == nullptr) {
      std::fprintf(stderr, "cardref_tournament: no user '%s'\n", name.c_str());
      return 2;
    }
    if (geteuid() != 0) {
      std::fprintf(stderr,
                   "cardref_tournament: --bot_user needs root to switch users\n");
      return 2;
    }
    bot_user = {true, pw->pw_uid, pw->pw_gid};
  } else if (!absl::GetFlag(FLAGS_trust_bots)) {
    std::fprintf(stderr,
                 "cardref_tournament: bots would run as this user and could "
                 "read its files (the referee's logs, if it is the same "
                 "user). Give --bot_user=USER (as root), or --trust_bots for "
                 "bots you trust (README, \"Running untrusted bots\").\n");
    return 2;
  }
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
      if (seed != 0) create.set_dealing_seed(seed * 1000003 + m + 1);
      create.set_decision_time_limit_millis(
          absl::GetFlag(FLAGS_decision_time_limit_ms));
      // Every seat is invited under its player's name.
      const int num_seats = plan.info.min_seats() == plan.info.max_seats()
                            ? plan.info.min_seats()
                            : plan.players;
      std::vector<std::string> names;
      for (int seat = 0; seat < num_seats; ++seat) {
        const int player = (seat + m) % num_seats;
        names.push_back(absl::StrCat(
            absl::GetFlag(FLAGS_player_prefix), "_",
            std::string(1, static_cast<char>('A' + player))));
        create.add_seat_assignments()->set_player_name(names.back());
      }
      cardref::v1::CreateMatchResponse created;
      grpc::ClientContext context;
      cardref::grpc_service::AddOrganiserCredential(*token, &context);
      grpc::Status s = stub->CreateMatch(&context, create, &created);
      if (!s.ok()) {
        std::fprintf(stderr, "CreateMatch %s: %s\n", plan.id.c_str(),
                     s.error_message().c_str());
        return 1;
      }
      std::vector<pid_t> bots;
      for (const cardref::v1::SeatTicket& ticket : created.tickets()) {
        const int seat = ticket.seat();
        bots.push_back(Spawn({absl::GetFlag(FLAGS_bot),
                              absl::StrCat("--server=", absl::GetFlag(FLAGS_server)),
                              absl::StrCat("--match_id=", created.match_id()),
                              absl::StrCat("--seat=", seat),
                              absl::StrCat("--name=", names[seat]),
                              absl::StrCat("--strategy=", absl::GetFlag(FLAGS_strategy)),
                              absl::StrCat("--seed=", seed * 7919 + m * 31 + seat),
                              "--quiet"},
                             ticket.ticket(), bot_user));
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
      cardref::grpc_service::AddOrganiserCredential(*token, &info_context);
      s = stub->GetMatch(&info_context, get, &info);
      if (!s.ok() || info.status() != cardref::v1::MATCH_STATUS_FINISHED) {
        ++failures;
        std::printf("%-40s NOT FINISHED\n", created.match_id().c_str());
        // Never leave it open for a later bot to join.
        cardref::v1::EndMatchRequest end;
        end.set_match_id(created.match_id());
        end.set_reason("its bots failed");
        cardref::v1::MatchInfo ended;
        for (auto call : {&cardref::v1::Referee::Stub::CancelMatch,
                          &cardref::v1::Referee::Stub::AbortMatch}) {
          grpc::ClientContext end_context;
          cardref::grpc_service::AddOrganiserCredential(*token, &end_context);
          ((*stub).*call)(&end_context, end, &ended);
        }
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
