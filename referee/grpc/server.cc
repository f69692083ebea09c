#include "referee/grpc/server.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "grpcpp/ext/health_check_service_server_builder_option.h"
#include "referee/base/secret_file.h"
#include "referee/base/status_macros.h"
#include "games/all_games.h"
#include "referee/grpc/fd_budget.h"
#include "referee/record/private_dir.h"

namespace cardref::grpc_service {

namespace {

absl::StatusOr<std::string> ReadPem(const std::string& path,
                                    const char* flag) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  if (!in || content.str().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", flag, " file ", path));
  }
  return content.str();
}

// The certificate chain and key of TlsOptions, read once for the gRPC
// listener and the front end.
absl::StatusOr<TlsPem> ReadTlsPem(const TlsOptions& tls) {
  TlsPem pem;
  if (tls.cert_file.empty()) return pem;
  absl::StatusOr<std::string> cert = ReadPem(tls.cert_file, "--tls_cert");
  if (!cert.ok()) return cert.status();
  // A private key: owned by the referee's user and closed to group and
  // others, or refused (the certificates are public).
  absl::StatusOr<std::string> key =
      ReadSecretFile(tls.key_file, "--tls_key file", size_t{1} << 20);
  if (!key.ok()) return key.status();
  pem.cert_chain = *std::move(cert);
  pem.key = *std::move(key);
  return pem;
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeCredentials(
    const TlsOptions& tls, const TlsPem& pem) {
  if (tls.cert_file.empty()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions ssl;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  pair.cert_chain = pem.cert_chain;
  pair.private_key = pem.key;
  ssl.pem_key_cert_pairs.push_back(std::move(pair));
  if (!tls.client_ca_file.empty()) {
    absl::StatusOr<std::string> ca =
        ReadPem(tls.client_ca_file, "--tls_client_ca");
    if (!ca.ok()) return ca.status();
    ssl.pem_root_certs = *std::move(ca);
    ssl.client_certificate_request =
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(ssl);
}

// How long a connection may say nothing, and how many streams it may hold
// (service/limits.h).
void AddConnectionLimits(const service::Limits& limits,
                         grpc::ServerBuilder& builder) {
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                             limits.handshake_timeout_ms);
  if (limits.keepalive_ms > 0) {
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, limits.keepalive_ms);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS,
                               limits.keepalive_timeout_ms);
    // gRPC stops pinging after 2 pings without a data frame sent; a stream
    // waiting for a long decision sends none.
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  }
  if (limits.max_streams_per_connection > 0) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                               limits.max_streams_per_connection);
  }
}

}  // namespace

