// cardref_ladder: set up, run and read a rated ladder (docs/ladder.md).
//
//   cardref_ladder init|add|set-status|run|standings|versions|export|freeze|
//                  reproduce|credential|serve|backup|restore|migrate [flags]
#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ladder/tools/entrant_credential.h"
#include "ladder/tools/ladder_cli.h"
#include "ladder/tools/ladder_migrate.h"
#include "tools/cli_flags.h"
#ifdef CARDREF_LADDER_RUN
#include "ladder/run/reproduce.h"
#include "ladder/run/runner.h"
#include "referee/base/status_macros.h"
#include "tools/ladder_web.h"
#include "tournament/bot_sandbox.h"
#include "tournament/uid_pool.h"
#endif

ABSL_FLAG(std::string, db, "ladder.db",
          "the ladder's SQLite file, or a PostgreSQL database "
          "(postgresql://USER@HOST:PORT/DATABASE; the password from "
          "PGPASSWORD or ~/.pgpass) for workers on several machines");
ABSL_FLAG(std::string, dir, "",
          "run, reproduce: the ladder's folder (referee keys, logs, the "
          "bots' output); default: <db>.d beside a SQLite file; needed with "
          "PostgreSQL");
ABSL_FLAG(std::string, store, "", "the same as --db (its older name)");
ABSL_FLAG(std::string, name, "", "init: the ladder's name");
ABSL_FLAG(std::string, games, "",
          "init: the games as id:players, comma-separated "
          "(craits:3,krass_kariert:4,kraken:4)");
ABSL_FLAG(std::string, params, "",
          "init: game parameters name=value,... for every game");
ABSL_FLAG(bool, duplicate, false,
          "init: duplicate deals (a group plays every seating of one deal)");
ABSL_FLAG(bool, frozen, false,
          "init: no rating drift and no new versions");
ABSL_FLAG(int64_t, decision_time_limit_ms, 5000,
          "init: each match's per-decision time limit");
ABSL_FLAG(int64_t, match_budget_ms, 600000,
          "init: a match still running after this is aborted");
ABSL_FLAG(std::string, reference, "", "init: the reference bot's entrant name");
ABSL_FLAG(std::string, entrant, "", "add: the entrant's name");
ABSL_FLAG(std::string, command, "", "add: the bot's command line");
ABSL_FLAG(std::string, path, "",
          "add: the bot's file or folder to hash (default: the command's "
          "first word)");
ABSL_FLAG(std::string, content_hash, "",
          "add: the version's content hash, instead of hashing --path");
ABSL_FLAG(std::string, remote, "",
          "add: a remote entrant NAME, whose bot runs on its author's "
          "machine and takes its seats by invitation with the bot "
          "credential `run` writes to <dir>/credentials/");
ABSL_FLAG(int64_t, version_id, 0,
          "set-status: the version (its id, as `add` printed it)");
ABSL_FLAG(std::string, status, "",
          "set-status: ranked, rejected or retired");
ABSL_FLAG(std::string, reason, "", "set-status: why (shown with the version)");
ABSL_FLAG(std::string, game, "",
          "standings: only this game, as id:players");
ABSL_FLAG(std::string, format, "",
          "standings, versions: text (default), json or csv; export: csv "
          "(default) or json");
ABSL_FLAG(int64_t, matches, 0,
          "run: matches to play to an end, then exit (0: until SIGINT or "
          "SIGTERM)");
ABSL_FLAG(int, workers, 1, "run: matches played at once");
ABSL_FLAG(bool, trust_bots, false,
          "run: run the bots outside the sandbox, as plain processes of this "
          "program's user (or --bot_user, --bot_uids): only for bots you "
          "trust, and the only way without root; without it, run puts every "
          "bot in the sandbox (docs/sandbox.md), which needs root. "
          "reproduce: needed, or --bot_user");
ABSL_FLAG(std::string, bot_user, "",
          "run with --trust_bots, reproduce: run the bots as this user (needs "
          "root)");
ABSL_FLAG(std::string, bot_uids, "",
          "run: FIRST-LAST, a uid of its own for each running bot (needs "
          "root; no account may use them; every process of such a uid is "
          "killed when its match ends, so two runners on one machine need "
          "ranges of their own); default in the sandbox: "
          "1900100000-1900100999");
ABSL_FLAG(double, max_bot_cpu_s, 0,
          "run: the most CPU time each bot may use in one match, in the "
          "sandbox; past it the bot is ended and its seat settled by the "
          "fault policy; 0 = no limit");
ABSL_FLAG(int32_t, max_bot_memory_mb, 2048,
          "run: the most resident memory each bot may hold, with the "
          "processes it starts, 16 to 1048576 MiB; past it the bot is "
          "killed");
