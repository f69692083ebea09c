#include "referee/service/token.h"

#include <random>

#include "absl/strings/str_format.h"

namespace cardref::service {

std::string NewSecretToken() {
  std::random_device rd;
  std::string token;
  for (int i = 0; i < 4; ++i) absl::StrAppendFormat(&token, "%08x", rd());
  return token;
}

bool TokensEqual(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= a[i] ^ b[i];
  return diff == 0;
}

}  // namespace cardref::service
