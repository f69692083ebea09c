#include "referee/base/ed25519.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/base/secret_file.h"

namespace cardref::crypto {

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
};
struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;
using Bio = std::unique_ptr<BIO, BioFree>;

// The reason of libcrypto's latest error, for messages (and clears it).
std::string OpensslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown libcrypto error";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

Pkey PrivatePkey(absl::string_view seed) {
  return Pkey(EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr,
      reinterpret_cast<const unsigned char*>(seed.data()), seed.size()));
}

absl::StatusOr<std::string> PublicKeyOf(EVP_PKEY* pkey) {
  std::string pub(kEd25519PublicKeySize, '\0');
  size_t size = pub.size();
  if (EVP_PKEY_get_raw_public_key(
          pkey, reinterpret_cast<unsigned char*>(pub.data()), &size) != 1 ||
      size != kEd25519PublicKeySize) {
    return absl::InternalError(
        absl::StrCat("cannot derive the Ed25519 public key: ", OpensslError()));
  }
  return pub;
}

absl::Status WriteAll(int fd, absl::string_view data) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::ErrnoToStatus(errno, "write");
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

}  // namespace

Ed25519PrivateKey::~Ed25519PrivateKey() {
  if (!seed_.empty()) OPENSSL_cleanse(seed_.data(), seed_.size());
}

absl::StatusOr<Ed25519PrivateKey> Ed25519PrivateKey::Generate() {
  absl::StatusOr<std::string> seed = RandomBytes(kEd25519SeedSize);
  if (!seed.ok()) return seed.status();
  absl::StatusOr<Ed25519PrivateKey> key = FromSeed(*seed);
  OPENSSL_cleanse(seed->data(), seed->size());
  return key;
}

absl::StatusOr<Ed25519PrivateKey> Ed25519PrivateKey::FromSeed(
    absl::string_view seed) {
  if (seed.size() != kEd25519SeedSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("an Ed25519 private key is ", kEd25519SeedSize,
                     " bytes, got ", seed.size()));
  }
  Pkey pkey = PrivatePkey(seed);
  if (pkey == nullptr) {
    return absl::InternalError(
        absl::StrCat("cannot make an Ed25519 key: ", OpensslError()));
  }
  absl::StatusOr<std::string> pub = PublicKeyOf(pkey.get());
  if (!pub.ok()) return pub.status();
  return Ed25519PrivateKey(std::string(seed), std::move(*pub));
}

absl::StatusOr<Ed25519PrivateKey> Ed25519PrivateKey::ReadFile(
    const std::string& path) {
  // Owned by this user and closed to group and others, or refused.
  absl::StatusOr<std::string> read =
      ReadSecretFile(path, "key file", size_t{64} << 10);
  if (!read.ok()) return read.status();
  std::string pem = *std::move(read);

  Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
  Pkey pkey(bio == nullptr ? nullptr
                           : PEM_read_bio_PrivateKey(bio.get(), nullptr,
                                                     nullptr, nullptr));
  OPENSSL_cleanse(pem.data(), pem.size());
  if (pkey == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("key file ", path,
                     " is not a PEM private key (expected the PKCS#8 of an "
                     "Ed25519 key): ",
                     OpensslError()));
  }
  if (EVP_PKEY_id(pkey.get()) != EVP_PKEY_ED25519) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key file ", path, " holds a ", OBJ_nid2sn(EVP_PKEY_id(pkey.get())),
        " key, expected an Ed25519 key"));
  }
  std::string seed(kEd25519SeedSize, '\0');
  size_t size = seed.size();
  if (EVP_PKEY_get_raw_private_key(
          pkey.get(), reinterpret_cast<unsigned char*>(seed.data()),
          &size) != 1 ||
      size != kEd25519SeedSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("key file ", path, ": ", OpensslError()));
  }
  absl::StatusOr<std::string> pub = PublicKeyOf(pkey.get());
  if (!pub.ok()) return pub.status();
  return Ed25519PrivateKey(std::move(seed), std::move(*pub));
}

absl::StatusOr<Ed25519PrivateKey> Ed25519PrivateKey::ReadOrCreateFile(
    const std::string& path, bool* created) {
  *created = false;
  absl::StatusOr<Ed25519PrivateKey> key = ReadFile(path);
  if (!absl::IsNotFound(key.status())) return key;
  key = Generate();
  if (!key.ok()) return key.status();
  absl::Status written = key->WriteFile(path);
  // Another process made it first: use theirs.
  if (absl::IsAlreadyExists(written)) return ReadFile(path);
  if (!written.ok()) return written;
  *created = true;
  return key;
}

