#include "referee/service/text_limits.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "referee/base/status_macros.h"
#include "referee/base/unicode/unicode_props.h"

namespace cardref::service {

namespace {

bool IsForbidden(int32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
         cp == 0x2029;
}

absl::Status InvisibleOrBidiError(absl::string_view field,
                                  absl::string_view value,
                                  const unicode::NameFault& fault) {
  absl::string_view why;
  switch (fault.kind) {
    case unicode::NameFault::Kind::kBidiControl:
      why = "it reorders the text after it";
      break;
    case unicode::NameFault::Kind::kDefaultIgnorable:
      why = "it is invisible";
      break;
    default:
      why = "nobody can tell how it will show";
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "'", field, "' holds ", fault.Describe(), " ('", QuotePrefix(value),
      "'): ", why, "; names and versions may not hold it (docs/bots.md, "
      "\"Names\")"));
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
    const int32_t cp = unicode::NextCodePoint(value, &i);
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

absl::Status CheckPlayerName(absl::string_view field,
                             absl::string_view value) {
  RETURN_IF_ERROR(CheckText(field, value, kMaxPlayerNameChars));
  const std::optional<unicode::NameFault> fault =
      unicode::FindNameFault(value);
  if (!fault.has_value()) return absl::OkStatus();
  if (fault->kind == unicode::NameFault::Kind::kMixedScripts) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", field, "' mixes scripts: ", fault->Describe(), " ('",
        QuotePrefix(value),
        "'): a name must be in one script; digits, punctuation, spaces "
        "and marks go with any (docs/bots.md, \"Names\")"));
  }
  return InvisibleOrBidiError(field, value, *fault);
}

absl::Status CheckPlayerVersion(absl::string_view field,
                                absl::string_view value) {
  RETURN_IF_ERROR(CheckText(field, value, kMaxPlayerVersionChars));
  const std::optional<unicode::NameFault> fault =
      unicode::FindInvisibleOrBidi(value);
  if (!fault.has_value()) return absl::OkStatus();
  return InvisibleOrBidiError(field, value, *fault);
}

std::string LoggableText(absl::string_view value, size_t max_chars) {
  if (CheckText("", value, max_chars).ok()) return std::string(value);
  return QuotePrefix(value);
}

}  // namespace cardref::service
