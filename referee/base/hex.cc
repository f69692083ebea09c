#include "referee/base/hex.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace cardref {

namespace {
int Nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string ToHex(absl::string_view bytes) {
  return absl::BytesToHexString(bytes);
}

absl::StatusOr<std::string> FromHex(absl::string_view hex,
                                    size_t expected_bytes,
                                    absl::string_view what) {
  if (expected_bytes != 0 && hex.size() != 2 * expected_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be ", 2 * expected_bytes,
                     " hex digits (", expected_bytes, " bytes), got ",
                     hex.size(), " characters"));
  }
  if (hex.size() % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " has an odd number of hex digits"));
  }
  std::string bytes(hex.size() / 2, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) {
    const int hi = Nibble(hex[2 * i]);
    const int lo = Nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, " is not hex: character ", hi < 0 ? 2 * i + 1 : 2 * i + 2,
          " is '", hex.substr(hi < 0 ? 2 * i : 2 * i + 1, 1), "'"));
    }
    bytes[i] = static_cast<char>(hi * 16 + lo);
  }
  return bytes;
}

}  // namespace cardref
