// Secret per-seat tokens.
#ifndef CARDREF_REFEREE_SERVICE_TOKEN_H_
#define CARDREF_REFEREE_SERVICE_TOKEN_H_

#include <string>

#include "absl/status/statusor.h"

namespace cardref::service {

// 128 random bits from the OS generator (random_bytes.h), as 32 lowercase
// hex digits; UNAVAILABLE if the generator fails.
[[nodiscard]] absl::StatusOr<std::string> NewSecretToken();

// Compares in time independent of where the strings differ.
bool TokensEqual(const std::string& a, const std::string& b);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_TOKEN_H_
