#include "referee/grpc/organiser_token.h"

#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "referee/base/secret_file.h"

namespace cardref::grpc_service {

namespace {

absl::StatusOr<std::string> CheckedToken(std::string token,
                                         const std::string& source) {
  token = std::string(absl::StripAsciiWhitespace(token));
  if (token.size() < kMinOrganiserTokenChars) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the organiser token from ", source, " has ", token.size(),
        " characters; use at least ", kMinOrganiserTokenChars,
        " (e.g. openssl rand -hex 32)"));
  }
  for (char c : token) {
    if (c <= ' ' || c > '~') {
      return absl::InvalidArgumentError(absl::StrCat(
          "the organiser token from ", source,
          " holds a character outside printable ASCII"));
    }
  }
  return token;
}

}  // namespace

absl::StatusOr<std::optional<std::string>> LoadOrganiserToken(
    const std::string& token_file) {
  if (!token_file.empty()) {
    // Owned by this user and closed to group and others, or refused.
    absl::StatusOr<std::string> content =
        ReadSecretFile(token_file, "the organiser token file", 64 << 10);
    if (absl::IsNotFound(content.status())) {
      return absl::NotFoundError(
          absl::StrCat("cannot read the organiser token file ", token_file,
                       ": it does not exist"));
    }
    if (!content.ok()) return content.status();
    return CheckedToken(*std::move(content), token_file);
  }
  if (const char* env = std::getenv(kOrganiserTokenEnv); env != nullptr) {
    return CheckedToken(env, absl::StrCat("$", kOrganiserTokenEnv));
  }
  return std::optional<std::string>();
}

void AddOrganiserCredential(const std::optional<std::string>& token,
                            grpc::ClientContext* context) {
  if (token.has_value()) {
    context->AddMetadata("authorization", absl::StrCat(kBearerPrefix, *token));
  }
}

}  // namespace cardref::grpc_service
