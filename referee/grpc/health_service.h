// gRPC's standard health checking (grpc.health.v1.Health), served by the
// referee itself rather than by gRPC's default service, so that:
// - a Watch stream takes a slot of its connection's budget (call_gate.h,
//   Limits::max_service_streams_per_connection) and a client cannot hold
//   thousands of them (17.7 kB each) on one connection;
// - Check and Watch pass the same calls-per-second limits as every call;
// - a referee that starts shutting down says NOT_SERVING at once, so a load
//   balancer or organiser's probe stops sending bots while the matches in
//   progress finish.
// Known services: "" (the whole referee) and "cardref.v1.Referee".
#ifndef CARDREF_REFEREE_GRPC_HEALTH_SERVICE_H_
#define CARDREF_REFEREE_GRPC_HEALTH_SERVICE_H_

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/call_gate.h"
#include "referee/service/metrics_sink.h"

namespace cardref::grpc_service {

class HealthWatcher;

// Thread-safe.
class HealthService final
    : public grpc::health::v1::Health::CallbackService {
 public:
  using ServingStatus = grpc::health::v1::HealthCheckResponse::ServingStatus;

  // `gate` (not owned, outlives the service) admits calls and counts Watch
  // streams; null: neither. `metrics` (not owned) counts open Watch
  // streams (kind "health").
  explicit HealthService(
      CallGate* gate, service::MetricsSink* metrics = service::NoMetrics())
      : gate_(gate), metrics_(metrics) {}

  // Every known service's status, told to each Watch stream when it changes.
  void SetServing(bool serving) ABSL_LOCKS_EXCLUDED(mu_);
  // NOT_SERVING, then every Watch stream ends (UNAVAILABLE) once that is
  // written, and so does every later one: gRPC's shutdown would otherwise
  // wait its whole grace for them.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);
  // Watch streams open now.
  int watchers() const ABSL_LOCKS_EXCLUDED(mu_);

  grpc::ServerUnaryReactor* Check(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request,
      grpc::health::v1::HealthCheckResponse* response) override;
  grpc::ServerWriteReactor<grpc::health::v1::HealthCheckResponse>* Watch(
      grpc::CallbackServerContext* context,
      const grpc::health::v1::HealthCheckRequest* request) override;

 private:
  friend class HealthWatcher;
  // "" and "cardref.v1.Referee": the services health reports on.
  static bool Known(const std::string& service);
  // SERVING or NOT_SERVING, as serving_ says.
  ServingStatus StatusLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetServingLocked(bool serving) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Forget(HealthWatcher* watcher) ABSL_LOCKS_EXCLUDED(mu_);

  CallGate* const gate_;
  service::MetricsSink* const metrics_;
  mutable absl::Mutex mu_;
  bool serving_ ABSL_GUARDED_BY(mu_) = true;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
  absl::flat_hash_set<HealthWatcher*> watchers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_HEALTH_SERVICE_H_
