#include "referee/base/random_bytes.h"

#include <openssl/err.h>
#include <openssl/rand.h>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref::crypto {

absl::StatusOr<std::string> RandomBytes(size_t n) {
  std::string bytes(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()),
                 static_cast<int>(n)) != 1) {
    const unsigned long code = ERR_get_error();
    char reason[256] = "unknown error";
    if (code != 0) ERR_error_string_n(code, reason, sizeof(reason));
    ERR_clear_error();
    return absl::UnavailableError(
        absl::StrCat("the OS random generator failed: ", reason));
  }
  return bytes;
}

}  // namespace cardref::crypto