absl::Status CheckServerOptions(const ServerOptions& options) {
  const bool credential = options.organiser_token.has_value();
  RETURN_IF_ERROR(CheckListenHost("--host", options.host, credential));
  if (options.metrics_port >= 0) {
    RETURN_IF_ERROR(
        CheckListenHost("--metrics_host", options.metrics_host, credential));
  }
  if (options.front_end.has_value()) {
    RETURN_IF_ERROR(CheckListenHost(options.front_end->host_flag,
                                    options.front_end->host, credential));
  }
  const TlsOptions& tls = options.tls;
  if (tls.cert_file.empty() != tls.key_file.empty()) {
    return absl::InvalidArgumentError(
        "TLS needs both --tls_cert and --tls_key");
  }
  if (tls.cert_file.empty() && !tls.client_ca_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls_client_ca needs --tls_cert and --tls_key");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<RefereeServer>> RefereeServer::Start(
    ServerOptions options) {
  RETURN_IF_ERROR(CheckServerOptions(options));
  absl::StatusOr<TlsPem> pem = ReadTlsPem(options.tls);
  if (!pem.ok()) return pem.status();
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
      MakeCredentials(options.tls, *pem);
  if (!credentials.ok()) return credentials.status();
  // Logs hold every hand: readable by the referee's user only.
  if (absl::Status st = record::MakePrivateDirectory(options.manager.log_dir);
      !st.ok()) {
    return st;
  }
  std::unique_ptr<RefereeServer> s(new RefereeServer);
  s->host_ = options.host;
  options.manager.open_by_default = !options.organiser_token.has_value();
  if (options.metrics_port >= 0) {
    absl::StatusOr<std::unique_ptr<PrometheusMetrics>> metrics =
        PrometheusMetrics::Start(options.metrics_host, options.metrics_port);
    if (!metrics.ok()) return metrics.status();
    s->metrics_ = *std::move(metrics);
    options.manager.metrics = s->metrics_.get();
  }
  s->manager_ = std::make_unique<service::MatchManager>(
      &ServedGames(options.serve_test_games),
                                                        options.manager);
  if (options.front_end.has_value()) {
    absl::StatusOr<std::unique_ptr<FrontEnd>> front =
        options.front_end->start(s->manager_.get(), *pem,
                                 options.front_end->host);
    if (!front.ok()) return front.status();
    s->front_end_ = *std::move(front);
  }
  s->auth_ = std::make_unique<OrganiserAuth>(options.organiser_token);
  const service::Limits& limits = options.manager.limits;
  const std::string address = absl::StrCat(options.host, ":", options.port);
  // Connections are counted by our own listener (fd budget:
  // connection_limiter.h), plaintext and TLS alike.
  const int max_connections =
      FitConnectionCap(limits.max_connections, OpenFileLimit());
  if (max_connections > 0) {
    absl::StatusOr<std::unique_ptr<ConnectionLimiter>> limiter =
        ConnectionLimiter::Listen(options.host, options.port, max_connections,
                                  limits.max_connections_per_address,
                                  limits.max_connection_idle_ms);
    if (!limiter.ok()) return limiter.status();
    s->connections_ = *std::move(limiter);
    if (s->metrics_ != nullptr) {
      s->metrics_->set_connection_limiter(s->connections_);
    }
  }
  ConnectionLimiter* connections = s->connections_.get();
  s->gate_ = std::make_unique<CallGate>(limits, options.manager.clock);
  if (connections != nullptr) {
    s->gate_->set_client_of([connections](const std::string& peer) {
      return connections->ClientOf(peer);
    });
  }
  s->tarpit_ = std::make_shared<RefusalTarpit>(limits, options.manager.clock);
  if (s->metrics_ != nullptr) s->metrics_->set_refusal_tarpit(s->tarpit_);
  s->service_ = std::make_unique<RefereeService>(
      s->manager_.get(), s->auth_.get(), s->gate_.get(), s->tarpit_.get());
  s->health_ = std::make_unique<HealthService>(s->gate_.get(),
                                               s->manager_->metrics());
  s->reflection_ = std::make_unique<ReflectionService>(
      std::vector<std::string>{v1::Referee::service_full_name(),
                               grpc::health::v1::Health::service_full_name(),
                               grpc::reflection::v1alpha::ServerReflection::
                                   service_full_name()},
      s->gate_.get(), s->manager_->metrics());
  grpc::ServerBuilder builder;
  // gRPC's default health service (if another server in this process
  // enabled it) would take the name of ours.
  builder.SetOption(
      std::make_unique<grpc::HealthCheckServiceServerBuilderOption>(nullptr));
  if (limits.max_request_bytes > 0) {
    builder.SetMaxReceiveMessageSize(limits.max_request_bytes);
  }
  AddConnectionLimits(limits, builder);
  if (connections == nullptr) {
    builder.AddListeningPort(address, *credentials, &s->port_);
  } else {
    s->acceptor_ = builder.experimental().AddExternalConnectionAcceptor(
        grpc::ServerBuilder::experimental_type::ExternalConnectionType::FROM_FD,
        *credentials);
  }
  builder.RegisterService(s->service_.get());
  builder.RegisterService(s->health_.get());
  builder.RegisterService(s->reflection_.get());
  s->server_ = builder.BuildAndStart();
  if (connections != nullptr && s->server_ != nullptr) {
    s->port_ = connections->port();
    connections->Start(s->acceptor_.get());
  }
  if (s->server_ == nullptr || s->port_ == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  if (s->metrics_ != nullptr) s->metrics_->set_grpc_port(s->port_);
  return s;
}

std::string RefereeServer::address() const {
  return absl::StrCat(host_, ":", port_);
}

void RefereeServer::Shutdown(absl::Duration grace) {
  if (shut_down_.exchange(true)) return;
  health_->Shutdown();
  if (front_end_ != nullptr) front_end_->Stop();
  if (connections_ != nullptr) connections_->Stop();  // no new connection
  tarpit_->Stop();  // gRPC's shutdown waits for every held answer
  server_->Shutdown(absl::ToChronoTime(absl::Now() + grace));
}

service::ShutdownSummary RefereeServer::ShutDownGracefully(
    absl::Duration grace) {
  // Probes see it at once; the listener stays up meanwhile, and bots finish
  // their games over it.
  health_->SetServing(false);
  service::ShutdownSummary summary =
      service::ShutDownMatches(*manager_, grace);
  // Every match is over: streams end at once, the rest get a moment.
  Shutdown(absl::Seconds(1));
  return summary;
}

RefereeServer::~RefereeServer() {
  if (server_ != nullptr) {
    Shutdown(absl::Seconds(1));
    server_->Wait();
  }
  front_end_.reset();  // it follows the manager's matches
  manager_.reset();  // after the server: no handler still uses it
}

}  // namespace cardref::grpc_service
