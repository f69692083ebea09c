// gRPC server reflection (grpc.reflection.v1alpha, what grpcurl, grpcui and
// Postman ask a server for its API), served by the referee itself rather
// than by gRPC's plugin, whose synchronous handler holds a thread for as
// long as each stream is open: 2,000 streams made 2,000 threads. Here:
// - a stream takes a slot of its connection's budget (call_gate.h,
//   Limits::max_service_streams_per_connection) and holds no thread;
// - every request on it passes the calls-per-second limits, like a call;
// - requests are answered one at a time, the next read only once the last
//   answer is written, so a client that never reads holds one answer;
// - files are described from the binary's compiled-in descriptors, each
//   serialized once.
// What a stream may ask, and the answer's shape, follow gRPC's own
// implementation (src/cpp/ext/proto_server_reflection.cc): errors go in the
// response's error_response, the stream stays open.
#ifndef CARDREF_REFEREE_GRPC_REFLECTION_SERVICE_H_
#define CARDREF_REFEREE_GRPC_REFLECTION_SERVICE_H_

#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/node_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/descriptor.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/call_gate.h"
#include "referee/service/metrics_sink.h"

namespace cardref::grpc_service {

// Thread-safe.
class ReflectionService final
    : public grpc::reflection::v1alpha::ServerReflection::CallbackService {
 public:
  // `services`: the fully qualified names list_services answers (each must
  // be in the generated descriptor pool). `gate` (not owned, outlives the
  // service) admits requests and counts streams; null: neither. `metrics`
  // (not owned) counts open streams (kind "reflection").
  ReflectionService(std::vector<std::string> services, CallGate* gate,
                    service::MetricsSink* metrics = service::NoMetrics());

  grpc::ServerBidiReactor<grpc::reflection::v1alpha::ServerReflectionRequest,
                          grpc::reflection::v1alpha::ServerReflectionResponse>*
  ServerReflectionInfo(grpc::CallbackServerContext* context) override;

  // The answer to one request (valid_host and original_request included).
  void Answer(const grpc::reflection::v1alpha::ServerReflectionRequest& request,
              grpc::reflection::v1alpha::ServerReflectionResponse* response)
      ABSL_LOCKS_EXCLUDED(mu_);

  CallGate* gate() const { return gate_; }
  service::MetricsSink* metrics() const { return metrics_; }

 private:
  // Adds `file` and every file it imports, directly or not.
  void AddFileAndImports(
      const google::protobuf::FileDescriptor* file,
      grpc::reflection::v1alpha::ServerReflectionResponse* response)
      ABSL_LOCKS_EXCLUDED(mu_);
  // `file` as a serialized FileDescriptorProto, built once.
  const std::string& Serialized(const google::protobuf::FileDescriptor* file)
      ABSL_LOCKS_EXCLUDED(mu_);

  const std::vector<std::string> services_;
  CallGate* const gate_;
  service::MetricsSink* const metrics_;
  const google::protobuf::DescriptorPool* const pool_;
  absl::Mutex mu_;
  // node_hash_map: references handed out stay valid as it grows (at most
  // one entry per compiled-in .proto file).
  absl::node_hash_map<const google::protobuf::FileDescriptor*, std::string>
      serialized_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_REFLECTION_SERVICE_H_
