#include "ladder/tools/entrant_credential.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "ladder/store/open_store.h"
#include "referee/base/hex.h"
#include "referee/base/random_bytes.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {
namespace {

// Recognisable in a leaked file or paste; 256 random bits after it.
constexpr char kCredentialPrefix[] = "cardref-entrant-";
constexpr size_t kCredentialBytes = 32;

}  // namespace

std::string CredentialSha256(absl::string_view credential) {
  return ToHex(crypto::Sha256(credential));
}

absl::StatusOr<std::string> IssueEntrantCredential(LadderStore& store,
                                                   absl::string_view entrant,
                                                   int64_t now_micros) {
  ASSIGN_OR_RETURN(std::string secret, crypto::RandomBytes(kCredentialBytes));
  std::string credential = absl::StrCat(kCredentialPrefix, ToHex(secret));
  RETURN_IF_ERROR(
      store
          .AddEntrantCredential(entrant, CredentialSha256(credential),
                                now_micros)
          .status());
  return credential;
}

absl::StatusOr<std::optional<EntrantCredential>> CheckEntrantCredential(
    LadderStore& store, absl::string_view credential) {
  if (credential.empty()) return std::nullopt;
  return store.FindEntrantCredential(CredentialSha256(credential));
}

namespace cli {

absl::Status Credential(const std::string& store_path,
                        const std::string& entrant, bool revoke,
                        int64_t now_micros, std::ostream& out) {
  if (store_path.empty()) return absl::InvalidArgumentError("--db is required");
  if (entrant.empty()) {
    return absl::InvalidArgumentError("--entrant=NAME is required");
  }
  OpenStoreOptions options;
  options.create = false;
  options.now_micros = now_micros;
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store,
                   OpenStore(store_path, options));
  if (revoke) {
    ASSIGN_OR_RETURN(int revoked,
                     store->RevokeEntrantCredentials(entrant, now_micros));
    out << "revoked " << revoked << " credential(s) of entrant '" << entrant
        << "'\n";
    return absl::OkStatus();
  }
  ASSIGN_OR_RETURN(std::string credential,
                   IssueEntrantCredential(*store, entrant, now_micros));
  out << credential << "\n";
  return absl::OkStatus();
}

}  // namespace cli
}  // namespace cardref::ladder