ABSL_FLAG(std::string, referee_host, "localhost",
          "run: where the ladder's referee listens (remote entrants connect "
          "there; anything but loopback needs TLS in front of it, "
          "docs/auth.md)");
ABSL_FLAG(int32_t, referee_port, 0,
          "run: the referee's port (0: a free one, written to "
          "<dir>/referee/referee.port)");
ABSL_FLAG(double, remote_wait_s, 60,
          "run: how long a match waits for a remote entrant's bot to be "
          "connected before it is voided (not scored against it)");
ABSL_FLAG(std::string, referee_bin, "",
          "run, reproduce: the referee binary (default: cardref_referee "
          "beside this one)");
ABSL_FLAG(std::string, reference_command, "",
          "run: the reference bot when the ladder names no reference entrant "
          "(default: cardref_bot --strategy=random beside this binary)");
ABSL_FLAG(int, validation_matches, 1,
          "run: validation matches a new version plays per game against the "
          "reference bot before it is ranked");
ABSL_FLAG(int, ahead, 0,
          "run: rated matches kept scheduled per game (0: 2 per worker)");
ABSL_FLAG(double, lease_s, 60,
          "run: a claim's lease; a worker that dies mid-match leaves its "
          "match to be replayed this long after its last renewal");
ABSL_FLAG(int, refit_every, 100,
          "run: rated results between two batch refits (0: none)");
ABSL_FLAG(int64_t, match, 0, "reproduce: the match to replay");
ABSL_FLAG(std::string, log, "",
          "reproduce: a recorded log to replay (instead of --match)");
ABSL_FLAG(bool, thaw, false, "freeze: thaw a frozen ladder instead");
ABSL_FLAG(int, http_port, -1,
          "run, serve: the ladder's web pages on this port (0: a free one; "
          "-1: none)");
ABSL_FLAG(std::string, http_host, "127.0.0.1",
          "run, serve: the address the web pages listen on");
ABSL_FLAG(std::string, http_port_file, "",
          "run, serve: the web port is written here once serving");
ABSL_FLAG(bool, revoke, false,
          "credential: revoke the entrant's credentials instead");
ABSL_FLAG(std::string, to, "",
          "backup, restore: the file to write (new); migrate: the "
          "PostgreSQL database (postgresql://USER@HOST:PORT/DATABASE)");
ABSL_FLAG(std::string, from, "",
          "restore: the backup to restore; migrate: the ladder's SQLite "
          "file");

