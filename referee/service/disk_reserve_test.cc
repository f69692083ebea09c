#include "referee/service/disk_reserve.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

TEST(DiskReserveTest, NoReserveIsAlwaysMet) {
  EXPECT_TRUE(CheckDiskReserve("/nonexistent-cardref-dir", 0).ok());
}

TEST(DiskReserveTest, FreeSpaceIsMeasured) {
  absl::StatusOr<uint64_t> free = FreeDiskBytes(::testing::TempDir());
  ASSERT_TRUE(free.ok()) << free.status();
  EXPECT_GT(*free, 0u);
  EXPECT_TRUE(CheckDiskReserve(::testing::TempDir(), 1).ok() ||
              *free < (1u << 20));
}

TEST(DiskReserveTest, BelowTheReserveIsUnavailableAndSaysWhy) {
  // No disk has an exbibyte free.
  const absl::Status st =
      CheckDiskReserve(::testing::TempDir(), int64_t{1} << 40);
  EXPECT_EQ(st.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(st.message(), HasSubstr("--min_free_disk_mb"));
  EXPECT_THAT(st.message(), HasSubstr(::testing::TempDir()));
}

TEST(DiskReserveTest, AnUnreadableDirectoryIsUnavailable) {
  const absl::Status st = CheckDiskReserve("/nonexistent-cardref-dir", 1);
  EXPECT_EQ(st.code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(st.message(), HasSubstr("/nonexistent-cardref-dir"));
}

}  // namespace
}  // namespace cardref::service
