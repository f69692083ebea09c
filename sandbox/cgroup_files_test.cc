// The parsers of the kernel's small files, on the formats its
// documentation gives (Documentation/admin-guide/cgroup-v2.rst,
// cgroup-v1/memory.rst, pids.rst).
#include "sandbox/cgroup_files.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::sandbox {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ParseKeyedCounters, ReadsV1OomControl) {
  const auto c = ParseKeyedCounters("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
  EXPECT_EQ(c.at("oom_kill"), 3);
  EXPECT_EQ(c.at("under_oom"), 0);
}

TEST(ParseKeyedCounters, ReadsV2EventsAndSkipsNonNumbers) {
  const auto c = ParseKeyedCounters(
      "low 0\nhigh 0\nmax 17\noom 2\noom_kill 1\noom_group_kill 0\nbad x\n");
  EXPECT_EQ(c.at("max"), 17);
  EXPECT_EQ(c.at("oom_kill"), 1);
  EXPECT_EQ(c.count("bad"), 0u);
}

TEST(ParseSingleCounter, NumberOrNothing) {
  EXPECT_EQ(ParseSingleCounter("123456789\n"), 123456789);
  EXPECT_EQ(ParseSingleCounter("max\n"), std::nullopt);
  EXPECT_EQ(ParseSingleCounter(""), std::nullopt);
}

TEST(ParseCpuList, RangesAndSingles) {
  EXPECT_THAT(*ParseCpuList("0-3,5,7-8\n"), ElementsAre(0, 1, 2, 3, 5, 7, 8));
  EXPECT_THAT(*ParseCpuList("5,1,1"), ElementsAre(1, 5));
  EXPECT_THAT(*ParseCpuList(""), IsEmpty());
}

TEST(ParseCpuList, RefusesWhatIsNotAList) {
  for (const char* bad : {"3-1", "a", "1-", "-1", "0-5000", "1,,2"}) {
    EXPECT_EQ(ParseCpuList(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

TEST(FormatCpuList, RangesRoundTrip) {
  EXPECT_EQ(FormatCpuList({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(FormatCpuList({3}), "3");
  EXPECT_EQ(FormatCpuList({}), "");
  EXPECT_EQ(FormatCpuList(*ParseCpuList("0-3,6,9-10")), "0-3,6,9-10");
}

TEST(ParsePidList, OnePerLine) {
  EXPECT_THAT(ParsePidList("12\n345\n\n"), ElementsAre(12, 345));
  EXPECT_THAT(ParsePidList(""), IsEmpty());
}

TEST(ReadSmallFile, NamesAMissingFile) {
  const absl::StatusOr<std::string> text = ReadSmallFile("/nonexistent/x");
  EXPECT_EQ(text.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(text.status().message()),
              ::testing::HasSubstr("/nonexistent/x"));
}

}  // namespace
}  // namespace cardref::sandbox
