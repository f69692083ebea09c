// cardref_conformance FILES...: replays conformance transcripts
// (../shared/conformance/README.md) through the engines and reports, per
// game, OK or the first difference.
//
// Exit status: 0 iff every game of every file conforms; 1 if some game
// differs; 2 on a usage error or a file that cannot be read (or holds no
// game).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "analyzer/conformance/transcript.h"
#include "tools/cli_flags.h"

ABSL_FLAG(bool, verbose, false,
          "print the OK line of every game too, not only the differences");
ABSL_FLAG(int, max_differences, 0,
          "print at most this many DIFF lines (0: all); the summary still "
          "counts every game");
ABSL_FLAG(bool, show_state, false,
          "after each DIFF line, print the engine state where it was found "
          "(every hidden card included)");

namespace {

constexpr int kExitDiffer = 1;
constexpr int kExitUsage = cardref::cli::kExitUsage;

constexpr absl::string_view kUsage =
    "Usage: cardref_conformance [FLAGS] FILE.jsonl...\n"
    "\n"
    "Replays conformance transcripts (one game per line, format of\n"
    "shared/conformance/README.md) through the engines. Prints a line per\n"
    "game that differs,\n"
    "  DIFF <file>:<line> event <i>: <what>: transcript <x>; engine <y>\n"
    "(with --verbose also `OK <file>:<line> <game> (<n> decisions)`), then\n"
    "`N games: N ok, M differ`.\n"
    "Exit status: 0 all games conform, 1 some game differs, 2 usage error or\n"
    "unreadable file.\n";

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> files =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (files.empty()) {
    std::cerr << "cardref_conformance: no transcript file given\n\n"
              << kUsage;
    return kExitUsage;
  }

  const bool verbose = absl::GetFlag(FLAGS_verbose);
  const bool show_state = absl::GetFlag(FLAGS_show_state);
  const int max_differences = absl::GetFlag(FLAGS_max_differences);
  int games = 0;
  int ok = 0;
  int printed_differences = 0;
  bool unreadable = false;
  for (const std::string& path : files) {
    cardref::conformance::FileReport report =
        cardref::conformance::CheckFile(path);
    for (const cardref::conformance::TranscriptReport& game : report.games) {
      ++games;
      ok += game.ok();
      if (game.ok() && !verbose) continue;
      if (!game.ok()) {
        if (max_differences > 0 && printed_differences >= max_differences) {
          continue;
        }
        ++printed_differences;
      }
      std::cout << cardref::conformance::FormatGameLine(path, game) << "\n";
      if (!game.ok() && show_state && !game.engine_state.empty()) {
        std::cout << game.engine_state << "\n";
      }
    }
    if (!report.status.ok()) {
      unreadable = true;
      std::cout << std::flush;
      std::cerr << "cardref_conformance: " << report.status.message() << "\n";
    }
  }
  const int differ = games - ok;
  if (differ > printed_differences) {
    std::cout << "(" << differ - printed_differences
              << " more differences not printed: --max_differences)\n";
  }
  std::cout << games << " games: " << ok << " ok, " << differ << " differ\n";
  if (unreadable) return kExitUsage;
  return differ == 0 ? 0 : kExitDiffer;
}
