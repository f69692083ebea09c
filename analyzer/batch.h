// Many logs at once: inputs (files, directories, globs) expanded and
// sorted, a deterministic shard of them, summarised on several threads with
// a progress line, and partial results written and merged.
#ifndef CARDREF_ANALYZER_BATCH_H_
#define CARDREF_ANALYZER_BATCH_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/audit.h"
#include "cardref/v1/analysis.pb.h"
#include "games/api/registry.h"

namespace cardref::analyzer {

// Every input as a file: a directory stands for the *.cardlog files below
// it, a pattern with * ? or [ that names no file for the files it matches
// (glob(3)), anything else for itself (a missing file is audited as
// UNREADABLE). Sorted in byte order, duplicates removed. INVALID_ARGUMENT if
// nothing is given, a directory has no log, or a pattern matches nothing.
[[nodiscard]] absl::StatusOr<std::vector<std::string>> ExpandInputs(
    const std::vector<std::string>& args);

// "I/N" with 1 <= I <= N: shard I of N.
struct Shard {
  int index = 1;
  int count = 1;
};
[[nodiscard]] absl::StatusOr<Shard> ParseShard(const std::string& text);
// The files of shard `shard`: every N-th of the sorted list, starting at
// the (I-1)-th.
std::vector<std::string> SelectShard(const std::vector<std::string>& files,
                                     const Shard& shard);

struct BatchOptions {
  AuditOptions audit;
  int jobs = 0;  // threads; 0: one per core
  // false: the audit only (SummarizeFile without statistics).
  bool statistics = true;
  // Where the progress line goes (nullptr: none). The caller decides
  // (a terminal, and not --quiet).
  std::ostream* progress = nullptr;
};

// Summarises every file (summary.h) on `jobs` threads; the result is
// sorted (SortSummaries). Memory: the summaries plus one record per thread.
std::vector<v1::GameSummary> SummarizeFiles(
    const std::vector<std::string>& files, const BatchOptions& options,
    const GameRegistry& registry);

// The most ReadPartial reads: protobuf's limit on one message (2 GiB - 1),
// which WritePartial cannot pass either. Past it the input is no partial
// (/dev/zero given by mistake used to be read until memory ran out).
inline constexpr uint64_t kMaxPartialBytes = (uint64_t{1} << 31) - 1;

// Writes / reads an AnalysisPartial (binary protobuf). Errors name the file;
// a file of more than `max_bytes` is not read past them.
[[nodiscard]] absl::Status WritePartial(const std::string& path,
                                        const v1::AnalysisPartial& partial);
[[nodiscard]] absl::StatusOr<v1::AnalysisPartial> ReadPartial(
    const std::string& path, uint64_t max_bytes = kMaxPartialBytes);

// The summaries of partials that together are every shard 1..N of one
// command exactly once, sorted; INVALID_ARGUMENT naming what is missing,
// repeated or mixed otherwise. `command` receives the partials' command.
[[nodiscard]] absl::StatusOr<std::vector<v1::GameSummary>> MergePartials(
    const std::vector<v1::AnalysisPartial>& partials, std::string* command);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_BATCH_H_
