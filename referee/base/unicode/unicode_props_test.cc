// Unicode properties (unicode_props.h) against values from the Unicode
// Character Database, the table lookups at every range boundary, and the
// naming rule on names that spoof and names that do not.
#include "referee/base/unicode/unicode_props.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/unicode/unicode_tables.h"

namespace cardref::unicode {
namespace {

using Kind = NameFault::Kind;

TEST(UnicodePropsTest, KnownValues) {
  EXPECT_EQ(UnicodeVersion(), "14.0.0");
  for (int32_t cp : {0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069}) {
    EXPECT_TRUE(IsBidiControl(cp)) << CodePointLabel(cp);
  }
  for (int32_t cp : {0x0041, 0x05D0, 0x200B, 0x2065, 0x206A, 0x202F}) {
    EXPECT_FALSE(IsBidiControl(cp)) << CodePointLabel(cp);
  }
  for (int32_t cp : {0x00AD, 0x034F, 0x115F, 0x180E, 0x200B, 0x200C, 0x200D,
                     0x2060, 0x3164, 0xFE0F, 0xFEFF, 0x1D173, 0xE0001,
                     0xE0FFF}) {
    EXPECT_TRUE(IsDefaultIgnorable(cp)) << CodePointLabel(cp);
  }
  for (int32_t cp : {0x0020, 0x00A0, 0x0301, 0x2010, 0xFFFD, 0xE1000, -1}) {
    EXPECT_FALSE(IsDefaultIgnorable(cp)) << CodePointLabel(cp);
  }
  const struct {
    int32_t cp;
    const char* script;
  } scripts[] = {
      {'a', "Latin"},        {'Z', "Latin"},      {0x00E9, "Latin"},
      {0xFF41, "Latin"},     {'1', "Common"},     {' ', "Common"},
      {'-', "Common"},       {'_', "Common"},     {0x1F600, "Common"},
      {0x0301, "Inherited"}, {0x0430, "Cyrillic"}, {0x03A9, "Greek"},
      {0x05D0, "Hebrew"},    {0x0627, "Arabic"},  {0x4E00, "Han"},
      {0x3042, "Hiragana"},  {0x30A2, "Katakana"}, {0xAC00, "Hangul"},
      {0x3105, "Bopomofo"},  {0x0378, "Unknown"}, {0xE000, "Unknown"},
      {0xFFFF, "Unknown"},   {0x10FFFF, "Unknown"}, {0x0000, "Common"},
      {-1, "Unknown"},       {0x110000, "Unknown"},
  };
  for (const auto& s : scripts) {
    EXPECT_EQ(ScriptName(ScriptOf(s.cp)), s.script) << CodePointLabel(s.cp);
  }
}

TEST(UnicodePropsTest, LookupsAtEveryRangeBoundary) {
  namespace t = internal;
  ASSERT_GT(t::kScriptRangeCount, 1000u);
  EXPECT_EQ(t::kScriptRanges[0].first, 0u);
  for (size_t i = 0; i < t::kScriptRangeCount; ++i) {
    const t::ScriptRange& r = t::kScriptRanges[i];
    const auto first = static_cast<int32_t>(r.first);
    const int32_t last =
        i + 1 < t::kScriptRangeCount
            ? static_cast<int32_t>(t::kScriptRanges[i + 1].first) - 1
            : 0x10FFFF;
    ASSERT_LE(first, last);
    EXPECT_EQ(ScriptOf(first), r.script) << CodePointLabel(first);
    EXPECT_EQ(ScriptOf(last), r.script) << CodePointLabel(last);
    if (i > 0) {
      EXPECT_NE(t::kScriptRanges[i - 1].script, r.script);
    }
  }
  for (size_t i = 0; i < t::kDefaultIgnorableCount; ++i) {
    const t::CodePointRange& r = t::kDefaultIgnorable[i];
    EXPECT_TRUE(IsDefaultIgnorable(static_cast<int32_t>(r.first)));
    EXPECT_TRUE(IsDefaultIgnorable(static_cast<int32_t>(r.last)));
    EXPECT_FALSE(IsDefaultIgnorable(static_cast<int32_t>(r.first) - 1));
    EXPECT_FALSE(IsDefaultIgnorable(static_cast<int32_t>(r.last) + 1));
  }
}

TEST(UnicodePropsTest, DecodesUtf8AndRefusesMalformedBytes) {
  const std::string s = "a\xc3\xa9\xe2\x80\xae\xf0\x9f\x98\x80";
  size_t i = 0;
  EXPECT_EQ(NextCodePoint(s, &i), 'a');
  EXPECT_EQ(NextCodePoint(s, &i), 0xE9);
  EXPECT_EQ(NextCodePoint(s, &i), 0x202E);
  EXPECT_EQ(NextCodePoint(s, &i), 0x1F600);
  EXPECT_EQ(i, s.size());
  for (const std::string bad : {"\xff", "\xc3", "\xc0\xaf", "\xed\xa0\x80",
                                "\xf4\x90\x80\x80"}) {
    size_t at = 0;
    EXPECT_EQ(NextCodePoint(bad, &at), -1);
    EXPECT_EQ(at, 0u);
  }
}

TEST(NameFaultTest, NamesOfOneScriptPass) {
  for (const char* name :
       {"alice", "bot-2.1_final", "Zo\xc3\xab", "Jos\xc3\xa9 Mar\xc3\xad\x61",
        "e\xcc\x81t\xc3\xa9",                          // combining acute
        "\xce\x95\xce\xbb\xce\xad\xce\xbd\xce\xb7",      // Ελένη
        "\xd0\x90\xd0\xbb\xd0\xb8\xd1\x81\xd0\xb0 99",   // Алиса 99
        "\xe5\xb1\xb1\xe7\x94\xb0\xe5\xa4\xaa\xe9\x83\x8e",  // 山田太郎
        "\xe3\x83\xa4\xe3\x83\x9e\xe3\x83\x80\xe5\xa4\xaa",  // ヤマダ太
        "\xe3\x82\x84\xe3\x81\xbe\xe3\x83\x80",              // やまダ
        "\xea\xb9\x80\xeb\xaf\xbc\xec\x88\x98 \xe9\x87\x91",  // 김민수 金
        "\xf0\x9f\x83\x8f bot", "", "42"}) {
    const std::optional<NameFault> f = FindNameFault(name);
    EXPECT_FALSE(f.has_value()) << name << ": " << f->Describe();
  }
}

TEST(NameFaultTest, BidiControlsAndInvisibleCharactersAreFound) {
  std::optional<NameFault> f = FindNameFault("bob\xe2\x80\xae" "fdp.exe");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, Kind::kBidiControl);
  EXPECT_EQ(f->byte, 3u);
  EXPECT_EQ(f->code_point, 0x202E);
  EXPECT_EQ(f->Describe(), "U+202E (Bidi_Control) at byte 3");

