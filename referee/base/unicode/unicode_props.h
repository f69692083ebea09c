// Unicode properties that decide whether text can fool a reader, and the
// naming rule built on them (docs/bots.md, "Names"): no bidirectional
// control (it reorders what follows on screen), no default-ignorable code
// point (it is invisible: U+200B ZERO WIDTH SPACE, U+00AD SOFT HYPHEN...),
// and one script per name, so "pаypal" with a Cyrillic "а" is not taken for
// "paypal". The data is the Unicode Character Database of Debian's Perl,
// generated into unicode_tables.cc (UnicodeVersion() says which version).
// Pure functions over constant tables: thread-safe.
#ifndef CARDREF_REFEREE_BASE_UNICODE_UNICODE_PROPS_H_
#define CARDREF_REFEREE_BASE_UNICODE_UNICODE_PROPS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace cardref::unicode {

// "14.0.0": the Unicode version of the tables.
absl::string_view UnicodeVersion();

// Decodes the UTF-8 code point at s[*i] and advances *i past it; -1 (and
// *i unchanged) if the bytes there are not valid UTF-8: truncated,
// overlong, a surrogate or past U+10FFFF. Precondition: *i < s.size().
int32_t NextCodePoint(absl::string_view s, size_t* i);

bool IsBidiControl(int32_t cp);       // Bidi_Control=Yes
bool IsDefaultIgnorable(int32_t cp);  // Default_Ignorable_Code_Point=Yes

// The Script property of `cp`, as an index for ScriptName(). Unassigned,
// private-use and noncharacter code points are Unknown.
inline constexpr int kScriptUnknown = 0;
inline constexpr int kScriptCommon = 1;     // digits, punctuation, spaces
inline constexpr int kScriptInherited = 2;  // combining marks
int ScriptOf(int32_t cp);
// The long property value name: "Latin", "Cyrillic", "Common".
absl::string_view ScriptName(int script);

// "U+202E".
std::string CodePointLabel(int32_t cp);

// Why a name may not be used: the first offending character and where.
struct NameFault {
  enum class Kind {
    kBidiControl,       // Bidi_Control
    kDefaultIgnorable,  // Default_Ignorable_Code_Point
    kUnknownScript,     // unassigned, private use or noncharacter
    kMixedScripts,      // a second script
  };
  Kind kind;
  size_t byte = 0;       // where the character starts in the text
  int32_t code_point = 0;
  // kMixedScripts: the first character of a script the one at `byte` does
  // not go with.
  size_t other_byte = 0;
  int32_t other_code_point = 0;
  // "U+202E (Bidi_Control) at byte 3",
  // "U+0430 (Cyrillic) at byte 1 after U+0070 (Latin) at byte 0".
  std::string Describe() const;
};

// The first character of `text` that is a bidirectional control or
// default-ignorable; nullopt if none. Bytes that are not valid UTF-8 are
// skipped (check the encoding first).
std::optional<NameFault> FindInvisibleOrBidi(absl::string_view text);

// The one-script rule alone: every character whose script is neither
// Common nor Inherited must be of one script, where, as in UTS #39's
// single-script test, Han goes with Hiragana and Katakana (Japanese), with
// Hangul (Korean) and with Bopomofo; a character of the Unknown script is a
// fault of its own (kUnknownScript). Invalid bytes are skipped.
std::optional<NameFault> FindScriptFault(absl::string_view name);

// FindInvisibleOrBidi, then FindScriptFault.
std::optional<NameFault> FindNameFault(absl::string_view name);

}  // namespace cardref::unicode

#endif  // CARDREF_REFEREE_BASE_UNICODE_UNICODE_PROPS_H_
