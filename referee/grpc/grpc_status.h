// absl::Status at the service edge: the gRPC status a handler answers with,
// and a stream reactor that answers a refused stream at once.
#ifndef CARDREF_REFEREE_GRPC_GRPC_STATUS_H_
#define CARDREF_REFEREE_GRPC_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"

namespace cardref::grpc_service {

// absl -> gRPC, code and message unchanged (the codes share numbering).
inline grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      std::string(status.message()));
}

// A server-streaming call refused before its first message: finishes with
// `status` and deletes itself when gRPC is done with it.
template <typename Message>
class ErrorWriter : public grpc::ServerWriteReactor<Message> {
 public:
  explicit ErrorWriter(const absl::Status& status) {
    this->Finish(ToGrpcStatus(status));
  }
  void OnDone() override { delete this; }
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_GRPC_STATUS_H_
