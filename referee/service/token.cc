#include "referee/service/token.h"

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "referee/base/random_bytes.h"

namespace cardref::service {

absl::StatusOr<std::string> NewSecretToken() {
  // The OS generator (random_bytes.h), never std::random_device.
  absl::StatusOr<std::string> bytes = crypto::RandomBytes(16);
  if (!bytes.ok()) return bytes.status();
  return absl::BytesToHexString(*bytes);
}

bool TokensEqual(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= a[i] ^ b[i];
  return diff == 0;
}

}  // namespace cardref::service
