// Command-line parsing shared by every cardref binary.
//
// absl::ParseCommandLine exits with status 1 both for --help and for a bad
// flag. Our binaries promise 0 for --help and 2 for usage errors, and list
// their own flags (not Abseil's internal ones) in the help text, so they
// parse with this instead. Flags are still defined with ABSL_FLAG in the
// main files and read with absl::GetFlag.
#ifndef CARDREF_TOOLS_CLI_FLAGS_H_
#define CARDREF_TOOLS_CLI_FLAGS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace cardref::cli {

inline constexpr int kExitUsage = 2;

// Accepts --name=value, --name value, --bool, --nobool and `--` (the rest
// is positional) for the flags defined in tools/. --help (-h) prints
// `usage` and every such flag with its default and help, then exits 0. An
// unknown flag or a bad value prints the problem and `usage` to stderr and
// exits kExitUsage. Returns the positional arguments (argv[0] excluded).
std::vector<std::string> ParseFlagsOrExit(int argc, char** argv,
                                          absl::string_view usage);

// As ParseFlagsOrExit, for a binary that takes no positional argument: one
// prints "<program> takes no arguments, got '<arg>'" to stderr and exits
// kExitUsage.
void ParseFlagsWithoutArgsOrExit(int argc, char** argv,
                                 absl::string_view program,
                                 absl::string_view usage);

}  // namespace cardref::cli

#endif  // CARDREF_TOOLS_CLI_FLAGS_H_
