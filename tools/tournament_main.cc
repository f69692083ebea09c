// cardref_tournament: plays an event of bot processes on a cardref referee
// (docs/tournament.md). The logic is in tournament/.
//
//   cardref_tournament --bot='random=build/tools/cardref_bot'
//       --bot='heuristic=build/tools/cardref_bot --strategy=heuristic'
//       --games=craits,kraken --duplicate --concurrency=4 --out=events/e1
//       --trust_bots
//
// Without --server it starts build's cardref_referee itself (its logs in
// the event folder). Bots are untrusted programs: as root, every bot runs
// in the sandbox (docs/sandbox.md), as a uid of its own (--bot_uids, or a
// default range); --trust_bots runs them as plain processes instead, as
// this user (or --bot_user, --bot_uids), and is the only way without root.
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/grpc/organiser_token.h"
#include "tools/cli_flags.h"
#include "tournament/bot_folders.h"
#include "tournament/bot_pool.h"
#include "tournament/config.h"
#include "tournament/event.h"
#include "tournament/local_referee.h"
#include "tournament/uid_pool.h"
#include "web/event/event_front.h"

// --bot may be given many times; each value adds a bot (absl keeps only the
// last value of a flag, so the type accumulates).
struct BotFlags {
  std::vector<std::string> values;
};
bool AbslParseFlag(absl::string_view text, BotFlags* flags, std::string*) {
  static std::vector<std::string>* all = new std::vector<std::string>();
  all->emplace_back(text);
  flags->values = *all;
  return true;
}
std::string AbslUnparseFlag(const BotFlags& flags) {
  return absl::StrJoin(flags.values, " ");
}

// --bot_folder may be given many times, as --bot.
struct BotFolderFlags {
  std::vector<std::string> values;
};
bool AbslParseFlag(absl::string_view text, BotFolderFlags* flags,
                   std::string*) {
  static std::vector<std::string>* all = new std::vector<std::string>();
  all->emplace_back(text);
  flags->values = *all;
  return true;
}
std::string AbslUnparseFlag(const BotFolderFlags& flags) {
  return absl::StrJoin(flags.values, " ");
}

// The uids sandboxed bots run as without --bot_uids: no account's (checked).
constexpr char kDefaultBotUids[] = "1900000000-1900000999";

ABSL_FLAG(std::string, config, "",
          "A TournamentConfig in protobuf text format "
          "(proto/cardref/v1/tournament.proto); flags override it");
ABSL_FLAG(BotFlags, bot, {},
          "A bot, NAME=COMMAND ARGS... (repeat for each bot). Each seat's "
          "process gets --server=, --match_id=, --seat=, --name= and the "
          "environment CARDREF_SERVER, CARDREF_MATCH_ID, CARDREF_SEAT, "
          "CARDREF_PLAYER_NAME, CARDREF_JOIN_TICKET, CARDREF_MATCH_SEED (a "
          "seed for its random choices, its own per match and seat)");
ABSL_FLAG(std::string, schedule, "round_robin",
          "round_robin | gauntlet "
          "(the first --bot against every group of the others)");
ABSL_FLAG(bool, duplicate, false,
          "Duplicate deals: each deal set's seed replayed in every distinct "
          "seating up to 4 seats (rotations from 5; in a partnership game "
          "each partnership on both sides), tagged with its deal_set_id");
ABSL_FLAG(std::string, seatings, "balanced",
          "balanced | all: the seatings of a group each deal set plays; "
          "all = every distinct seating whatever the table's size");
ABSL_FLAG(int, concurrency, 1, "Matches played at once");
ABSL_FLAG(std::string, out, "",
          "The event folder (state, report, standings; logs of its own "
          "referee). Running again with the same folder resumes the event");
ABSL_FLAG(int, http_port, -1,
          "The event's web page on this port (0: a free one; -1: none): its "
          "matches with links to their pages, standings, faults per bot "
          "(docs/web.md)");
ABSL_FLAG(std::string, http_host, "127.0.0.1",
          "The address the event's web page listens on");
ABSL_FLAG(std::string, http_port_file, "",
          "The web page's port is written here once it serves");
ABSL_FLAG(double, http_linger_s, 0,
          "After the event, its web page keeps serving this many seconds "
          "(the final standings) before the program exits");
