#include "referee/base/unicode/unicode_props.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "referee/base/unicode/unicode_tables.h"

namespace cardref::unicode {

namespace {

namespace t = internal;

static_assert(kScriptUnknown == t::kScriptUnknown &&
              kScriptCommon == t::kScriptCommon &&
              kScriptInherited == t::kScriptInherited);

bool InRanges(const t::CodePointRange* ranges, size_t count, int32_t cp) {
  if (cp < 0) return false;
  const auto c = static_cast<uint32_t>(cp);
  const t::CodePointRange* end = ranges + count;
  // The first range that ends at or after c.
  const t::CodePointRange* r = std::lower_bound(
      ranges, end, c,
      [](const t::CodePointRange& range, uint32_t v) { return range.last < v; });
  return r != end && r->first <= c;
}

// UTS #39's augmented script sets: the scripts (and the writing systems
// "Japanese", "Korean", "Han with Bopomofo") a character can belong to.
// Writing systems are numbered after the scripts.
constexpr int kJapanese = 1000, kKorean = 1001, kHanWithBopomofo = 1002;

std::vector<int> AugmentedScripts(int script) {
  if (script == t::kScriptHan) {
    return {script, kJapanese, kKorean, kHanWithBopomofo};
  }
  if (script == t::kScriptHiragana || script == t::kScriptKatakana) {
    return {script, kJapanese};
  }
  if (script == t::kScriptHangul) return {script, kKorean};
  if (script == t::kScriptBopomofo) return {script, kHanWithBopomofo};
  return {script};
}

std::string ScriptLabel(int32_t cp) {
  return absl::StrCat(CodePointLabel(cp), " (", ScriptName(ScriptOf(cp)), ")");
}

}  // namespace

absl::string_view UnicodeVersion() { return t::kUnicodeVersion; }

int32_t NextCodePoint(absl::string_view s, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t b0 = byte(*i);
  int length;
  int32_t cp;
  if (b0 < 0x80) {
    ++*i;
    return b0;
  } else if ((b0 & 0xe0) == 0xc0) {
    length = 2;
    cp = b0 & 0x1f;
  } else if ((b0 & 0xf0) == 0xe0) {
    length = 3;
    cp = b0 & 0x0f;
  } else if ((b0 & 0xf8) == 0xf0) {
    length = 4;
    cp = b0 & 0x07;
  } else {
    return -1;
  }
  if (*i + length > s.size()) return -1;
  for (int k = 1; k < length; ++k) {
    const uint8_t b = byte(*i + k);
    if ((b & 0xc0) != 0x80) return -1;
    cp = (cp << 6) | (b & 0x3f);
  }
  static constexpr int32_t kMinForLength[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMinForLength[length] || cp > 0x10ffff ||
      (cp >= 0xd800 && cp <= 0xdfff)) {
    return -1;
  }
  *i += length;
  return cp;
}

bool IsBidiControl(int32_t cp) {
  return InRanges(t::kBidiControl, t::kBidiControlCount, cp);
}

bool IsDefaultIgnorable(int32_t cp) {
  return InRanges(t::kDefaultIgnorable, t::kDefaultIgnorableCount, cp);
}

int ScriptOf(int32_t cp) {
  if (cp < 0 || cp > 0x10ffff) return kScriptUnknown;
  const auto c = static_cast<uint32_t>(cp);
  const t::ScriptRange* end = t::kScriptRanges + t::kScriptRangeCount;
  // The last range that starts at or before c (the first starts at 0).
  const t::ScriptRange* r = std::upper_bound(
      t::kScriptRanges, end, c,
      [](uint32_t v, const t::ScriptRange& range) { return v < range.first; });
  return r[-1].script;
}

absl::string_view ScriptName(int script) {
  if (script < 0 || script >= t::kScriptNameCount) return "?";
  return t::kScriptNames[script];
}

std::string CodePointLabel(int32_t cp) {
  return absl::StrFormat("U+%04X", cp);
}

std::string NameFault::Describe() const {
  switch (kind) {
    case Kind::kBidiControl:
      return absl::StrCat(CodePointLabel(code_point),
                          " (Bidi_Control) at byte ", byte);
    case Kind::kDefaultIgnorable:
      return absl::StrCat(CodePointLabel(code_point),
                          " (Default_Ignorable_Code_Point) at byte ", byte);
    case Kind::kUnknownScript:
      return absl::StrCat(CodePointLabel(code_point),
                          " (Script=Unknown: unassigned in Unicode ",
                          UnicodeVersion(),
                          ", private use or a noncharacter) at byte ", byte);
    case Kind::kMixedScripts:
      return absl::StrCat(ScriptLabel(code_point), " at byte ", byte,
                          " after ", ScriptLabel(other_code_point),
                          " at byte ", other_byte);
  }
  return "?";
}

std::optional<NameFault> FindInvisibleOrBidi(absl::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t at = i;
    const int32_t cp = NextCodePoint(text, &i);
    if (cp < 0) {
      ++i;
      continue;
    }
    // U+200E, U+202A.. and U+2066.. are both: the more telling name wins.
    if (IsBidiControl(cp)) {
      return NameFault{NameFault::Kind::kBidiControl, at, cp};
    }
    if (IsDefaultIgnorable(cp)) {
      return NameFault{NameFault::Kind::kDefaultIgnorable, at, cp};
    }
  }
  return std::nullopt;
}

std::optional<NameFault> FindNameFault(absl::string_view name) {
  if (std::optional<NameFault> f = FindInvisibleOrBidi(name)) return f;
  return FindScriptFault(name);
}

std::optional<NameFault> FindScriptFault(absl::string_view name) {
  std::vector<int> common;  // the scripts every character so far allows
  size_t first_byte = 0;
  int32_t first_cp = -1;
  for (size_t i = 0; i < name.size();) {
    const size_t at = i;
    const int32_t cp = NextCodePoint(name, &i);
    if (cp < 0) {
      ++i;
      continue;
    }
    const int script = ScriptOf(cp);
    if (script == kScriptCommon || script == kScriptInherited) continue;
    if (script == kScriptUnknown) {
      return NameFault{NameFault::Kind::kUnknownScript, at, cp};
    }
    std::vector<int> allowed = AugmentedScripts(script);
    if (first_cp < 0) {
      first_cp = cp;
      first_byte = at;
      common = std::move(allowed);
      continue;
    }
    std::vector<int> both;
    for (int s : common) {
      if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) {
        both.push_back(s);
      }
    }
    if (both.empty()) {
      NameFault f{NameFault::Kind::kMixedScripts, at, cp};
      f.other_byte = first_byte;
      f.other_code_point = first_cp;
      return f;
    }
    common = std::move(both);
  }
  return std::nullopt;
}

}  // namespace cardref::unicode
