#include "referee/grpc/organiser_token.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

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
    struct stat st;
    if (::stat(token_file.c_str(), &st) != 0) {
      return absl::NotFoundError(
          absl::StrCat("cannot read the organiser token file ", token_file));
    }
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
      return absl::PermissionDeniedError(absl::StrCat(
          "the organiser token file ", token_file,
          " is readable by others; chmod 600 it"));
    }
    std::ifstream in(token_file);
    std::stringstream content;
    content << in.rdbuf();
    if (!in) {
      return absl::NotFoundError(
          absl::StrCat("cannot read the organiser token file ", token_file));
    }
    return CheckedToken(content.str(), token_file);
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
