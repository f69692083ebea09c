#include "referee/grpc/raw_methods.h"

#include <string>
#include <utility>

namespace cardref::grpc_service {

absl::Status RawMethods::Admit(const grpc::ServerContextBase& context,
                                   absl::string_view token) {
  return gate_ == nullptr ? absl::OkStatus() : gate_->Admit(context, token);
}

void RawMethods::Answer(const grpc::ServerContextBase& context,
                            grpc::ServerUnaryReactor* reactor,
                            grpc::Status status, absl::string_view token) {
  if (tarpit_ == nullptr || status.ok() || !tarpit_->enabled()) {
    reactor->Finish(std::move(status));
    return;
  }
  // A refused credential is not the caller's: its refusals are charged to
  // the caller's address, or a flooder sending a new made-up token with
  // every call would get a new free quota each time.
  const bool credential_refused =
      status.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
      status.error_code() == grpc::StatusCode::PERMISSION_DENIED;
  std::string caller;
  if (gate_ == nullptr) {
    caller = context.peer();
  } else if (credential_refused) {
    caller = gate_->AddressKey(context);
  } else {
    caller = gate_->CallerKey(context, token);
  }
  tarpit_->Finish(reactor, std::move(status), caller);
}

}  // namespace cardref::grpc_service
