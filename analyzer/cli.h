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

// --referee_key: the key itself (64 hex digits) or a file holding it (hex
// or a PEM public key). INVALID_ARGUMENT naming the flag otherwise.
[[nodiscard]] absl::StatusOr<std::string> ReadRefereeKey(
    const std::string& hex_or_file);

// `audit`: one line per file on `out`. Exit code: kExitOk iff every file is
// OK, kExitNotOk otherwise, kExitUsage for bad arguments (message on `err`).
// A non-empty `referee_key` (ReadRefereeKey's input) is the key every log
// must be signed with.
int RunAudit(const std::vector<std::string>& args, bool salvage,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err, const std::string& referee_key = "");

enum class StatsFormat { kText, kJson };

// `stats`: the report on `out`. Exit code: kExitOk if every log counted,
// kExitNotOk if some were skipped (they are listed), kExitUsage for bad
// arguments.
int RunStats(const std::vector<std::string>& args, StatsFormat format,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_CLI_H_
