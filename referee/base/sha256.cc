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
}  // namespace

struct Sha256Hasher::Context {
  EVP_MD_CTX* md = nullptr;
};

std::string Sha256(absl::string_view data) {
  unsigned char digest[kSha256Size];
  unsigned int size = 0;
  CheckOk(EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(),
                     nullptr));
  return std::string(reinterpret_cast<const char*>(digest), size);
}

Sha256Hasher::Sha256Hasher() : context_(new Context) {
  context_->md = EVP_MD_CTX_new();
  if (context_->md == nullptr) std::abort();
  CheckOk(EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr));
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
  unsigned int size = 0;
  CheckOk(EVP_DigestFinal_ex(context_->md, digest, &size));
  CheckOk(EVP_DigestInit_ex(context_->md, EVP_sha256(), nullptr));
  return std::string(reinterpret_cast<const char*>(digest), size);
}

}  // namespace cardref::crypto
