// The range tables behind unicode_props.h, generated from the Unicode
// Character Database into unicode_tables.cc by gen_unicode_tables.pl. Not
// for use outside referee/base/unicode.
#ifndef CARDREF_REFEREE_BASE_UNICODE_UNICODE_TABLES_H_
#define CARDREF_REFEREE_BASE_UNICODE_UNICODE_TABLES_H_

#include <cstddef>
#include <cstdint>

namespace cardref::unicode::internal {

// The version of the Unicode Character Database the tables come from.
extern const char kUnicodeVersion[];

// Script property values (long names); the first three are fixed.
inline constexpr int kScriptUnknown = 0;
inline constexpr int kScriptCommon = 1;
inline constexpr int kScriptInherited = 2;
extern const char* const kScriptNames[];
extern const int kScriptNameCount;
// The scripts UTS #39 groups for Chinese, Japanese and Korean text.
extern const int kScriptHan;
extern const int kScriptHiragana;
extern const int kScriptKatakana;
extern const int kScriptHangul;
extern const int kScriptBopomofo;

// Code points from `first` up to the next range's `first` (the last range:
// up to U+10FFFF) have script kScriptNames[script]. Sorted by `first`; the
// first range starts at U+0000.
struct ScriptRange {
  uint32_t first;
  uint8_t script;
};
extern const ScriptRange kScriptRanges[];
extern const size_t kScriptRangeCount;

// Inclusive ranges of a binary property, sorted, disjoint.
struct CodePointRange {
  uint32_t first;
  uint32_t last;
};
extern const CodePointRange kBidiControl[];
extern const size_t kBidiControlCount;
extern const CodePointRange kDefaultIgnorable[];
extern const size_t kDefaultIgnorableCount;

}  // namespace cardref::unicode::internal

#endif  // CARDREF_REFEREE_BASE_UNICODE_UNICODE_TABLES_H_
