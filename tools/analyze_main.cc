// cardref_analyze: offline audit and statistics of game logs.
//
//   cardref_analyze audit [--salvage] [--referee_key=HEX|FILE] FILE|DIR...
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
#include "analyzer/cli.h"
#include "referee/games/all_games.h"
#include "tools/cli_flags.h"

ABSL_FLAG(bool, salvage, false,
          "audit: read past corruption (salvage mode) and replay what follows "
          "it; damaged logs are still reported CORRUPT");
ABSL_FLAG(std::string, format, "text", "stats: output format, text or json");
ABSL_FLAG(std::string, referee_key, "",
          "audit: the referee's Ed25519 public key (64 hex digits, or a file "
          "holding them or a PEM public key); every log must be signed with "
          "it, and a log that is unsigned or signed by another key is "
          "reported TAMPERED");

namespace {

constexpr char kUsage[] =
    "Offline audit and statistics of cardref game logs.\n"
    "Usage:\n"
    "  cardref_analyze audit [--salvage] [--referee_key=HEX|FILE] "
    "FILE|DIR...\n"
    "      Replays each log through the rules engine and checks its hash\n"
    "      chain, signature, seed commitment and deck orders. One line per\n"
    "      file: 'OK <file> (<game>, <n> rounds, <m> records, <signed|\n"
    "      unsigned|signed by the trusted key>)' or\n"
    "      '<VERDICT> <file>: <message>' with VERDICT one of MISMATCH,\n"
    "      INCOMPLETE, CORRUPT, ABORTED, TAMPERED, UNREADABLE.\n"
    "      Exit status: 0 iff every file is OK, 1 otherwise, 2 on usage "
    "errors.\n"
    "  cardref_analyze stats [--format=text|json] FILE|DIR...\n"
    "      Per game and player: games, wins, draws, win rate, score mean\n"
    "      and standard deviation, decisions per game, mean decision time,\n"
    "      rejected submissions, timeouts. Only logs that audit OK count;\n"
    "      the others are listed as skipped (exit status 1).\n"
    "A directory stands for every *.cardlog file below it.\n";

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> positional =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (positional.empty()) {
    std::cerr << "cardref_analyze: missing command\n\n" << kUsage;
    return cardref::analyzer::kExitUsage;
  }
  const std::string command = positional[0];
  const std::vector<std::string> args(positional.begin() + 1, positional.end());
  if (command == "audit") {
    return cardref::analyzer::RunAudit(args, absl::GetFlag(FLAGS_salvage),
                                       cardref::AllGames(), std::cout,
                                       std::cerr,
                                       absl::GetFlag(FLAGS_referee_key));
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
