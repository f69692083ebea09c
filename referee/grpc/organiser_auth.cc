#include "referee/grpc/organiser_auth.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "referee/grpc/organiser_token.h"
#include "referee/service/token.h"

namespace cardref::grpc_service {

absl::Status OrganiserAuth::Check(const grpc::ServerContextBase& context,
                                  const char* what) const {
  if (!token_.has_value()) return absl::OkStatus();
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return absl::UnauthenticatedError(absl::StrCat(
        what, " is for the organiser: send the metadata 'authorization: "
        "Bearer <organiser token>'"));
  }
  const absl::string_view value(it->second.data(), it->second.size());
  if (!absl::StartsWith(value, kBearerPrefix)) {
    return absl::UnauthenticatedError(absl::StrCat(
        what, " is for the organiser: the 'authorization' metadata must be "
        "'Bearer <organiser token>'"));
  }
  if (!service::TokensEqual(std::string(value.substr(kBearerPrefix.size())),
                            *token_)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "the bearer token is not the organiser credential, so ", what,
        " is refused (a seat token only works for its seat's calls)"));
  }
  return absl::OkStatus();
}

}  // namespace cardref::grpc_service
