// The referee's public key written beside its private key file, so that an
// auditor finds it next to the logs (docs/log_format.md, "The referee's
// key"): `cardref_analyze audit --referee_key=FILE.pub`.
#ifndef CARDREF_REFEREE_BASE_PUBLIC_KEY_FILE_H_
#define CARDREF_REFEREE_BASE_PUBLIC_KEY_FILE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace cardref::crypto {

// Where the public key of `key_file` goes: a trailing ".key" replaced by
// ".pub" (referee_ed25519.key -> referee_ed25519.pub), else `key_file`.pub.
std::string PublicKeyPath(const std::string& key_file);

// Writes `public_key` (32 bytes) to `path` as 64 hex digits and a newline,
// mode 0644 (it is public), replacing the file atomically; a file that
// already holds exactly that is left alone. Messages name the path.
[[nodiscard]] absl::Status WritePublicKeyFile(const std::string& path,
                                              absl::string_view public_key);

}  // namespace cardref::crypto

#endif  // CARDREF_REFEREE_BASE_PUBLIC_KEY_FILE_H_
