// The subcommands of cardref_analyze, as functions of their arguments and
// an output stream (tools/analyze_main.cc parses flags and calls these).
#ifndef CARDREF_ANALYZER_CLI_H_
#define CARDREF_ANALYZER_CLI_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "referee/games/api/registry.h"

namespace cardref::analyzer {

inline constexpr int kExitOk = 0;
inline constexpr int kExitNotOk = 1;  // some log is not OK
inline constexpr int kExitUsage = 2;

inline constexpr char kLogExtension[] = ".cardlog";

// Files stay as given (whatever their name); a directory stands for every
// *.cardlog file below it, recursively, in byte order of their paths.
// INVALID_ARGUMENT if `args` is empty or yields no file.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> ExpandLogPaths(
    const std::vector<std::string>& args);

// `audit`: one line per file on `out`. Exit code: kExitOk iff every file is
// OK, kExitNotOk otherwise, kExitUsage for bad arguments (message on `err`).
int RunAudit(const std::vector<std::string>& args, bool salvage,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err);

enum class StatsFormat { kText, kJson };

// `stats`: the report on `out`. Exit code: kExitOk if every log counted,
// kExitNotOk if some were skipped (they are listed), kExitUsage for bad
// arguments.
int RunStats(const std::vector<std::string>& args, StatsFormat format,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_CLI_H_
