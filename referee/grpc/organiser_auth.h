// The organiser's credential: a bearer token, sent by clients as the gRPC
// metadata `authorization: Bearer <token>` (docs/auth.md). Only the organiser
// may create, list, cancel and abort matches, stream a match's full state
// and read log locations. Without a configured token every caller counts as
// the organiser, which the server allows only on loopback (server.cc).
#ifndef CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_
#define CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"

namespace cardref::grpc_service {

class OrganiserAuth {
 public:
  explicit OrganiserAuth(std::optional<std::string> token)
      : token_(std::move(token)) {}

  bool configured() const { return token_.has_value(); }

  // OK if the call carries the organiser credential (or none is
  // configured). UNAUTHENTICATED without a well-formed bearer token,
  // PERMISSION_DENIED for a token that is not the organiser's (a seat token,
  // say). `what` names the call in the message.
  absl::Status Check(const grpc::ServerContextBase& context,
                     const char* what) const;
  bool IsOrganiser(const grpc::ServerContextBase& context) const {
    return Check(context, "").ok();
  }

 private:
  const std::optional<std::string> token_;
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_
