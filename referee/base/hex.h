// Lower-case hex for keys, hashes and seeds in messages, flags and docs.
#ifndef CARDREF_REFEREE_BASE_HEX_H_
#define CARDREF_REFEREE_BASE_HEX_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref {

std::string ToHex(absl::string_view bytes);

// Decodes `hex` (either case, no separators). INVALID_ARGUMENT naming
// `what` unless it is exactly `expected_bytes` bytes of valid hex
// (any length when expected_bytes is 0).
[[nodiscard]] absl::StatusOr<std::string> FromHex(absl::string_view hex,
                                                  size_t expected_bytes,
                                                  absl::string_view what);

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_HEX_H_
