// A running referee: match manager, gRPC service, health checking and
// server reflection (its own: health_service.h, reflection_service.h),
// listening on one address. Used by cardref_referee and
// by tests (which listen on port 0).
#ifndef CARDREF_REFEREE_GRPC_SERVER_H_
#define CARDREF_REFEREE_GRPC_SERVER_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/call_gate.h"
#include "referee/grpc/connection_limiter.h"
#include "referee/grpc/health_service.h"
#include "referee/grpc/loopback_host.h"
#include "referee/grpc/prometheus_metrics.h"
#include "referee/grpc/referee_service.h"
#include "referee/grpc/reflection_service.h"
#include "referee/grpc/refusal_tarpit.h"
#include "referee/service/match_manager.h"
#include "referee/service/shutdown.h"

namespace cardref::grpc_service {

struct TlsOptions {
  std::string cert_file;  // PEM certificate chain; empty = plaintext
  std::string key_file;   // PEM private key
  // PEM CA certificates: if set, every client must present a certificate
  // signed by one of them.
  std::string client_ca_file;
};

// The certificate chain and private key of TlsOptions (PEM); both empty
// without TLS.
struct TlsPem {
  std::string cert_chain;
  std::string key;
};

// A listener besides the gRPC port that serves from the server's matches:
// the web front (web/referee_front.h, docs/web.md), which lives in a layer
// above this one and so is started through this interface. Thread-safe.
class FrontEnd {
 public:
  virtual ~FrontEnd() = default;
  virtual int port() const = 0;
  virtual bool tls() const = 0;
  // Closes the listener and every connection. Idempotent.
  virtual void Stop() = 0;
};

struct FrontEndOptions {
  // The address it listens on (checked as every listener's), and the flag
  // that set it (for the check's message).
  std::string host;
  std::string host_flag = "--http_host";
  // Called once by RefereeServer::Start, after its MatchManager exists and
  // before the gRPC port opens, with the manager (which outlives the front
  // end), the server's TLS pair (empty without TLS) and `host`.
  std::function<absl::StatusOr<std::unique_ptr<FrontEnd>>(
      service::MatchManager* manager, const TlsPem& tls,
      const std::string& host)>
      start;
};

struct ServerOptions {
  std::string host = "localhost";
  int port = 0;  // 0 picks a free port
  service::ManagerOptions manager;  // manager.limits: docs/limits.md
  // The organiser credential (organiser_auth.h). Without one the server
  // listens on loopback only and everyone counts as the organiser.
  std::optional<std::string> organiser_token;
  TlsOptions tls;
  // Serves Prometheus metrics on metrics_host:metrics_port (0 picks a free
  // port); -1: no metrics (docs/operations.md).
  int metrics_port = -1;
  std::string metrics_host = "127.0.0.1";
  // The web front (docs/web.md; web::RefereeFrontEnd makes these); unset:
  // none. It serves HTTPS with the TLS certificate and key when the server
  // has them.
  std::optional<FrontEndOptions> front_end;
  // Also serve the test-only games (games/testing/: GameTraits::test_only),
  // for the test suites; off for every real referee.
  bool serve_test_games = false;
};

// What Start refuses before it touches anything: FAILED_PRECONDITION, without
// an organiser token, for a host, (with metrics) a metrics_host or (with a
// front end) the front end's host that does not resolve to loopback
// addresses only
// (CheckListenHost, loopback_host.h);
// INVALID_ARGUMENT for half a TLS configuration. Files are not read; names
// are resolved.
[[nodiscard]] absl::Status CheckServerOptions(const ServerOptions& options);

class RefereeServer {
 public:
  static absl::StatusOr<std::unique_ptr<RefereeServer>> Start(
      ServerOptions options);
  // Shuts down (unfinished matches are logged as aborted).
  ~RefereeServer();

  int port() const { return port_; }
  std::string address() const;
  grpc::Server& server() { return *server_; }
  // The listener's connection count; null without a cap.
  ConnectionLimiter* connections() { return connections_.get(); }
  const RefusalTarpit& tarpit() const { return *tarpit_; }
  const service::MatchManager& manager() const { return *manager_; }
  const HealthService& health() const { return *health_; }
  // -1 without metrics.
  int metrics_port() const { return metrics_ ? metrics_->port() : -1; }
  // The front end (the web front); null without one.
  const FrontEnd* front_end() const { return front_end_.get(); }
  // Stops the listener; in-flight calls get `grace` to end.
  void Shutdown(absl::Duration grace);
  // SIGTERM/SIGINT (service/shutdown.h): health checks say NOT_SERVING; no
  // new match or join; matches in progress get `grace` to finish, then
  // every unfinished match is logged as aborted and every log synced; then
  // the listener stops.
  service::ShutdownSummary ShutDownGracefully(absl::Duration grace);

 private:
  RefereeServer() = default;
  std::string host_;
  std::atomic<bool> shut_down_{false};
  int port_ = 0;
  std::unique_ptr<PrometheusMetrics> metrics_;  // outlives manager_
  std::unique_ptr<service::MatchManager> manager_;
  std::unique_ptr<FrontEnd> front_end_;  // destroyed before manager_
  std::unique_ptr<OrganiserAuth> auth_;
  // Hands connections_' connections to server_ (with its credentials);
  // declared first, so it outlives the limiter's accept thread.
  std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> acceptor_;
  std::shared_ptr<ConnectionLimiter> connections_;  // shared with metrics_
  std::unique_ptr<CallGate> gate_;
  std::shared_ptr<RefusalTarpit> tarpit_;  // shared with metrics_
  std::unique_ptr<RefereeService> service_;
  std::unique_ptr<HealthService> health_;
  std::unique_ptr<ReflectionService> reflection_;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_SERVER_H_
