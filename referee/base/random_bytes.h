// Secret random bytes from the OS CSPRNG (OpenSSL's RAND_bytes, seeded by
// getrandom): dealing seeds and keys. Never std::random_device, whose
// quality the standard does not promise.
#ifndef CARDREF_REFEREE_BASE_RANDOM_BYTES_H_
#define CARDREF_REFEREE_BASE_RANDOM_BYTES_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace cardref::crypto {

// UNAVAILABLE if the generator fails (it does not, on a working Linux).
[[nodiscard]] absl::StatusOr<std::string> RandomBytes(size_t n);

}  // namespace cardref::crypto

#endif  // CARDREF_REFEREE_BASE_RANDOM_BYTES_H_