namespace {

constexpr char kUsage[] =
    "Sets up, runs and reads a rated cardref ladder (docs/ladder.md).\n"
    "Usage (--store is an older name of --db):\n"
    "  cardref_ladder init --db=FILE --name=NAME --games=craits:3,...\n"
    "      [--params=...] [--duplicate] [--frozen]\n"
    "      [--decision_time_limit_ms=N] [--match_budget_ms=N]\n"
    "      [--reference=ENTRANT]\n"
    "  cardref_ladder add --db=FILE --entrant=NAME --command='CMD ARGS'\n"
    "      [--path=FILE|DIR | --content_hash=HEX]\n"
    "      A new version of the entrant (added if new), validating.\n"
    "  cardref_ladder add --db=FILE --remote=NAME\n"
    "      A remote entrant: its bot connects by invitation.\n"
    "  cardref_ladder set-status --db=FILE --version_id=N\n"
    "      --status=ranked|rejected|retired [--reason=TEXT]\n"
    "  cardref_ladder run --db=FILE [--matches=N] [--workers=K]\n"
    "      [--bot_uids=FIRST-LAST] [--max_bot_cpu_s=S] [--max_bot_memory_mb=M]\n"
    "      [--trust_bots [--bot_user=USER]] [--referee_port=P] [--http_port=P]\n"
    "      As root every bot runs in the sandbox; without root, give\n"
    "      --trust_bots.\n"
    "      Plays the ladder on a referee of its own: new versions' validation\n"
    "      matches, then rated matches; N more matches, or until SIGINT or\n"
    "      SIGTERM (in-flight matches are finished first).\n"
    "  cardref_ladder standings --db=FILE [--game=id:players]\n"
    "      [--format=text|json|csv]\n"
    "      Ranked versions by rating mu - 3 sigma, best first.\n"
    "  cardref_ladder versions --db=FILE [--format=text|json|csv]\n"
    "      Every version with its status, and why one was rejected.\n"
    "  cardref_ladder export --db=FILE [--game=id:players]\n"
    "      [--format=csv|json]\n"
    "  cardref_ladder freeze --db=FILE [--thaw]\n"
    "      Finals: no new versions, no rating drift.\n"
    "  cardref_ladder reproduce --db=FILE --match=ID|--log=FILE\n"
    "      --trust_bots|--bot_user=USER\n"
    "      Replays a recorded match (same deal, versions, bot seeds) and\n"
    "      says whether the new log matches the old one (exit status 3 if\n"
    "      not).\n"
    "  cardref_ladder credential --db=FILE --entrant=NAME [--revoke]\n"
    "      Prints a new credential of the entrant (once: only its hash is\n"
    "      kept), with which its author reads its own bots' output and logs\n"
    "      on the ladder's web front; --revoke revokes all of them.\n"
    "  cardref_ladder serve --db=FILE --http_port=P [--http_port_file=F]\n"
    "      The ladder's web pages and JSON API alone, read-only (run\n"
    "      serves them too with --http_port; docs/web.md).\n"
    "  cardref_ladder backup --db=FILE --to=NEW_FILE\n"
    "  cardref_ladder restore --from=BACKUP --to=NEW_FILE\n"
    "  cardref_ladder migrate --from=FILE --to=postgresql://USER@HOST/DB\n"
    "      Copies the ladder into an empty PostgreSQL database, for workers\n"
    "      on several machines (docs/scale.md).\n"
    "Exit status: 0 on success, 1 on an error, 2 on a usage error.\n";

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

#ifdef CARDREF_LADDER_RUN
std::atomic<bool> g_stop{false};

// The first SIGINT or SIGTERM stops the runner after its in-flight
// matches; a second one ends the program at once (their claims are then
// replayed once their leases end).
void OnStopSignal(int) {
  g_stop.store(true);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

// Who reproduce's bots run as: --bot_user, or this user with --trust_bots.
absl::StatusOr<cardref::tournament::RunAs> BotUser() {
  if (const std::string name = absl::GetFlag(FLAGS_bot_user); !name.empty()) {
    const struct passwd* pw = getpwnam(name.c_str());
    if (pw == nullptr) {
      return absl::InvalidArgumentError("no user '" + name + "'");
    }
    if (geteuid() != 0) {
      return absl::InvalidArgumentError("--bot_user needs root to switch users");
    }
    return cardref::tournament::RunAs{true, pw->pw_uid, pw->pw_gid};
  }
  if (!absl::GetFlag(FLAGS_trust_bots)) {
    return absl::InvalidArgumentError(
        "bots would run as this user and could read its files (the ladder's "
        "database and signing key). Give --bot_user=USER (as root), or "
        "--trust_bots for bots you trust.");
  }
  return cardref::tournament::RunAs{};
}

// The uids sandboxed ladder bots run as without --bot_uids: no account's
// (checked), and not the tournament's default range, so a ladder and an
// event on one machine never end each other's bots.
constexpr char kDefaultLadderBotUids[] = "1900100000-1900100999";

// How run's bots are started: in the sandbox (the default, as root), or
// with --trust_bots as plain processes of this user, --bot_user or
// --bot_uids. Sets `options` and `uid_pool`.
absl::Status BotStarts(cardref::ladder::run::RunOptions& options,
                       std::unique_ptr<cardref::tournament::UidPool>& uid_pool) {
  namespace t = cardref::tournament;
  const std::string range_text = absl::GetFlag(FLAGS_bot_uids);
  const std::string bot_user = absl::GetFlag(FLAGS_bot_user);
  options.max_bot_cpu_s = absl::GetFlag(FLAGS_max_bot_cpu_s);
  if (!(options.max_bot_cpu_s >= 0 && options.max_bot_cpu_s <= 7 * 86400)) {
    return absl::InvalidArgumentError(
        "--max_bot_cpu_s must be 0 (no limit) to 604800");
  }
  options.max_bot_memory_mb = absl::GetFlag(FLAGS_max_bot_memory_mb);
  if (options.max_bot_memory_mb < 16 || options.max_bot_memory_mb > 1048576) {
    return absl::InvalidArgumentError(
        "--max_bot_memory_mb must be 16 to 1048576");
  }
  if (!range_text.empty() && !bot_user.empty()) {
    return absl::InvalidArgumentError("give --bot_uids or --bot_user, not both");
  }
  if (!absl::GetFlag(FLAGS_trust_bots)) {
    if (geteuid() != 0) {
      return absl::InvalidArgumentError(
          "bots run in the sandbox (docs/sandbox.md), which needs root (for "
          "cgroups and a uid per bot): run as root, or give --trust_bots to "
          "run them as plain processes of this user (only bots you trust: "
          "they could read the ladder's database and signing key)");
    }
    if (!bot_user.empty()) {
      return absl::InvalidArgumentError(
          "--bot_user runs every bot as one user outside the sandbox: give "
          "it with --trust_bots, or leave it out (in the sandbox each bot "
          "runs as a uid of its own, --bot_uids)");
    }
    absl::StatusOr<t::UidRange> range = t::ParseSandboxUidRange(
        range_text.empty() ? kDefaultLadderBotUids : range_text);
    if (!range.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          range_text.empty() ? "the default uids of sandboxed bots: " : "",
          range.status().message(),
          range_text.empty() ? " (give others with --bot_uids=FIRST-LAST)"
                             : ""));
    }
    uid_pool = std::make_unique<t::UidPool>(*range);
    options.uid_pool = uid_pool.get();
    options.sandbox = true;
    return absl::OkStatus();
  }
  if (absl::GetFlag(FLAGS_max_bot_cpu_s) > 0) {
    return absl::InvalidArgumentError(
        "--max_bot_cpu_s is enforced in the sandbox only: not with "
        "--trust_bots");
  }
  if (!range_text.empty()) {
    if (geteuid() != 0) {
      return absl::InvalidArgumentError("--bot_uids needs root to switch users");
    }
    absl::StatusOr<t::UidRange> range = t::ParseUidRange(range_text);
    if (!range.ok()) return range.status();
    uid_pool = std::make_unique<t::UidPool>(*range);
    options.uid_pool = uid_pool.get();
  } else {
    ASSIGN_OR_RETURN(options.run_as, BotUser());
  }
  std::cerr << "cardref_ladder run: --trust_bots: the bots run outside the "
               "sandbox, as "
            << (!range_text.empty() ? "uids of their own (--bot_uids)"
                : !bot_user.empty() ? bot_user
                                    : std::string("this user"))
            << ": they can read what that user can, reach the network and "
               "take every core\n";
  return absl::OkStatus();
}