ABSL_FLAG(std::string, shard, "",
          "I/N: play only the I-th of N shares of the schedule, counted from "
          "0 (0 <= I < N; cardref_analyze --shard counts from 1)");
ABSL_FLAG(std::vector<std::string>, games, {},
          "Games as id or id:players (e.g. craits:3,kraken); empty = every "
          "game the referee lists, at its default number of players");
ABSL_FLAG(int, matches, cardref::tournament::kDefaultDealSets,
          "Deal sets per group of bots (each played in every seating of "
          "the group); the analyzer's intervals need 5");
ABSL_FLAG(std::string, params, "",
          "Parameters for every game that has them, e.g. "
          "game_length=SHORT,rounds=4");
ABSL_FLAG(std::string, server, "",
          "A running referee; empty = start --referee_bin on a free port");
ABSL_FLAG(std::string, referee_bin, "",
          "The referee to start without --server; default: cardref_referee "
          "beside this binary");
ABSL_FLAG(int64_t, decision_time_limit_ms, 5000, "Per-decision time limit");
ABSL_FLAG(double, join_timeout_s, 30,
          "A match whose seats are not all taken by then is cancelled");
ABSL_FLAG(double, match_budget_s, 600,
          "A match still running after this many seconds is aborted");
ABSL_FLAG(int32_t, max_bot_output_mb, 4,
          "The most a bot may write (its stdout and stderr, kept in "
          "bots/) in one match, 1 to 1024 MiB; past it the bot is ended "
          "(SIGXFSZ)");
ABSL_FLAG(int32_t, max_bot_memory_mb, 2048,
          "The most resident memory each bot may hold, with the processes "
          "it starts, 16 to 1048576 MiB; past it the bot is killed");
ABSL_FLAG(int32_t, max_bot_threads, 1024,
          "The most processes and threads each bot may run, with the "
          "processes it starts, 16 to 4096; past it the bot is killed");
ABSL_FLAG(double, max_bot_cpu_s, 0,
          "The most CPU time each bot may use in one match, in the sandbox "
          "(its processes and threads together); past it the bot is ended "
          "and its seat settled by the fault policy; 0 = no limit");
ABSL_FLAG(BotFolderFlags, bot_folder, {},
          "NAME=DIR (repeat for each bot): the folder bot NAME may read in "
          "the sandbox, instead of its program's folder (or, for a program "
          "in a system folder such as python3, its script's)");
ABSL_FLAG(std::string, organiser_token_file, "",
          "With --server: file holding the organiser's bearer token (mode "
          "600); else $CARDREF_ORGANISER_TOKEN; none for a loopback referee "
          "without one");
ABSL_FLAG(std::string, bot_user, "",
          "With --trust_bots: run every bot as this user (needs root), so "
          "bots cannot read the referee's files");
ABSL_FLAG(std::string, bot_uids, "",
          "FIRST-LAST: run each bot as a uid of its own from this range (needs "
          "root; no account may use them; default in the sandbox: "
          "1900000000-1900000999), so bots can neither read the referee's "
          "files nor signal, trace or read each other; every process of a "
          "bot's uid is killed when its match ends");
ABSL_FLAG(std::string, by_hand, "",
          "NAME of a --bot you start yourself, e.g. under a debugger: for "
          "each of its seats the event writes the seat's environment "
          "(ticket included) to DIR/by_hand.env, prints the command to run "
          "and waits up to 600 s for it to join; matches are played one at "
          "a time (docs/bots.md, \"Your bot under a debugger\")");
ABSL_FLAG(std::string, bot_lifetime, "",
          "event: every bot started once (a pool of --bot_pool processes) "
          "and handed its matches by invitation; match: a process per seat "
          "per match; empty: event for bots that take invitations (the "
          "example bots, config bots with invitable: true), match for the "
          "others (docs/tournament.md, \"Bot lifetime\")");
ABSL_FLAG(int32_t, bot_pool, 1,
          "With event lifetime: processes per bot, 1 to 256; each takes an "
          "equal share of the seats the bot may hold at once");
ABSL_FLAG(std::vector<std::string>, remote_bot, {},
          "NAME,...: bots that run elsewhere and connect by invitation; the "
          "event issues each a credential, written to DIR/credentials/"
          "NAME.credential for its author, unless the referee already has "
          "one for it");
ABSL_FLAG(double, remote_wait_s, 600,
          "How long to wait for the remote bots to connect before the event "
          "starts");
