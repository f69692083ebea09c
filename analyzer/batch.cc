#include "analyzer/batch.h"

#include <glob.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "analyzer/cli.h"
#include "analyzer/report.h"
#include "analyzer/summary.h"
#include "referee/record/record_io.h"

namespace cardref::analyzer {
namespace {

bool IsPattern(const std::string& arg) {
  return arg.find_first_of("*?[") != std::string::npos;
}

std::string Duration(double seconds) {
  const int64_t s = std::llround(seconds);
  if (s >= 3600) return absl::StrFormat("%dh%02dm", s / 3600, s / 60 % 60);
  if (s >= 60) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  return absl::StrCat(s, "s");
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandInputs(
    const std::vector<std::string>& args) {
  if (args.empty()) {
    return absl::InvalidArgumentError("no log files or directories given");
  }
  std::vector<std::string> plain;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (!IsPattern(arg) || std::filesystem::exists(arg, ec)) {
      plain.push_back(arg);
      continue;
    }
    glob_t matches;
    const int rc = glob(arg.c_str(), 0, nullptr, &matches);
    if (rc != 0) {
      globfree(&matches);
      return absl::InvalidArgumentError(
          absl::StrCat("no file matches the pattern ", arg));
    }
    for (size_t i = 0; i < matches.gl_pathc; ++i) {
      plain.emplace_back(matches.gl_pathv[i]);
    }
    globfree(&matches);
  }
  absl::StatusOr<std::vector<std::string>> files = ExpandLogPaths(plain);
  if (!files.ok()) return files.status();
  std::sort(files->begin(), files->end());
  files->erase(std::unique(files->begin(), files->end()), files->end());
  return files;
}

absl::StatusOr<Shard> ParseShard(const std::string& text) {
  const std::vector<std::string> parts = absl::StrSplit(text, '/');
  Shard shard;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &shard.index) ||
      !absl::SimpleAtoi(parts[1], &shard.count) || shard.count < 1 ||
      shard.index < 1 || shard.index > shard.count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--shard must be I/N with 1 <= I <= N (e.g. 2/3), got '", text, "'"));
  }
  return shard;
}

std::vector<std::string> SelectShard(const std::vector<std::string>& files,
                                     const Shard& shard) {
  std::vector<std::string> out;
  for (size_t i = static_cast<size_t>(shard.index - 1); i < files.size();
       i += static_cast<size_t>(shard.count)) {
    out.push_back(files[i]);
  }
  return out;
}

std::vector<v1::GameSummary> SummarizeFiles(
    const std::vector<std::string>& files, const BatchOptions& options,
    const GameRegistry& registry) {
  std::vector<v1::GameSummary> summaries(files.size());
  int jobs =
      options.jobs > 0
          ? options.jobs
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::max(1, std::min<int>(jobs, static_cast<int>(files.size())));
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::atomic<int64_t> games{0};
  std::mutex progress_mutex;
  const auto start = std::chrono::steady_clock::now();
  auto last_print = start;
  auto print_progress = [&](bool final_line) {
    const auto now = std::chrono::steady_clock::now();
    if (!final_line && now - last_print < std::chrono::milliseconds(200)) {
      return;
    }
    last_print = now;
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const size_t n = done.load();
    const double rate = elapsed > 0 ? n / elapsed : 0;
    const std::string eta =
        rate > 0 ? Duration((files.size() - n) / rate) : std::string("?");
    *options.progress << absl::StrFormat(
        "\r%d/%d files, %d games, %.1f files/s, ETA %s\x1b[K", n, files.size(),
        games.load(), rate, eta);
    if (final_line) *options.progress << "\n";
    options.progress->flush();
  };
  auto worker = [&]() {
    for (size_t i = next++; i < files.size(); i = next++) {
      summaries[i] =
          SummarizeFile(files[i], options.audit, registry, options.statistics);
      if (!summaries[i].game().empty()) ++games;
      ++done;
      if (options.progress != nullptr) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        print_progress(false);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  if (options.progress != nullptr && !files.empty()) print_progress(true);
  SortSummaries(&summaries);
  return summaries;
}

absl::Status WritePartial(const std::string& path,
                          const v1::AnalysisPartial& partial) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !partial.SerializeToOstream(&out)) {
    return absl::InternalError(
        absl::StrCat("cannot write the partial result ", path));
  }
  out.close();
  if (!out) {
    return absl::InternalError(
        absl::StrCat("cannot write the partial result ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::AnalysisPartial> ReadPartial(const std::string& path,
                                                uint64_t max_bytes) {
  absl::StatusOr<std::string> bytes = record::ReadWholeFile(path, max_bytes);
  if (bytes.status().code() == absl::StatusCode::kOutOfRange) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, " is more than ", max_bytes,
        " bytes, more than any partial result can be: not read"));
  }
  if (!bytes.ok()) {
    return absl::Status(bytes.status().code(),
                        absl::StrCat("cannot read the partial result: ",
                                     bytes.status().message()));
  }
  v1::AnalysisPartial partial;
  if (!partial.ParseFromString(*bytes) || partial.shard_count() < 1 ||
      partial.command().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path,
                     " is not a partial result (an AnalysisPartial written by "
                     "--partial)"));
  }
  return partial;
}

absl::StatusOr<std::vector<v1::GameSummary>> MergePartials(
    const std::vector<v1::AnalysisPartial>& partials, std::string* command) {
  if (partials.empty()) {
    return absl::InvalidArgumentError("no partial results given");
  }
  const std::string& first = partials[0].command();
  const int count = partials[0].shard_count();
  std::set<int> seen;
  std::vector<v1::GameSummary> summaries;
  for (const v1::AnalysisPartial& p : partials) {
    if (p.command() != first) {
      return absl::InvalidArgumentError(absl::StrCat(
          "partials of different commands: ", first, " and ", p.command()));
    }
    if (p.shard_count() != count) {
      return absl::InvalidArgumentError(
          absl::StrCat("partials of different splits: shards of ", count,
                       " and of ", p.shard_count()));
    }
    if (!seen.insert(p.shard_index()).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shard ", p.shard_index(), "/", count, " is given twice"));
    }
    for (const v1::GameSummary& s : p.games()) summaries.push_back(s);
  }
  for (int i = 1; i <= count; ++i) {
    if (seen.count(i) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shard ", i, "/", count, " is missing"));
    }
  }
  *command = first;
  SortSummaries(&summaries);
  return summaries;
}

}  // namespace cardref::analyzer
