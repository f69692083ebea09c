#include "referee/service/retry_keys.h"

#include "referee/base/status_macros.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

absl::Status CheckRetryKey(const std::string& key) {
  RETURN_IF_ERROR(CheckText("retry_key", key, kMaxRetryKeyChars));
  if (key.size() < kMinRetryKeyChars) {
    return absl::InvalidArgumentError(absl::StrCat(
        "retry_key is ", key.size(), " characters; give ", kMinRetryKeyChars,
        " to ", kMaxRetryKeyChars, " random ones (a resend with it gets what "
        "the first request got, a token or tickets, so it must not be "
        "guessable)"));
  }
  return absl::OkStatus();
}

}  // namespace cardref::service
