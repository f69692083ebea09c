#include "referee/base/hex.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

TEST(HexTest, RoundTripsEveryByte) {
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  const std::string hex = ToHex(all);
  EXPECT_EQ(hex.substr(0, 8), "00010203");
  EXPECT_EQ(hex.substr(hex.size() - 4), "feff");
  absl::StatusOr<std::string> back = FromHex(hex, 256, "x");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, all);
  EXPECT_EQ(*FromHex("ABcd", 0, "x"), "\xab\xcd");
}

TEST(HexTest, RefusesWrongLengthAndNonHexNamingTheValue) {
  absl::StatusOr<std::string> short_key = FromHex("abcd", 32, "--referee_key");
  EXPECT_EQ(short_key.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(short_key.status().message(),
              HasSubstr("--referee_key must be 64 hex digits (32 bytes), got 4"));
  absl::StatusOr<std::string> bad = FromHex("a0zz", 0, "seed");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("seed is not hex: character 3 is 'z'"));
  EXPECT_FALSE(FromHex("abc", 0, "odd").ok());
}

}  // namespace
}  // namespace cardref