  f = FindNameFault("ali\xe2\x80\x8b" "ce");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, Kind::kDefaultIgnorable);
  EXPECT_EQ(f->Describe(), "U+200B (Default_Ignorable_Code_Point) at byte 3");
  // Soft hyphen, word joiner, a variation selector, an isolate.
  for (const char* name : {"al\xc2\xad" "ice", "a\xe2\x81\xa0" "b",
                           "x\xef\xb8\x8f", "\xe2\x81\xa6x"}) {
    EXPECT_TRUE(FindInvisibleOrBidi(name).has_value()) << name;
    EXPECT_TRUE(FindNameFault(name).has_value()) << name;
  }
  EXPECT_FALSE(FindInvisibleOrBidi("v1.2-\xce\xb2").has_value());
}

TEST(NameFaultTest, MixedScriptsAreFoundWithBothCharacters) {
  // "paypal" with a Cyrillic a (U+0430).
  std::optional<NameFault> f = FindNameFault("p\xd0\xb0ypal");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, Kind::kMixedScripts);
  EXPECT_EQ(f->byte, 1u);
  EXPECT_EQ(f->code_point, 0x0430);
  EXPECT_EQ(f->other_byte, 0u);
  EXPECT_EQ(f->other_code_point, 'p');
  EXPECT_EQ(f->Describe(),
            "U+0430 (Cyrillic) at byte 1 after U+0070 (Latin) at byte 0");
  // Latin after Greek, with Common characters between; Korean after
  // Japanese; Latin after Han.
  f = FindNameFault("\xce\xa9-7 mega");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->Describe(),
            "U+006D (Latin) at byte 5 after U+03A9 (Greek) at byte 0");
  f = FindNameFault("\xe3\x83\xa4\xe5\xa4\xaa\xea\xb9\x80");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->code_point, 0xAE40);
  EXPECT_TRUE(FindNameFault("Ann \xe5\xb1\xb1").has_value());
  // Private use: Script=Unknown.
  f = FindNameFault("a\xee\x80\x80");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, Kind::kUnknownScript);
  EXPECT_THAT(f->Describe(), ::testing::StartsWith("U+E000 (Script=Unknown"));
}

}  // namespace
}  // namespace cardref::unicode
