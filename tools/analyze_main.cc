// cardref_analyze: offline audit and statistics of game logs.
//
//   cardref_analyze audit [--salvage] FILE|DIR...
//   cardref_analyze stats [--format=text|json] FILE|DIR...
//
// A directory stands for every *.cardlog file below it. `audit` replays each
// log through the rules engine and prints one line per file; it exits 0 iff
// every file is OK, 1 otherwise, 2 on usage errors. `stats` prints per-game,
// per-player statistics over the logs that audit OK and lists the others.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "analyzer/cli.h"
#include "referee/games/all_games.h"

ABSL_FLAG(bool, salvage, false,
          "audit: read past corruption (salvage mode) and replay what follows "
          "it; damaged logs are still reported CORRUPT");
ABSL_FLAG(std::string, format, "text", "stats: output format, text or json");

namespace {

constexpr char kUsage[] =
    "Offline audit and statistics of cardref game logs.\n"
    "Usage:\n"
    "  cardref_analyze audit [--salvage] FILE|DIR...\n"
    "      Replays each log through the rules engine. One line per file:\n"
    "      'OK <file> (<game>, <n> rounds, <m> records)' or\n"
    "      '<VERDICT> <file>: <message>' with VERDICT one of MISMATCH,\n"
    "      INCOMPLETE, CORRUPT, ABORTED, UNREADABLE.\n"
    "      Exit status: 0 iff every file is OK, 1 otherwise, 2 on usage "
    "errors.\n"
    "  cardref_analyze stats [--format=text|json] FILE|DIR...\n"
    "      Per game and player: games, wins, draws, win rate, score mean\n"
    "      and standard deviation, decisions per game, mean decision time,\n"
    "      rejected submissions, timeouts. Only logs that audit OK count;\n"
    "      the others are listed as skipped (exit status 1).\n"
    "A directory stands for every *.cardlog file below it.\n"
    "Flags:\n"
    "  --salvage   audit: read past corruption (damaged logs stay CORRUPT)\n"
    "  --format    stats: text (default) or json\n";

bool WantsHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-help" || arg == "-h" || arg == "help") {
      return true;
    }
  }
  return false;
}

// absl::ParseCommandLine exits with status 1 on an unknown flag; a usage
// error here exits with 2, so unknown flags are caught first.
bool HasUnknownFlag(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    arg = arg.substr(arg[1] == '-' ? 2 : 1);
    arg = arg.substr(0, arg.find('='));
    if (absl::FindCommandLineFlag(arg) != nullptr) continue;
    if (arg.rfind("no", 0) == 0 &&
        absl::FindCommandLineFlag(arg.substr(2)) != nullptr) {
      continue;  // --nosalvage
    }
    std::cerr << "cardref_analyze: unknown flag '" << argv[i] << "'\n\n"
              << kUsage;
    return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  if (WantsHelp(argc, argv)) {
    std::cout << kUsage;
    return 0;
  }
  if (HasUnknownFlag(argc, argv)) return cardref::analyzer::kExitUsage;
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) {
    std::cerr << "cardref_analyze: missing command\n\n" << kUsage;
    return cardref::analyzer::kExitUsage;
  }
  const std::string command = positional[1];
  const std::vector<std::string> args(positional.begin() + 2, positional.end());
  if (command == "audit") {
    return cardref::analyzer::RunAudit(args, absl::GetFlag(FLAGS_salvage),
                                       cardref::AllGames(), std::cout,
                                       std::cerr);
  }
  if (command == "stats") {
    const std::string format = absl::GetFlag(FLAGS_format);
    if (format != "text" && format != "json") {
      std::cerr << "cardref_analyze stats: --format must be text or json, "
                   "got '"
                << format << "'\n";
      return cardref::analyzer::kExitUsage;
    }
    return cardref::analyzer::RunStats(
        args,
        format == "json" ? cardref::analyzer::StatsFormat::kJson
                         : cardref::analyzer::StatsFormat::kText,
        cardref::AllGames(), std::cout, std::cerr);
  }
  std::cerr << "cardref_analyze: unknown command '" << command << "'\n\n"
            << kUsage;
  return cardref::analyzer::kExitUsage;
}