absl::Status Ed25519PrivateKey::WriteFile(const std::string& path) const {
  Pkey pkey = PrivatePkey(seed_);
  Bio bio(BIO_new(BIO_s_mem()));
  if (pkey == nullptr || bio == nullptr ||
      PEM_write_bio_PKCS8PrivateKey(bio.get(), pkey.get(), nullptr, nullptr,
                                    0, nullptr, nullptr) != 1) {
    return absl::InternalError(
        absl::StrCat("cannot encode the key: ", OpensslError()));
  }
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  const absl::string_view pem(data, static_cast<size_t>(size));

  const int fd = open(path.c_str(),
                      O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
                      0600);
  if (fd < 0) {
    const int e = errno;
    if (e == EEXIST) {
      return absl::AlreadyExistsError(
          absl::StrCat("key file ", path, " exists; not overwriting it"));
    }
    return absl::ErrnoToStatus(
        e, absl::StrCat("cannot create key file ", path));
  }
  // The umask may have taken bits away, never added any; fchmod makes the
  // mode exactly 0600 either way (a umask of 0777 would leave 0000).
  absl::Status st;
  if (fchmod(fd, 0600) != 0) {
    st = absl::ErrnoToStatus(errno, absl::StrCat("fchmod ", path));
  }
  if (st.ok()) st = WriteAll(fd, pem);
  if (st.ok() && fsync(fd) != 0) {
    st = absl::ErrnoToStatus(errno, absl::StrCat("fsync ", path));
  }
  if (close(fd) != 0 && st.ok()) {
    st = absl::ErrnoToStatus(errno, absl::StrCat("close ", path));
  }
  OPENSSL_cleanse(data, static_cast<size_t>(size));
  if (!st.ok()) {
    unlink(path.c_str());  // never leave a half-written key behind
    return absl::Status(st.code(), absl::StrCat("cannot write key file ",
                                                path, ": ", st.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> Ed25519PrivateKey::Sign(
    absl::string_view message) const {
  Pkey pkey = PrivatePkey(seed_);
  MdCtx ctx(EVP_MD_CTX_new());
  std::string signature(kEd25519SignatureSize, '\0');
  size_t size = signature.size();
  // Ed25519 is one-shot: no digest (nullptr), DigestSign over the message.
  if (pkey == nullptr || ctx == nullptr ||
      EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) !=
          1 ||
      EVP_DigestSign(ctx.get(),
                     reinterpret_cast<unsigned char*>(signature.data()), &size,
                     reinterpret_cast<const unsigned char*>(message.data()),
                     message.size()) != 1 ||
      size != kEd25519SignatureSize) {
    return absl::InternalError(
        absl::StrCat("Ed25519 signing failed: ", OpensslError()));
  }
  return signature;
}

absl::StatusOr<std::string> ParseEd25519PublicKey(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (!absl::StartsWith(text, "-----BEGIN")) {
    return FromHex(text, kEd25519PublicKeySize, "an Ed25519 public key");
  }
  Bio bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
  Pkey pkey(bio == nullptr
                ? nullptr
                : PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
  if (pkey == nullptr || EVP_PKEY_id(pkey.get()) != EVP_PKEY_ED25519) {
    ERR_clear_error();
    return absl::InvalidArgumentError(
        "not an Ed25519 public key: expected 64 hex digits or a PEM "
        "\"PUBLIC KEY\" block");
  }
  return PublicKeyOf(pkey.get());
}

absl::Status VerifyEd25519(absl::string_view public_key,
                           absl::string_view message,
                           absl::string_view signature) {
  if (public_key.size() != kEd25519PublicKeySize) {
    return absl::InvalidArgumentError(
        absl::StrCat("an Ed25519 public key is ", kEd25519PublicKeySize,
                     " bytes, got ", public_key.size()));
  }
  if (signature.size() != kEd25519SignatureSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("an Ed25519 signature is ", kEd25519SignatureSize,
                     " bytes, got ", signature.size()));
  }
  Pkey pkey(EVP_PKEY_new_raw_public_key(
      EVP_PKEY_ED25519, nullptr,
      reinterpret_cast<const unsigned char*>(public_key.data()),
      public_key.size()));
  if (pkey == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "not a valid Ed25519 public key: ", OpensslError()));
  }
  MdCtx ctx(EVP_MD_CTX_new());
  if (ctx == nullptr ||
      EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey.get()) !=
          1) {
    return absl::InternalError(
        absl::StrCat("Ed25519 verification failed: ", OpensslError()));
  }
  const int ok = EVP_DigestVerify(
      ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()),
      signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
      message.size());
  ERR_clear_error();
  if (ok != 1) {
    return absl::PermissionDeniedError(
        "the Ed25519 signature does not verify with this public key");
  }
  return absl::OkStatus();
}

}  // namespace cardref::crypto
