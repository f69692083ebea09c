#include "referee/service/text_limits.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

TEST(CheckTextTest, AcceptsPrintableUtf8UpToTheLimit) {
  EXPECT_TRUE(CheckText("player_name", "alice", 64).ok());
  EXPECT_TRUE(CheckText("player_name", "", 64).ok());
  EXPECT_TRUE(CheckText("player_name", "Zoë \xe2\x99\xa0 bot-2.1", 64).ok());
  // The limit counts characters, not bytes: 64 two-byte characters fit.
  std::string umlauts;
  for (int i = 0; i < 64; ++i) umlauts += "\xc3\xbc";
  EXPECT_TRUE(CheckText("player_name", umlauts, 64).ok());
  EXPECT_FALSE(CheckText("player_name", umlauts + "u", 64).ok());
  // Printable ASCII (the fast path): the same limit, at the same place.
  const std::string ascii(64, 'a');
  EXPECT_TRUE(CheckText("match_id", ascii, 64).ok());
  absl::Status st = CheckText("match_id", ascii + "a", 64);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("longer than 64 characters"));
  EXPECT_TRUE(CheckText("match_id", " ~", 64).ok());  // 0x20 and 0x7e
}

TEST(CheckTextTest, RefusesControlCharactersAndEscapes) {
  for (const std::string& bad :
       {std::string("bot\n| forged | row"), std::string("bot\x1b[31mred"),
        std::string("a\rb"), std::string("nul\0byte", 8), std::string("del\x7f"),
        std::string("c1\xc2\x85next-line"), std::string("ls\xe2\x80\xa8sep")}) {
    absl::Status st = CheckText("player_name", bad, 64);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(st.message(), HasSubstr("control character"));
    EXPECT_THAT(st.message(), HasSubstr("'player_name'"));
    // The message never echoes the raw control byte.
    for (char c : st.message()) EXPECT_GE(static_cast<unsigned char>(c), 0x20);
  }
}

TEST(CheckTextTest, RefusesMalformedUtf8) {
  for (const std::string& bad :
       {std::string("\xff"), std::string("\xc3"), std::string("\xc0\xaf"),
        std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
    absl::Status st = CheckText("player_version", bad, 64);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(st.message(), HasSubstr("not valid UTF-8"));
  }
}

TEST(CheckTextTest, QuotesOnlyAShortEscapedPrefix) {
  const std::string huge(1 << 20, 'x');
  absl::Status st = CheckText("player_name", huge, 64);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("longer than 64 characters"));
  EXPECT_LT(st.message().size(), 200u);
  EXPECT_EQ(QuotePrefix("a\nb"), "a\\x0ab");
  EXPECT_EQ(QuotePrefix(std::string(30, 'y')),
            std::string(kQuotedPrefixChars, 'y') + "...");
}

TEST(LoggableTextTest, KeepsGoodTextAndEscapesHostileText) {
  EXPECT_EQ(LoggableText("play 8S:H", kMaxNotationChars), "play 8S:H");
  EXPECT_EQ(LoggableText("bot\x1b[31m", kMaxNotationChars), "bot\\x1b[31m");
  EXPECT_EQ(LoggableText(std::string("a\0b", 3), kMaxNotationChars),
            "a\\x00b");
  EXPECT_EQ(LoggableText(std::string(300, 'n'), kMaxNotationChars),
            std::string(kQuotedPrefixChars, 'n') + "...");
}

}  // namespace
}  // namespace cardref::service
