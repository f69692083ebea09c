// cardref_ladder: set up and read a rated ladder's store (docs/ladder.md).
//
//   cardref_ladder init|add|set-status|standings|backup|restore|migrate
//   [flags]
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ladder/tools/ladder_cli.h"
#include "ladder/tools/ladder_migrate.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, store, "ladder.db", "the ladder's SQLite file");
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
ABSL_FLAG(int64_t, version_id, 0,
          "set-status: the version (its id, as `add` printed it)");
ABSL_FLAG(std::string, status, "",
          "set-status: ranked, rejected or retired");
ABSL_FLAG(std::string, reason, "", "set-status: why (shown with the version)");
ABSL_FLAG(std::string, game, "",
          "standings: only this game, as id:players");
ABSL_FLAG(std::string, format, "text", "standings: text or json");
ABSL_FLAG(std::string, to, "",
          "backup, restore: the file to write (new); migrate: the "
          "PostgreSQL database (postgresql://USER@HOST:PORT/DATABASE)");
ABSL_FLAG(std::string, from, "",
          "restore: the backup to restore; migrate: the ladder's SQLite "
          "file");

namespace {

constexpr char kUsage[] =
    "Sets up and reads a rated cardref ladder's store (docs/ladder.md).\n"
    "Usage:\n"
    "  cardref_ladder init --store=FILE --name=NAME --games=craits:3,...\n"
    "      [--params=...] [--duplicate] [--frozen]\n"
    "      [--decision_time_limit_ms=N] [--match_budget_ms=N]\n"
    "      [--reference=ENTRANT]\n"
    "  cardref_ladder add --store=FILE --entrant=NAME --command='CMD ARGS'\n"
    "      [--path=FILE|DIR | --content_hash=HEX]\n"
    "      A new version of the entrant (added if new), validating.\n"
    "  cardref_ladder set-status --store=FILE --version_id=N\n"
    "      --status=ranked|rejected|retired [--reason=TEXT]\n"
    "  cardref_ladder standings --store=FILE [--game=id:players]\n"
    "      [--format=text|json]\n"
    "      Ranked versions by rating mu - 3 sigma, best first.\n"
    "  cardref_ladder backup --store=FILE --to=NEW_FILE\n"
    "  cardref_ladder restore --from=BACKUP --to=NEW_FILE\n"
    "  cardref_ladder migrate --from=FILE --to=postgresql://USER@HOST/DB\n"
    "      Copies the ladder into an empty PostgreSQL database, for workers\n"
    "      on several machines (docs/scale.md).\n"
    "Exit status: 0 on success, 1 on an error, 2 on a usage error.\n";

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (args.size() != 1) {
    std::cerr << "cardref_ladder takes one command (init, add, set-status, "
                 "standings, backup, restore, migrate), got "
              << args.size() << "\n\n"
              << kUsage;
    return cardref::cli::kExitUsage;
  }
  namespace cli = cardref::ladder::cli;
  const std::string& command = args[0];
  const std::string store = absl::GetFlag(FLAGS_store);
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
    status = cli::Add(options, NowMicros(), std::cout);
  } else if (command == "set-status") {
    status = cli::SetStatus(store, absl::GetFlag(FLAGS_version_id),
                            absl::GetFlag(FLAGS_status),
                            absl::GetFlag(FLAGS_reason), NowMicros(),
                            std::cout);
  } else if (command == "standings") {
    status = cli::Standings(store, absl::GetFlag(FLAGS_game),
                            absl::GetFlag(FLAGS_format), std::cout);
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
