#include "referee/base/sha256.h"

#include <cstdlib>

#include <openssl/evp.h>

namespace cardref::crypto {

namespace {
// libcrypto fails here only when out of memory or misconfigured (no
// default provider); there is nothing sensible to return then.
void CheckOk(int ok) {
  if (ok != 1) std::abort();
}

// Fetched once: Sha256Md() makes every EVP_DigestInit_ex fetch the
// implementation from the provider again, which cost more than hashing a
// log record.
const EVP_MD* Sha256Md() {
  static const EVP_MD* const md = [] {
    EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (fetched == nullptr) std::abort();
    return fetched;
  }();
  return md;
}
}  // namespace

struct Sha256Hasher::Context {
  EVP_MD_CTX* md = nullptr;
};

std::string Sha256(absl::string_view data) {
  unsigned char digest[kSha256Size];
  unsigned int size = 0;
  CheckOk(EVP_Digest(data.data(), data.size(), digest, &size, Sha256Md(),
                     nullptr));
  return std::string(reinterpret_cast<const char*>(digest), size);
}

Sha256Hasher::Sha256Hasher() : context_(new Context) {
  context_->md = EVP_MD_CTX_new();
  if (context_->md == nullptr) std::abort();
  CheckOk(EVP_DigestInit_ex(context_->md, Sha256Md(), nullptr));
}

Sha256Hasher::~Sha256Hasher() {
  EVP_MD_CTX_free(context_->md);
  delete context_;
}

void Sha256Hasher::Update(absl::string_view data) {
  CheckOk(EVP_DigestUpdate(context_->md, data.data(), data.size()));
}

std::string Sha256Hasher::Finish() {
  unsigned char digest[kSha256Size];
  FinishInto(digest);
  return std::string(reinterpret_cast<const char*>(digest), kSha256Size);
}

void Sha256Hasher::FinishInto(unsigned char (&out)[kSha256Size]) {
  unsigned int size = 0;
  CheckOk(EVP_DigestFinal_ex(context_->md, out, &size));
  if (size != kSha256Size) std::abort();
  CheckOk(EVP_DigestInit_ex(context_->md, Sha256Md(), nullptr));
}

std::string Sha256Hasher::Digest() const {
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  if (copy == nullptr) std::abort();
  CheckOk(EVP_MD_CTX_copy_ex(copy, context_->md));
  unsigned char digest[kSha256Size];
  unsigned int size = 0;
  CheckOk(EVP_DigestFinal_ex(copy, digest, &size));
  EVP_MD_CTX_free(copy);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

}  // namespace cardref::crypto
