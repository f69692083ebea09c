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
constexpr int kExitUsage = 2;

// Our flags, the only ones accepted on the command line.
constexpr absl::string_view kFlags[] = {"verbose", "max_differences",
                                        "show_state"};

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
    "unreadable file.\n"
    "\n"
    "Flags:\n";

void PrintUsage(std::ostream& out) {
  out << kUsage;
  for (absl::string_view name : kFlags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    out << "  --" << name << " (default " << flag->DefaultValue() << ")\n"
        << "      " << flag->Help() << "\n";
  }
  out << "  --help\n      this text\n";
}

bool IsOurFlag(absl::string_view name) {
  for (absl::string_view f : kFlags) {
    if (f == name) return true;
  }
  return false;
}

// Parses argv into our ABSL_FLAGs and the file list. absl::ParseCommandLine
// would exit(1) on a bad flag; we promise 2 for usage errors, so we parse
// with the flags' own parsers here. Returns false with `error` set on a
// usage error.
bool ParseArgs(int argc, char** argv, bool* help,
               std::vector<std::string>* files, std::string* error) {
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (only_files || arg.size() < 2 || arg[0] != '-') {
      files->push_back(std::string(arg));
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    absl::string_view body =
        absl::StripPrefix(absl::StripPrefix(arg, "-"), "-");
    absl::string_view name = body;
    absl::string_view value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != absl::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    if (name == "help" || name == "h") {
      *help = true;
      continue;
    }
    bool negated = false;
    if (!IsOurFlag(name) && absl::StartsWith(name, "no") &&
        IsOurFlag(name.substr(2))) {
      name = name.substr(2);
      negated = true;
    }
    if (!IsOurFlag(name)) {
      *error = absl::StrCat("unknown flag ", arg);
      return false;
    }
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    const bool is_bool = flag->IsOfType<bool>();
    if (negated && (!is_bool || has_value)) {
      *error = absl::StrCat("unknown flag ", arg);
      return false;
    }
    std::string text;
    if (has_value) {
      text = std::string(value);
    } else if (is_bool) {
      text = negated ? "false" : "true";
    } else if (i + 1 < argc) {
      text = argv[++i];
    } else {
      *error = absl::StrCat("flag --", name, " needs a value");
      return false;
    }
    std::string why;
    if (!flag->ParseFrom(text, &why)) {
      *error = absl::StrCat("bad value for --", name, ": ", why);
      return false;
    }
  }
  if (absl::GetFlag(FLAGS_max_differences) < 0) {
    *error = "--max_differences must be >= 0";
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool help = false;
  std::vector<std::string> files;
  std::string error;
  if (!ParseArgs(argc, argv, &help, &files, &error)) {
    std::cerr << "cardref_conformance: " << error << "\n\n";
    PrintUsage(std::cerr);
    return kExitUsage;
  }
  if (help) {
    PrintUsage(std::cout);
    return 0;
  }
  if (files.empty()) {
    std::cerr << "cardref_conformance: no transcript file given\n\n";
    PrintUsage(std::cerr);
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
