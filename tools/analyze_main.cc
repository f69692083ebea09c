// cardref_analyze: offline audit, statistics and ratings of game logs
// (docs/analyzer.md).
//
//   cardref_analyze audit|stats|ratings [flags] FILE|DIR|GLOB...
//   cardref_analyze compare [flags] A B FILE|DIR|GLOB...
//   cardref_analyze merge [--format=...] PARTIAL...
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "analyzer/cli.h"
#include "games/all_games.h"
#include "tools/cli_flags.h"

ABSL_FLAG(bool, salvage, false,
          "audit: read past corruption (salvage mode) and replay what follows "
          "it; damaged logs are still reported CORRUPT");
ABSL_FLAG(std::string, format, "text", "output format: text, json or csv");
ABSL_FLAG(std::string, referee_key, "",
          "audit and the rest: the referee's Ed25519 public key (64 hex "
          "digits, or a file holding it or a PEM public key) every log must "
          "be signed with; empty: each log's own header key");
ABSL_FLAG(int, jobs, 0, "threads reading logs; 0: one per core");
ABSL_FLAG(bool, quiet, false, "no progress line on a terminal");
ABSL_FLAG(std::string, shard, "",
          "I/N: only every N-th of the sorted inputs, starting at the I-th, "
          "counted from 1 (1 <= I <= N; cardref_tournament --shard counts "
          "from 0)");
ABSL_FLAG(std::string, partial, "",
          "write the partial result (a protobuf AnalysisPartial) of the "
          "selected inputs to this file instead of a report; combine with "
          "`merge`");
ABSL_FLAG(std::string, html, "",
          "also write a self-contained HTML report with charts to this file");
constexpr int kMaxBootstrap = 100'000;
ABSL_FLAG(int, bootstrap, 200,
          "ratings: bootstrap resamples for intervals (0..100000)");
ABSL_FLAG(uint64_t, seed, 1, "ratings: seed of the bootstrap's generator");
ABSL_FLAG(std::string, game, "",
          "compare: the game (when A and B met in "
          "several)");
ABSL_FLAG(double, elo1, 10,
          "compare: SPRT alternative, A stronger than B by this many rating "
          "points");
ABSL_FLAG(double, alpha, 0.05, "compare: SPRT false positive rate");
ABSL_FLAG(double, beta, 0.05, "compare: SPRT false negative rate");

