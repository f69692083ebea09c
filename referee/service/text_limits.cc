#include "referee/service/text_limits.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::service {

namespace {

// Decodes one UTF-8 code point at `s[*i]`, advancing *i; -1 if malformed
// (overlong forms, surrogates and values past U+10FFFF included).
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

bool IsForbidden(int32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
         cp == 0x2029;
}

}  // namespace

std::string QuotePrefix(absl::string_view value) {
  std::string out;
  const size_t n = std::min(value.size(), kQuotedPrefixChars);
  for (size_t i = 0; i < n; ++i) {
    const auto c = static_cast<uint8_t>(value[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
      out.push_back(static_cast<char>(c));
    } else {
      absl::StrAppendFormat(&out, "\\x%02x", c);
    }
  }
  if (value.size() > n) out += "...";
  return out;
}

absl::Status CheckText(absl::string_view field, absl::string_view value,
                       size_t max_chars) {
  // Printable ASCII is one allowed character per byte: the common case
  // (every match id and token) without decoding code points.
  if (value.size() <= max_chars &&
      std::all_of(value.begin(), value.end(), [](char c) {
        return c >= 0x20 && c < 0x7f;
      })) {
    return absl::OkStatus();
  }
  size_t chars = 0;
  for (size_t i = 0; i < value.size();) {
    const size_t at = i;
    const int32_t cp = NextCodePoint(value, &i);
    if (cp < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", field, "' is not valid UTF-8 at byte ", at, " ('",
          QuotePrefix(value), "')"));
    }
    if (IsForbidden(cp)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "'%s' holds the control character U+%04X at byte %d ('%s'): "
          "only printable characters are allowed",
          field, cp, at, QuotePrefix(value)));
    }
    if (++chars > max_chars) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", field, "' is longer than ", max_chars, " characters ('",
          QuotePrefix(value), "')"));
    }
  }
  return absl::OkStatus();
}

std::string LoggableText(absl::string_view value, size_t max_chars) {
  if (CheckText("", value, max_chars).ok()) return std::string(value);
  return QuotePrefix(value);
}

}  // namespace cardref::service
