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

// Names are chosen by strangers and shown to people: no character that
// reorders or hides text, and one script, so no name passes for another.
TEST(CheckPlayerNameTest, RefusesBidiInvisibleAndMixedScripts) {
  const struct {
    std::string name;
    std::string says;
  } refused[] = {
      {"bob\xe2\x80\xae" "fdp.exe",
       "'player_name' holds U+202E (Bidi_Control) at byte 3"},
      {"ali\xe2\x80\x8b" "ce",
       "'player_name' holds U+200B (Default_Ignorable_Code_Point) at byte 3"},
      {"\xe2\x81\xa7x", "U+2067 (Bidi_Control) at byte 0"},
      {"al\xc2\xad" "ice", "U+00AD (Default_Ignorable_Code_Point) at byte 2"},
      {"p\xd0\xb0ypal",
       "'player_name' mixes scripts: U+0430 (Cyrillic) at byte 1 after U+0070 "
       "(Latin) at byte 0"},
      {"a\xee\x80\x80", "U+E000 (Script=Unknown"},
  };
  for (const auto& r : refused) {
    const absl::Status st = CheckPlayerName("player_name", r.name);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << r.says;
    EXPECT_THAT(st.message(), HasSubstr(r.says));
    // The message never echoes the raw character.
    for (char c : st.message()) EXPECT_GE(static_cast<unsigned char>(c), 0x20);
    for (char c : st.message()) EXPECT_LT(static_cast<unsigned char>(c), 0x7f);
  }
  EXPECT_THAT(CheckPlayerName("player_name", "p\xd0\xb0ypal").message(),
              HasSubstr("a name must be in one script; digits, punctuation"));
  for (const std::string& good :
       {std::string("alice"), std::string("bot-2.1_final"),
        std::string("Zo\xc3\xab"),
        std::string("\xd0\x90\xd0\xbb\xd0\xb8\xd1\x81\xd0\xb0"),  // Cyrillic
        std::string("\xe5\xb1\xb1\xe7\x94\xb0 \xe3\x83\xa4\xe3\x83\x9e"),  // Han, Katakana
        std::string("e\xcc\x81")}) {
    const absl::Status st = CheckPlayerName("player_name", good);
    EXPECT_TRUE(st.ok()) << st;
  }
  // The other rules still hold first.
  EXPECT_THAT(CheckPlayerName("player_name", "a\nb").message(),
              HasSubstr("control character"));
  EXPECT_THAT(CheckPlayerName("player_name", std::string(65, 'a')).message(),
              HasSubstr("longer than 64 characters"));
}

TEST(CheckPlayerVersionTest, RefusesBidiControlsAndInvisibleCharactersOnly) {
  absl::Status st =
      CheckPlayerVersion("player_version", "1.0\xe2\x80\x8f-beta");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(),
              HasSubstr("'player_version' holds U+200F (Bidi_Control) at "
                        "byte 3"));
  st = CheckPlayerVersion("player_version", "v2\xef\xbb\xbf");
  EXPECT_THAT(st.message(), HasSubstr("U+FEFF (Default_Ignorable_Code_Point)"));
  // A version is not a name: scripts may mix ("v2 \u03b2").
  EXPECT_TRUE(CheckPlayerVersion("player_version", "v2 \xce\xb2").ok());
  EXPECT_FALSE(CheckPlayerVersion("player_version", std::string(65, 'v')).ok());
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