namespace {

constexpr char kUsage[] =
    "Offline audit, statistics and ratings of cardref game logs.\n"
    "Usage:\n"
    "  cardref_analyze audit [--salvage] [--referee_key=HEX|FILE] FILE|DIR...\n"
    "      Replays each log through the rules engine. One line per file:\n"
    "      'OK <file> (<game>, <n> rounds, <m> records)' or\n"
    "      '<VERDICT> <file>: <message>' with VERDICT one of MISMATCH,\n"
    "      INCOMPLETE, CORRUPT, ABORTED, UNREADABLE; then a summary line.\n"
    "      --format=json: one object per file per line; csv: one row each.\n"
    "      Exit status: 0 iff every file is OK, 1 if some file has an error\n"
    "      (MISMATCH, CORRUPT, UNREADABLE), 3 if none has but some game was\n"
    "      interrupted (INCOMPLETE) or aborted, 2 on usage errors.\n"
    "  cardref_analyze stats [--format=text|json|csv] FILE|DIR...\n"
    "      Per game and player: games, seat-games, wins, win rate with a 95%\n"
    "      interval clustered by deal set (or match), score mean, median and\n"
    "      distribution, finishing positions, decision time p50/p95/max,\n"
    "      rejected submissions, timeouts, substitutions, game-specific\n"
    "      metrics; head to head; per seat, with a test of 'no seat\n"
    "      advantage'. Only logs that audit OK count; the others are listed\n"
    "      as skipped (exit status 1). Every distinct game counts once:\n"
    "      copies and replays are set aside and listed.\n"
    "  cardref_analyze ratings [--bootstrap=N --seed=S] FILE|DIR...\n"
    "      Bradley-Terry ratings over all games (mean 1500) with 95%\n"
    "      intervals of a bootstrap of whole deal sets (or matches); an\n"
    "      undefeated or winless player is shown as a bound.\n"
    "  cardref_analyze compare [--elo1=X --alpha=A --beta=B] A B FILE|DIR...\n"
    "      A's paired score against B per deal set (or match), the score\n"
    "      difference, head-to-head counts as stats has them, and an SPRT\n"
    "      of 'A is stronger than B by X points'.\n"
    "No interval rests on fewer than 5 deal sets (or matches): it is then\n"
    "printed as a dash with the reason, null in JSON.\n"
    "  cardref_analyze merge [--format=...] PARTIAL...\n"
    "      The report of partial results written with --shard=I/N\n"
    "      --partial=FILE, exactly as one run over all inputs.\n"
    "Inputs: files, directories (every *.cardlog below) and glob patterns,\n"
    "sorted; --jobs threads (all cores by default); a progress line on a\n"
    "terminal unless --quiet; --html=FILE adds a report page.\n";

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> positional =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (positional.empty()) {
    std::cerr << "cardref_analyze: missing command\n\n" << kUsage;
    return cardref::analyzer::kExitUsage;
  }
  const std::string& command = positional[0];
  const std::vector<std::string> args(positional.begin() + 1, positional.end());
  namespace analyzer = cardref::analyzer;
  analyzer::CliOptions options;
  const std::string format = absl::GetFlag(FLAGS_format);
  if (format == "text") {
    options.format = analyzer::Format::kText;
  } else if (format == "json") {
    options.format = analyzer::Format::kJson;
  } else if (format == "csv") {
    options.format = analyzer::Format::kCsv;
  } else {
    std::cerr << "cardref_analyze " << command
              << ": --format must be text, json or csv, got '" << format
              << "'\n";
    return analyzer::kExitUsage;
  }
  options.salvage = absl::GetFlag(FLAGS_salvage);
  options.jobs = absl::GetFlag(FLAGS_jobs);
  if (options.jobs < 0) {
    std::cerr << "cardref_analyze: --jobs must be 0 or more\n";
    return analyzer::kExitUsage;
  }
  options.progress = !absl::GetFlag(FLAGS_quiet) && isatty(STDERR_FILENO);
  options.shard = absl::GetFlag(FLAGS_shard);
  options.partial = absl::GetFlag(FLAGS_partial);
  options.html = absl::GetFlag(FLAGS_html);
  options.referee_key = absl::GetFlag(FLAGS_referee_key);
  options.ratings.bootstrap = absl::GetFlag(FLAGS_bootstrap);
  options.ratings.seed = absl::GetFlag(FLAGS_seed);
  options.compare.game = absl::GetFlag(FLAGS_game);
  options.compare.elo1 = absl::GetFlag(FLAGS_elo1);
  options.compare.alpha = absl::GetFlag(FLAGS_alpha);
  options.compare.beta = absl::GetFlag(FLAGS_beta);
  // Each resample refits every rating: a typo of a few digits more would
  // run for days, and the interval's ends are steady long before 100,000.
  if (options.ratings.bootstrap < 0 ||
      options.ratings.bootstrap > kMaxBootstrap) {
    std::cerr << "cardref_analyze: --bootstrap must be 0.." << kMaxBootstrap
              << " resamples (200 by default), got "
              << options.ratings.bootstrap << "\n";
    return analyzer::kExitUsage;
  }
  // alpha + beta below 1, or the SPRT's bounds cross.
  if (!(options.compare.alpha > 0) ||
      !(options.compare.beta > 0) ||
      !(options.compare.alpha + options.compare.beta < 1)) {
    std::cerr << "cardref_analyze: --alpha and --beta must be more than 0 "
                 "with a sum below 1\n";
    return analyzer::kExitUsage;
  }
  // H1 must differ from H0 (A - B = 0), or the test never decides.
  if (!std::isfinite(options.compare.elo1) || options.compare.elo1 == 0) {
    std::cerr << "cardref_analyze: --elo1 must be a finite number of rating "
                 "points other than 0 (H1: A - B = elo1 against H0: A - B = "
                 "0)\n";
    return analyzer::kExitUsage;
  }
  const int code = analyzer::RunCommand(
      command, args, options, cardref::AllGames(), std::cout, std::cerr);
  if (code == analyzer::kExitUsage && command != "audit" &&
      command != "stats" && command != "ratings" && command != "compare" &&
      command != "merge") {
    std::cerr << "\n" << kUsage;
  }
  return code;
}
