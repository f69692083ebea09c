// Ed25519 signatures (RFC 8032) over OpenSSL's libcrypto (EVP_PKEY_ED25519):
// the referee's key that signs the last record of every game log
// (docs/log_format.md, "Signed logs").
//
// Key files are PEM PKCS#8 ("BEGIN PRIVATE KEY"), the format of
// `openssl genpkey -algorithm ed25519`, so `openssl pkey -in FILE -pubout`
// reads them too. They are created mode 0600 whatever the umask, and a key
// file that another user owns, or that group or others may read or write,
// is refused, as ssh does (referee/base/secret_file.h).
#ifndef CARDREF_REFEREE_BASE_ED25519_H_
#define CARDREF_REFEREE_BASE_ED25519_H_

#include <cstddef>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::crypto {

inline constexpr size_t kEd25519SeedSize = 32;  // the private key proper
inline constexpr size_t kEd25519PublicKeySize = 32;
inline constexpr size_t kEd25519SignatureSize = 64;

// A private key and its public key. Immutable and thread-safe once made.
class Ed25519PrivateKey {
 public:
  // A new key from the OS CSPRNG (random_bytes.h).
  [[nodiscard]] static absl::StatusOr<Ed25519PrivateKey> Generate();
  // The key of a 32-byte RFC 8032 secret (tests, test vectors).
  [[nodiscard]] static absl::StatusOr<Ed25519PrivateKey> FromSeed(
      absl::string_view seed);

  // Reads a key file. NOT_FOUND if it does not exist; FAILED_PRECONDITION
  // if another user owns it or group or others may read or write it
  // (ReadSecretFile); INVALID_ARGUMENT if it is not an Ed25519 private key.
  // Messages name the path.
  [[nodiscard]] static absl::StatusOr<Ed25519PrivateKey> ReadFile(
      const std::string& path);
  // Reads `path`, or, when it does not exist, generates a key and writes it
  // there (*created = true).
  [[nodiscard]] static absl::StatusOr<Ed25519PrivateKey> ReadOrCreateFile(
      const std::string& path, bool* created);

  // Creates `path` mode 0600 (whatever the umask; ALREADY_EXISTS rather
  // than overwrite) holding this key, synced to disk.
  [[nodiscard]] absl::Status WriteFile(const std::string& path) const;

  const std::string& public_key() const { return public_key_; }  // 32 bytes
  // The 64-byte signature of `message`.
  [[nodiscard]] absl::StatusOr<std::string> Sign(
      absl::string_view message) const;

  ~Ed25519PrivateKey();
  Ed25519PrivateKey(const Ed25519PrivateKey&) = default;
  Ed25519PrivateKey& operator=(const Ed25519PrivateKey&) = default;

 private:
  Ed25519PrivateKey(std::string seed, std::string public_key)
      : seed_(std::move(seed)), public_key_(std::move(public_key)) {}

  std::string seed_;
  std::string public_key_;
};

// A public key written as 64 hex digits (what cardref_referee prints and
// GetRefereeKey serves) or as a PEM "PUBLIC KEY" (`openssl pkey -pubout`);
// surrounding whitespace is ignored. INVALID_ARGUMENT otherwise.
[[nodiscard]] absl::StatusOr<std::string> ParseEd25519PublicKey(
    absl::string_view text);

// OK iff `signature` is `public_key`'s valid signature of `message`;
// otherwise INVALID_ARGUMENT for malformed sizes, PERMISSION_DENIED (the
// signature does not verify).
[[nodiscard]] absl::Status VerifyEd25519(absl::string_view public_key,
                                         absl::string_view message,
                                         absl::string_view signature);

}  // namespace cardref::crypto

#endif  // CARDREF_REFEREE_BASE_ED25519_H_
