// SHA-256 (FIPS 180-4) over OpenSSL's libcrypto: the hash of the log's hash
// chain, of the seed commitment and of the deal stream (docs/log_format.md).
#ifndef CARDREF_REFEREE_BASE_SHA256_H_
#define CARDREF_REFEREE_BASE_SHA256_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace cardref::crypto {

inline constexpr size_t kSha256Size = 32;

// The 32-byte digest of `data`, as a byte string.
std::string Sha256(absl::string_view data);

// Incremental hashing, for data that comes in pieces. Not thread-safe;
// copyable only by starting over, so neither copyable nor movable.
class Sha256Hasher {
 public:
  Sha256Hasher();
  ~Sha256Hasher();
  Sha256Hasher(const Sha256Hasher&) = delete;
  Sha256Hasher& operator=(const Sha256Hasher&) = delete;

  void Update(absl::string_view data);
  // The digest of everything given since construction or the last Finish;
  // the hasher then starts over.
  std::string Finish();
  // Finish, into `out` instead of a new string.
  void FinishInto(unsigned char (&out)[kSha256Size]);
  // The digest of everything given so far; the hasher goes on from there.
  std::string Digest() const;

 private:
  struct Context;
  Context* context_;
};

}  // namespace cardref::crypto

#endif  // CARDREF_REFEREE_BASE_SHA256_H_
