// Secret per-seat tokens.
#ifndef CARDREF_REFEREE_SERVICE_TOKEN_H_
#define CARDREF_REFEREE_SERVICE_TOKEN_H_

#include <string>

namespace cardref::service {

// 128 random bits from the OS, as 32 lowercase hex digits.
std::string NewSecretToken();

// Compares in time independent of where the strings differ.
bool TokensEqual(const std::string& a, const std::string& b);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_TOKEN_H_
