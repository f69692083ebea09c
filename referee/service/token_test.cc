// Seat tokens: 128 bits from the OS generator as 32 lowercase hex digits,
// never repeated, and compared without an early exit.
#include "referee/service/token.h"

#include <set>
#include <string>

#include "absl/strings/ascii.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

TEST(TokenTest, ThirtyTwoLowercaseHexDigitsNeverRepeated) {
  std::set<std::string> seen;
  for (int i = 0; i < 10000; ++i) {
    absl::StatusOr<std::string> token = NewSecretToken();
    ASSERT_TRUE(token.ok()) << token.status();
    ASSERT_EQ(token->size(), 32u);
    for (char c : *token) {
      EXPECT_TRUE(absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f')) << *token;
    }
    EXPECT_TRUE(seen.insert(*token).second) << "repeated: " << *token;
  }
  // Every hex digit appears in every position over 10,000 tokens (a
  // generator stuck on some bits would fail this).
  for (size_t pos = 0; pos < 32; ++pos) {
    std::set<char> digits;
    for (const std::string& t : seen) digits.insert(t[pos]);
    EXPECT_EQ(digits.size(), 16u) << "position " << pos;
  }
}

TEST(TokenTest, EqualOnlyWhenEqual) {
  EXPECT_TRUE(TokensEqual("abc", "abc"));
  EXPECT_FALSE(TokensEqual("abc", "abd"));
  EXPECT_FALSE(TokensEqual("abc", "ab"));
  EXPECT_FALSE(TokensEqual("", "a"));
  EXPECT_TRUE(TokensEqual("", ""));
}

}  // namespace
}  // namespace cardref::service
