// Auditing large logs with cardref_analyze: time and peak memory of the
// real binary on a log of 64 MiB and of 1 GiB (a real Craits game with
// refused submissions inserted, testlogs::WriteInflatedLog), written to
// $TMPDIR (default /tmp) and removed afterwards. BENCHMARKS.md has results.
//
//   build/tests/analyze_benchmark [--benchmark_filter=1024]
//
// Counters: peak_rss_MiB (wait4's ru_maxrss of the child) and bytes/s.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "analyzer/testing/rss_testing.h"
#include "analyzer/testing/test_logs.h"
#include "benchmark/benchmark.h"

namespace cardref::analyzer {
namespace {

void BM_AuditLargeLog(benchmark::State& state) {
  const uint64_t bytes = static_cast<uint64_t>(state.range(0)) << 20;
  testlogs::RandomMatchOptions options;
  options.params = testlogs::CraitsParams(4, true);
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  if (!played.ok()) {
    state.SkipWithError(std::string(played.status().message()).c_str());
    return;
  }
  const char* tmp = std::getenv("TMPDIR");
  const std::string path =
      absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/cardref_analyze_bench_",
                   state.range(0), ".cardlog");
  absl::StatusOr<uint64_t> written =
      testlogs::WriteInflatedLog(path, played->payloads, bytes);
  if (!written.ok()) {
    state.SkipWithError(std::string(written.status().message()).c_str());
    return;
  }
  rss_testing::ChildRun run;
  for (auto _ : state) {
    run = rss_testing::RunAndMeasure(
        {CARDREF_ANALYZE_BIN, "audit", "--quiet", "--jobs=1", path});
    state.SetIterationTime(run.seconds);
  }
  std::remove(path.c_str());
  if (run.exit_code != 0) state.SkipWithError("the log does not audit OK");
  state.counters["peak_rss_MiB"] = static_cast<double>(run.max_rss_kib) / 1024;
  state.counters["log_MiB"] = static_cast<double>(*written) / (1 << 20);
  state.SetBytesProcessed(static_cast<int64_t>(*written) * state.iterations());
}
BENCHMARK(BM_AuditLargeLog)
    ->Arg(64)
    ->Arg(1024)
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cardref::analyzer

BENCHMARK_MAIN();
