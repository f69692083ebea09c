// The subcommands of cardref_analyze, as functions of their arguments and
// output streams (tools/analyze_main.cc parses flags and calls these).
// docs/analyzer.md describes the commands, formats and exit codes.
#ifndef CARDREF_ANALYZER_CLI_H_
#define CARDREF_ANALYZER_CLI_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/compare.h"
#include "analyzer/ratings.h"
#include "analyzer/render.h"
#include "games/api/registry.h"

namespace cardref::analyzer {

inline constexpr int kExitOk = 0;
// audit: some file has an error (MISMATCH, CORRUPT, UNREADABLE); stats,
// ratings, compare: some log was skipped (it does not audit OK).
inline constexpr int kExitNotOk = 1;
inline constexpr int kExitUsage = 2;
// audit: no error, but some game was interrupted or aborted.
inline constexpr int kExitUnfinished = 3;

inline constexpr char kLogExtension[] = ".cardlog";

// Files stay as given (whatever their name); a directory stands for every
// *.cardlog file below it, recursively, in byte order of their paths.
// INVALID_ARGUMENT if `args` is empty or yields no file.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> ExpandLogPaths(
    const std::vector<std::string>& args);

struct CliOptions {
  Format format = Format::kText;
  bool salvage = false;
  int jobs = 0;  // 0: one thread per core
  // Progress line on `err` (the caller sets it when err is a terminal and
  // --quiet is not given).
  bool progress = false;
  std::string shard;    // "I/N"; empty: all inputs
  std::string partial;  // write the partial result here instead of a report
  std::string html;     // also write the HTML report here
  // --referee_key as given (ReadRefereeKey's input): every log must be
  // signed with that key. Empty: signatures are checked against the key in
  // each log's header.
  std::string referee_key;
  RatingOptions ratings;
  CompareOptions compare;
};

// One command: "audit", "stats", "ratings", "compare" (args: A B, then
// inputs) or "merge" (args: partials). Returns the exit code.
int RunCommand(const std::string& command, const std::vector<std::string>& args,
               const CliOptions& options, const GameRegistry& registry,
               std::ostream& out, std::ostream& err);

// --referee_key: the key itself (64 hex digits) or a file holding it (hex
// or a PEM public key, as cardref_referee writes beside its key file), or
// the referee's private key file itself (owner-only, as the referee reads
// it), whose public half is taken. INVALID_ARGUMENT naming the flag
// otherwise.
[[nodiscard]] absl::StatusOr<std::string> ReadRefereeKey(
    const std::string& hex_or_file);

// `audit` with default options, text output; `referee_key` as
// CliOptions::referee_key.
int RunAudit(const std::vector<std::string>& args, bool salvage,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err, const std::string& referee_key = "");

enum class StatsFormat { kText, kJson };

// `stats` with default options.
int RunStats(const std::vector<std::string>& args, StatsFormat format,
             const GameRegistry& registry, std::ostream& out,
             std::ostream& err);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_CLI_H_
