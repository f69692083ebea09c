#include "referee/grpc/server.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "referee/games/all_games.h"

namespace cardref::grpc_service {

absl::StatusOr<std::unique_ptr<RefereeServer>> RefereeServer::Start(
    ServerOptions options) {
  std::unique_ptr<RefereeServer> s(new RefereeServer);
  s->host_ = options.host;
  s->manager_ = std::make_unique<service::MatchManager>(&AllGames(),
                                                        options.manager);
  s->service_ = std::make_unique<RefereeService>(s->manager_.get());
  // Both must be enabled before the builder builds the server.
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  const std::string address = absl::StrCat(options.host, ":", options.port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(),
                           &s->port_);
  builder.RegisterService(s->service_.get());
  s->server_ = builder.BuildAndStart();
  if (s->server_ == nullptr || s->port_ == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  return s;
}

std::string RefereeServer::address() const {
  return absl::StrCat(host_, ":", port_);
}

void RefereeServer::Shutdown(absl::Duration grace) {
  if (shut_down_.exchange(true)) return;
  server_->Shutdown(absl::ToChronoTime(absl::Now() + grace));
}

RefereeServer::~RefereeServer() {
  if (server_ != nullptr) {
    Shutdown(absl::Seconds(1));
    server_->Wait();
  }
  manager_.reset();  // after the server: no handler still uses it
}

}  // namespace cardref::grpc_service
