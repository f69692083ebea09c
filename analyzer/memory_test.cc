// The audit streams: its peak memory does not grow with the log's size.
// Two logs of the same game, 4 MB and 48 MB (refused submissions inserted,
// testlogs::WriteInflatedLog), audited by the real binary: both OK, the
// larger within a few MB of the smaller, and under the stated bound.
// tests/benchmarks/analyze_benchmark.cc measures a 1 GB log the same way.
#include <cstdio>
#include <string>

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "analyzer/testing/rss_testing.h"
#include "analyzer/testing/test_logs.h"
#include "gtest/gtest.h"

namespace cardref::analyzer {
namespace {

constexpr int64_t kMiB = 1024;  // in KiB
// docs/analyzer.md states it: auditing one log needs under 64 MiB whatever
// its size, for logs whose records are small (a record may be up to
// record::kDefaultMaxRecordSize).
constexpr int64_t kBoundKib = 64 * kMiB;

TEST(AuditMemoryTest, PeakMemoryDoesNotScaleWithTheLogSize) {
#if defined(ABSL_HAVE_ADDRESS_SANITIZER)  // GCC and clang alike
  // AddressSanitizer keeps freed memory in quarantine (256 MB by default),
  // so the peak of an instrumented binary grows with what it reads.
  GTEST_SKIP() << "memory is measured in the uninstrumented build";
#endif
  testlogs::RandomMatchOptions options;
  options.params = testlogs::CraitsParams(3, true);
  absl::StatusOr<testlogs::PlayedLog> played = testlogs::PlayAndRead(options);
  ASSERT_TRUE(played.ok()) << played.status();
  const std::string dir = testlogs::MakeTempDir();
  int64_t rss[2] = {0, 0};
  const uint64_t sizes[2] = {4ull << 20, 48ull << 20};
  for (int i = 0; i < 2; ++i) {
    const std::string path = absl::StrCat(dir, "/big", i, ".cardlog");
    // Unsigned (format 1): the filler records would break a hash chain.
    absl::StatusOr<uint64_t> written = testlogs::WriteInflatedLog(
        path, testlogs::AsFormat1(played->payloads), sizes[i]);
    ASSERT_TRUE(written.ok()) << written.status();
    ASSERT_GE(*written, sizes[i]);
    const rss_testing::ChildRun run = rss_testing::RunAndMeasure(
        {CARDREF_ANALYZE_BIN, "audit", "--quiet", "--jobs=1", path});
    EXPECT_EQ(run.exit_code, 0) << path << " does not audit OK";
    rss[i] = run.max_rss_kib;
    std::remove(path.c_str());
  }
  RecordProperty("peak_rss_kib_4mb", static_cast<int>(rss[0]));
  RecordProperty("peak_rss_kib_48mb", static_cast<int>(rss[1]));
  EXPECT_GT(rss[0], 0);
  // 44 MB more log, at most 4 MiB more memory (allocator noise).
  EXPECT_LT(rss[1], rss[0] + 4 * kMiB) << rss[0] << " KiB vs " << rss[1];
  EXPECT_LT(rss[1], kBoundKib);
}

}  // namespace
}  // namespace cardref::analyzer
