#include "tools/cli_flags.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "tools/version.h"

namespace cardref::cli {
namespace {

// Our flags: those defined in a file under tools/ or in a generator of test
// data (analyzer/make_*.cc), by name.
std::map<std::string, absl::CommandLineFlag*> OurFlags() {
  std::map<std::string, absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (absl::StrContains(flag->Filename(), "tools/") ||
        absl::StrContains(flag->Filename(), "analyzer/make_")) {
      flags[std::string(name)] = flag;
    }
  }
  return flags;
}

void PrintHelp(std::ostream& out, absl::string_view usage) {
  out << usage;
  if (!absl::EndsWith(usage, "\n")) out << "\n";
  out << "\nFlags:\n";
  for (const auto& [name, flag] : OurFlags()) {
    out << "  --" << name << " (default: " << flag->DefaultValue() << ")\n"
        << "      " << flag->Help() << "\n";
  }
  out << "  --help\n      this text\n";
  out << "  --version\n      the cardref version\n";
}

[[noreturn]] void UsageError(const std::string& problem,
                             absl::string_view usage) {
  std::cerr << problem << "\n\n";
  PrintHelp(std::cerr, usage);
  std::exit(kExitUsage);
}

}  // namespace

std::vector<std::string> ParseFlagsOrExit(int argc, char** argv,
                                          absl::string_view usage) {
#ifdef NDEBUG
  // Debian's Abseil is built without NDEBUG, so each absl::Mutex::Lock
  // checks the lock order in a graph shared by the process (2% of a bot's
  // CPU per decision). The tests keep the check; the shipped binaries,
  // every one of which starts here, skip it.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  const std::map<std::string, absl::CommandLineFlag*> flags = OurFlags();
  std::vector<std::string> positional;
  bool only_positional = false;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      positional.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    absl::string_view body = absl::StripPrefix(absl::StripPrefix(arg, "-"), "-");
    absl::string_view name = body;
    absl::string_view value;
    bool has_value = false;
    if (size_t eq = body.find('='); eq != absl::string_view::npos) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
      has_value = true;
    }
    if (name == "help" || name == "h" || name == "helpfull") {
      PrintHelp(std::cout, usage);
      std::exit(0);
    }
    if (name == "version") {
      std::cout << std::filesystem::path(argv[0]).filename().string() << " "
                << kVersion << "\n";
      std::exit(0);
    }
    auto it = flags.find(std::string(name));
    bool negated = false;
    if (it == flags.end() && absl::StartsWith(name, "no")) {
      it = flags.find(std::string(name.substr(2)));
      negated = it != flags.end();
    }
    if (it == flags.end()) UsageError(absl::StrCat("unknown flag ", arg), usage);
    absl::CommandLineFlag* flag = it->second;
    const bool is_bool = flag->IsOfType<bool>();
    std::string text;
    if (negated) {
      if (!is_bool || has_value) {
        UsageError(absl::StrCat("unknown flag ", arg), usage);
      }
      text = "false";
    } else if (has_value) {
      text = std::string(value);
    } else if (is_bool) {
      text = "true";
    } else if (i + 1 < argc) {
      text = argv[++i];
    } else {
      UsageError(absl::StrCat("flag ", arg, " needs a value"), usage);
    }
    std::string error;
    if (!flag->ParseFrom(text, &error)) {
      UsageError(absl::StrCat("bad value for --", name, ": ", error), usage);
    }
  }
  return positional;
}

void ParseFlagsWithoutArgsOrExit(int argc, char** argv,
                                 absl::string_view program,
                                 absl::string_view usage) {
  const std::vector<std::string> args = ParseFlagsOrExit(argc, argv, usage);
  if (args.empty()) return;
  std::cerr << program << " takes no arguments, got '" << args[0] << "'\n";
  std::exit(kExitUsage);
}

}  // namespace cardref::cli