ABSL_FLAG(int64_t, latency_allowance_ms, 0,
          "The latency allowance of remote bots' new credentials, added to "
          "their decision limit (at most the referee's "
          "--max_latency_allowance_ms)");
ABSL_FLAG(std::string, sprt, "",
          "ELO0,ELO1[,ALPHA,BETA]: for a two-bot event, stop scheduling "
          "once the SPRT on deal-set outcomes accepts H0 (elo <= ELO0) or H1 "
          "(elo >= ELO1); alpha and beta default to 0.05 (docs/tournament.md, "
          "\"Early stopping\")");
ABSL_FLAG(bool, trust_bots, false,
          "Run the bots outside the sandbox, as plain processes of this "
          "program's user (or --bot_user, --bot_uids): only for bots you "
          "trust, since they could read what that user can, reach the "
          "network and take every core. Without it, bots run in the sandbox, "
          "which needs root (docs/sandbox.md)");

namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "cardref_tournament: %s\n", message.c_str());
  return cardref::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_tournament",
      "Plays a tournament of bot processes on a cardref referee.\n"
      "Usage: cardref_tournament --bot='NAME=COMMAND ARGS...' --bot=... "
      "--out=DIR [--games=craits:3,kraken] [--schedule=round_robin|gauntlet] "
      "[--duplicate] [--matches=DEAL_SETS] [--seatings=balanced|all] "
      "[--concurrency=K] [--shard=I/N] [--server=HOST:PORT] "
      "[--bot_lifetime=event|match] [--bot_pool=N] [--remote_bot=NAME,...] "
      "[--sprt=ELO0,ELO1[,ALPHA,BETA]] "
      "[--bot_uids=FIRST-LAST] [--bot_folder=NAME=DIR] "
      "[--trust_bots [--bot_user=USER]]\n"
      "As root every bot runs in the sandbox (docs/sandbox.md); without "
      "root, give --trust_bots.");
  namespace t = cardref::tournament;
  t::EventOptions options;
  if (const std::string path = absl::GetFlag(FLAGS_config); !path.empty()) {
    absl::StatusOr<cardref::v1::TournamentConfig> config =
        t::ReadConfigFile(path);
    if (!config.ok()) return Usage(std::string(config.status().message()));
    if (absl::Status s = t::ApplyConfig(*config, &options); !s.ok()) {
      return Usage(absl::StrCat(path, ": ", s.message()));
    }
  }
  // A flag overrides the file when it differs from its default.
  for (const std::string& text : absl::GetFlag(FLAGS_bot).values) {
    absl::StatusOr<t::BotSpec> bot = t::ParseBotSpec(text);
    if (!bot.ok()) return Usage(std::string(bot.status().message()));
    bot->invitable = t::IsKnownInvitableBot(bot->command);
    options.schedule.bots.push_back(*bot);
  }
  for (const std::string& name : absl::GetFlag(FLAGS_remote_bot)) {
    absl::StatusOr<t::BotSpec> bot =
        t::ParseBotSpec(absl::StrCat(name, "=remote"));
    if (!bot.ok()) return Usage(std::string(bot.status().message()));
    bot->command.clear();
    bot->remote = true;
    options.schedule.bots.push_back(*bot);
  }
  if (!absl::GetFlag(FLAGS_bot_lifetime).empty()) {
    options.bot_lifetime = absl::GetFlag(FLAGS_bot_lifetime);
  }
  if (absl::GetFlag(FLAGS_bot_pool) != 1) {
    options.bot_pool = absl::GetFlag(FLAGS_bot_pool);
  }
  options.remote_wait_s = absl::GetFlag(FLAGS_remote_wait_s);
  options.remote_latency_allowance_ms = absl::GetFlag(FLAGS_latency_allowance_ms);
  if (!absl::GetFlag(FLAGS_sprt).empty()) {
    options.sprt = absl::GetFlag(FLAGS_sprt);
  }
  if (options.schedule.bots.empty()) {
    return Usage("no bots: give --bot='NAME=COMMAND ARGS...' for each");
  }
  if (const std::string text = absl::GetFlag(FLAGS_schedule);
      text != "round_robin") {
    absl::StatusOr<t::ScheduleKind> kind = t::ParseScheduleKind(text);
    if (!kind.ok()) return Usage(std::string(kind.status().message()));
    options.schedule.kind = *kind;
  }
  if (absl::GetFlag(FLAGS_duplicate)) options.schedule.duplicate = true;
  if (absl::GetFlag(FLAGS_matches) != t::kDefaultDealSets) {
    options.schedule.matches = absl::GetFlag(FLAGS_matches);
  }
  if (const std::string text = absl::GetFlag(FLAGS_seatings);
      text != "balanced") {
    absl::StatusOr<t::SeatingsKind> seatings = t::ParseSeatingsKind(text);
    if (!seatings.ok()) return Usage(std::string(seatings.status().message()));
    options.schedule.seatings = *seatings;
  }
  if (!absl::GetFlag(FLAGS_games).empty()) options.schedule.games.clear();
  for (const std::string& g : absl::GetFlag(FLAGS_games)) {
    absl::StatusOr<t::GameSpec> game = t::ParseGameSpec(g);
    if (!game.ok()) return Usage(std::string(game.status().message()));
    options.schedule.games.push_back(*game);
  }
  if (!absl::GetFlag(FLAGS_out).empty())
    options.out_dir = absl::GetFlag(FLAGS_out);
  if (absl::GetFlag(FLAGS_concurrency) != 1) {
    options.concurrency = absl::GetFlag(FLAGS_concurrency);
  }
  if (!absl::GetFlag(FLAGS_shard).empty())
    options.shard = absl::GetFlag(FLAGS_shard);
  if (!absl::GetFlag(FLAGS_server).empty()) {
    options.server = absl::GetFlag(FLAGS_server);
  }
  options.referee_binary = absl::GetFlag(FLAGS_referee_bin);
  if (options.referee_binary.empty()) {
    options.referee_binary = t::DefaultRefereeBinary();
  }
  if (!absl::GetFlag(FLAGS_params).empty()) {
    options.match.params = absl::GetFlag(FLAGS_params);
  }
  if (absl::GetFlag(FLAGS_decision_time_limit_ms) != 5000) {
    options.match.decision_time_limit_ms =
        absl::GetFlag(FLAGS_decision_time_limit_ms);
  }
  if (absl::GetFlag(FLAGS_join_timeout_s) != 30) {
    options.match.join_timeout_s = absl::GetFlag(FLAGS_join_timeout_s);
  }
  if (absl::GetFlag(FLAGS_match_budget_s) != 600) {
    options.match.match_budget_s = absl::GetFlag(FLAGS_match_budget_s);
  }
  options.match.by_hand = absl::GetFlag(FLAGS_by_hand);
  options.match.max_bot_output_mb = absl::GetFlag(FLAGS_max_bot_output_mb);
  options.match.max_bot_memory_mb = absl::GetFlag(FLAGS_max_bot_memory_mb);
  options.match.max_bot_threads = absl::GetFlag(FLAGS_max_bot_threads);
  options.match.max_bot_cpu_s = absl::GetFlag(FLAGS_max_bot_cpu_s);
  if (!(options.match.max_bot_cpu_s >= 0 &&
        options.match.max_bot_cpu_s <= 7 * 86400)) {
    return Usage("--max_bot_cpu_s must be 0 (no limit) to 604800");
  }
  for (const std::string& text : absl::GetFlag(FLAGS_bot_folder).values) {
    if (absl::Status s = t::AddBotFolder(text, options.schedule.bots,
                                         &options.bot_folders);
        !s.ok()) {
      return Usage(std::string(s.message()));
    }
  }
  if (!options.server.empty()) {
    absl::StatusOr<std::optional<std::string>> token =
        cardref::grpc_service::LoadOrganiserToken(
            absl::GetFlag(FLAGS_organiser_token_file));
    if (!token.ok()) return Usage(std::string(token.status().message()));
    options.organiser_token = *token;
  }
  std::unique_ptr<t::UidPool> uid_pool;
  const std::string range_text = absl::GetFlag(FLAGS_bot_uids);
  const std::string bot_user = absl::GetFlag(FLAGS_bot_user);
  if (!range_text.empty() && !bot_user.empty()) {
    return Usage("give --bot_uids or --bot_user, not both");
  }
  if (!absl::GetFlag(FLAGS_trust_bots)) {
    // The default: every bot in the sandbox, as a uid of its own.
    if (geteuid() != 0) {
      return Usage(
          "bots run in the sandbox (docs/sandbox.md), which needs root (for "
          "cgroups and a uid per bot): run as root, or give --trust_bots to "
          "run them as plain processes of this user (only bots you trust: "
          "they could read what this user can)");
    }
    if (!bot_user.empty()) {
      return Usage(
          "--bot_user runs every bot as one user outside the sandbox: give "
          "it with --trust_bots, or leave it out (in the sandbox each bot "
          "runs as a uid of its own, --bot_uids)");
    }
    absl::StatusOr<t::UidRange> range =
        t::ParseUidRange(range_text.empty() ? kDefaultBotUids : range_text);
    if (!range.ok()) {
      return Usage(absl::StrCat(
          range_text.empty() ? "the default uids of sandboxed bots: " : "",
          range.status().message(),
          range_text.empty() ? " (give others with --bot_uids=FIRST-LAST)"
                             : ""));
    }
    // bubblewrap cannot map a uid past 2^31 - 1 into its user namespace.
    if (range->last > 2147483647u) {
      return Usage(absl::StrCat(
          "--bot_uids=", range_text,
          ": sandboxed bots need uids below 2147483648 (bubblewrap cannot "
          "map larger ones), e.g. ", kDefaultBotUids));
    }
    uid_pool = std::make_unique<t::UidPool>(*range);
    options.match.uid_pool = uid_pool.get();
    options.sandbox = true;
  } else {
    if (!options.bot_folders.empty()) {
      return Usage("--bot_folder is what a bot sees in the sandbox: not with "
                   "--trust_bots");
    }
    if (!range_text.empty()) {
      if (geteuid() != 0) return Usage("--bot_uids needs root to switch users");
      absl::StatusOr<t::UidRange> range = t::ParseUidRange(range_text);
      if (!range.ok()) return Usage(std::string(range.status().message()));
      uid_pool = std::make_unique<t::UidPool>(*range);
      options.match.uid_pool = uid_pool.get();
    } else if (!bot_user.empty()) {
      const struct passwd* pw = getpwnam(bot_user.c_str());
      if (pw == nullptr) return Usage("no user '" + bot_user + "'");
      if (geteuid() != 0) return Usage("--bot_user needs root to switch users");
      options.match.run_as = {true, pw->pw_uid, pw->pw_gid};
    }
    std::fprintf(
        stderr,
        "cardref_tournament: --trust_bots: the bots run outside the sandbox, "
        "as %s: they can read what that user can, reach the network and "
        "take every core\n",
        !range_text.empty() ? "uids of their own (--bot_uids)"
        : !bot_user.empty() ? bot_user.c_str()
                            : "this user");
  }
  // The event's page, for the event's whole run.
  std::unique_ptr<cardref::web::EventFront> web;
  if (const int port = absl::GetFlag(FLAGS_http_port); port != -1) {
    if (port < -1 || port > 65535) {
      return Usage(absl::StrCat("--http_port must be 0 to 65535 (or -1: "
                                "none), got ", port));
    }
    cardref::web::EventFrontOptions front;
    front.http.host = absl::GetFlag(FLAGS_http_host);
    front.http.port = port;
    absl::StatusOr<std::unique_ptr<cardref::web::EventFront>> started =
        cardref::web::EventFront::Start(std::move(front));
    if (!started.ok()) {
      std::fprintf(stderr, "cardref_tournament: the event page: %s\n",
                   std::string(started.status().message()).c_str());
      return t::kEventError;
    }
    web = *std::move(started);
    if (const std::string path = absl::GetFlag(FLAGS_http_port_file);
        !path.empty()) {
      const std::string temp = path + ".tmp";
      std::ofstream(temp) << web->port() << "\n";
      std::rename(temp.c_str(), path.c_str());
    }
    std::printf("web: http://%s:%d/\n", absl::GetFlag(FLAGS_http_host).c_str(),
                web->port());
    std::fflush(stdout);
    options.listener = web.get();
    options.referee_web = true;
  }
  // RunEvent checks the rest before it creates anything (CheckEventOptions).
  const int code = t::RunEvent(std::move(options), stdout);
  // The page stays up after an event that ran, not after a refusal.
  if (web != nullptr && absl::GetFlag(FLAGS_http_linger_s) > 0 &&
      (code == t::kEventComplete || code == t::kEventIncomplete)) {
    std::this_thread::sleep_for(std::chrono::duration<double>(
        std::min(absl::GetFlag(FLAGS_http_linger_s), 86400.0)));
  }
  return code;
}