cardref::tools::LadderWebOptions LadderWeb(const std::string& db) {
  cardref::tools::LadderWebOptions web;
  web.db = db;
  web.dir = absl::GetFlag(FLAGS_dir);
  web.host = absl::GetFlag(FLAGS_http_host);
  web.port = absl::GetFlag(FLAGS_http_port);
  web.port_file = absl::GetFlag(FLAGS_http_port_file);
  return web;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (args.size() != 1) {
    std::cerr << "cardref_ladder takes one command (init, add, set-status, "
                 "run, standings, versions, export, freeze, reproduce, "
                 "credential, serve, backup, restore, migrate), got "
              << args.size() << "\n\n"
              << kUsage;
    return cardref::cli::kExitUsage;
  }
  namespace cli = cardref::ladder::cli;
  const std::string& command = args[0];
  const std::string store = absl::GetFlag(FLAGS_store).empty()
                                ? absl::GetFlag(FLAGS_db)
                                : absl::GetFlag(FLAGS_store);
  const std::string format = absl::GetFlag(FLAGS_format);
  absl::Status status;
  if (command == "init") {
    cli::InitOptions options;
    options.store = store;
    options.name = absl::GetFlag(FLAGS_name);
    options.games = absl::GetFlag(FLAGS_games);
    options.params = absl::GetFlag(FLAGS_params);
    options.duplicate = absl::GetFlag(FLAGS_duplicate);
    options.frozen = absl::GetFlag(FLAGS_frozen);
    options.decision_time_limit_ms = absl::GetFlag(FLAGS_decision_time_limit_ms);
    options.match_budget_ms = absl::GetFlag(FLAGS_match_budget_ms);
    options.reference_entrant = absl::GetFlag(FLAGS_reference);
    status = cli::Init(options, NowMicros(), std::cout);
  } else if (command == "add") {
    cli::AddOptions options;
    options.store = store;
    options.entrant = absl::GetFlag(FLAGS_entrant);
    options.command = absl::GetFlag(FLAGS_command);
    options.path = absl::GetFlag(FLAGS_path);
    options.content_hash = absl::GetFlag(FLAGS_content_hash);
    if (const std::string remote = absl::GetFlag(FLAGS_remote);
        !remote.empty()) {
      if (!options.entrant.empty() && options.entrant != remote) {
        std::cerr << "cardref_ladder add: --remote=" << remote
                  << " names the entrant: no --entrant with it\n";
        return cardref::cli::kExitUsage;
      }
      options.entrant = remote;
      options.remote = true;
    }
    options.dir = absl::GetFlag(FLAGS_dir);
    status = cli::Add(options, NowMicros(), std::cout);
  } else if (command == "set-status") {
    status = cli::SetStatus(store, absl::GetFlag(FLAGS_version_id),
                            absl::GetFlag(FLAGS_status),
                            absl::GetFlag(FLAGS_reason), NowMicros(),
                            std::cout);
  } else if (command == "standings") {
    status = cli::Standings(store, absl::GetFlag(FLAGS_game),
                            format.empty() ? "text" : format, std::cout);
  } else if (command == "versions") {
    status = cli::Versions(store, format.empty() ? "text" : format, std::cout);
  } else if (command == "export") {
    status = cli::Export(store, absl::GetFlag(FLAGS_game),
                         format.empty() ? "csv" : format, std::cout);
  } else if (command == "credential") {
    status = cardref::ladder::cli::Credential(
        store, absl::GetFlag(FLAGS_entrant), absl::GetFlag(FLAGS_revoke),
        NowMicros(), std::cout);
#ifdef CARDREF_LADDER_RUN
  } else if (command == "serve") {
    signal(SIGINT, OnStopSignal);
    signal(SIGTERM, OnStopSignal);
    status = cardref::tools::ServeLadderWeb(LadderWeb(store), g_stop);
#endif
  } else if (command == "freeze") {
    status = cli::Freeze(store, !absl::GetFlag(FLAGS_thaw), std::cout);
#ifdef CARDREF_LADDER_RUN
  } else if (command == "run") {
    namespace run = cardref::ladder::run;
    run::RunOptions options;
    std::unique_ptr<cardref::tournament::UidPool> uid_pool;
    status = BotStarts(options, uid_pool);
    if (status.ok()) {
      options.db = store;
      options.dir = absl::GetFlag(FLAGS_dir);
      options.matches = absl::GetFlag(FLAGS_matches);
      options.workers = absl::GetFlag(FLAGS_workers);
      options.referee_binary = absl::GetFlag(FLAGS_referee_bin);
      options.reference_command = absl::GetFlag(FLAGS_reference_command);
      options.validation_matches = absl::GetFlag(FLAGS_validation_matches);
      options.ahead = absl::GetFlag(FLAGS_ahead);
      options.lease_s = absl::GetFlag(FLAGS_lease_s);
      options.refit_every = absl::GetFlag(FLAGS_refit_every);
      options.referee_host = absl::GetFlag(FLAGS_referee_host);
      options.referee_port = absl::GetFlag(FLAGS_referee_port);
      options.remote_wait_s = absl::GetFlag(FLAGS_remote_wait_s);
      signal(SIGINT, OnStopSignal);
      signal(SIGTERM, OnStopSignal);
      // The ladder's pages beside its workers, with --http_port.
      absl::StatusOr<std::unique_ptr<cardref::web::LadderFront>> web =
          cardref::tools::StartLadderWeb(LadderWeb(store));
      status = web.ok() ? run::RunLadder(options, g_stop, std::cout)
                        : web.status();
    }
  } else if (command == "reproduce") {
    absl::StatusOr<cardref::tournament::RunAs> run_as = BotUser();
    if (!run_as.ok()) {
      status = run_as.status();
    } else {
      namespace run = cardref::ladder::run;
      run::ReproduceOptions options;
      options.db = store;
      options.dir = absl::GetFlag(FLAGS_dir);
      options.match_id = absl::GetFlag(FLAGS_match);
      options.log = absl::GetFlag(FLAGS_log);
      options.referee_binary = absl::GetFlag(FLAGS_referee_bin);
      options.run_as = *run_as;
      absl::StatusOr<run::Reproduction> reproduced =
          run::Reproduce(options, std::cout);
      if (!reproduced.ok()) {
        status = reproduced.status();
      } else if (!reproduced->same) {
        return 3;
      }
    }
#endif
  } else if (command == "backup") {
    status = cli::Backup(store, absl::GetFlag(FLAGS_to), std::cout);
  } else if (command == "restore") {
    status = cli::Restore(absl::GetFlag(FLAGS_from), absl::GetFlag(FLAGS_to),
                          std::cout);
  } else if (command == "migrate") {
    status = cli::MigrateToPostgres(absl::GetFlag(FLAGS_from),
                                    absl::GetFlag(FLAGS_to), NowMicros(),
                                    std::cout);
  } else {
    std::cerr << "unknown command '" << command << "'\n\n" << kUsage;
    return cardref::cli::kExitUsage;
  }
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    std::cerr << "cardref_ladder " << command << ": " << status.message()
              << "\n";
    return cardref::cli::kExitUsage;
  }
  if (!status.ok()) {
    std::cerr << "cardref_ladder " << command << ": " << status << "\n";
    return 1;
  }
  return 0;
}
