#include "tournament/bot_path.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "sandbox/forwarder.h"

namespace cardref::tournament {
namespace {

// The first IPv4 address of `host`, numeric; nullopt if it has none.
std::optional<std::string> Ipv4Of(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 ||
      found == nullptr) {
    return std::nullopt;
  }
  char text[INET_ADDRSTRLEN] = {};
  const auto* address = reinterpret_cast<const sockaddr_in*>(found->ai_addr);
  const bool ok =
      inet_ntop(AF_INET, &address->sin_addr, text, sizeof(text)) != nullptr;
  freeaddrinfo(found);
  if (!ok) return std::nullopt;
  return std::string(text);
}

}  // namespace

absl::StatusOr<sandbox::RefereeAddress> BotsRefereeAddress(
    const std::string& server) {
  absl::string_view rest = server;
  absl::ConsumePrefix(&rest, "dns:///");
  absl::ConsumePrefix(&rest, "ipv4:");
  const size_t colon = rest.rfind(':');
  int port = 0;
  if (colon == absl::string_view::npos ||
      !absl::SimpleAtoi(rest.substr(colon + 1), &port) || port <= 0 ||
      port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sandboxed bots reach their referee through a forwarder to a TCP "
        "address: give --server as HOST:PORT, not '",
        server, "'"));
  }
  absl::string_view host = rest.substr(0, colon);
  absl::ConsumePrefix(&host, "[");
  absl::ConsumeSuffix(&host, "]");
  sandbox::RefereeAddress address;
  address.port = port;
  address.host = std::string(host);
  if (std::optional<std::string> v4 = Ipv4Of(address.host)) {
    address.host = *v4;
    in_addr parsed{};
    if (inet_pton(AF_INET, v4->c_str(), &parsed) == 1 &&
        (ntohl(parsed.s_addr) >> 24) == 127) {
      address.source_address = kBotSourceAddress;
    }
    return address;
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(address.host.c_str(), nullptr, &hints, &found) != 0) {
    return absl::NotFoundError(absl::StrCat(
        "the referee's host '", address.host, "' does not resolve"));
  }
  freeaddrinfo(found);
  return address;  // IPv6 only: no bot address of its own
}

absl::Status CheckBotsAreNotOrganiser(const sandbox::RefereeAddress& referee,
                                      const std::string& work_dir) {
  sandbox::ForwarderOptions forward;
  forward.socket_path = absl::StrCat(work_dir, "/probe.sock");
  forward.target_host = referee.host;
  forward.target_port = referee.port;
  forward.source_address = referee.source_address;
  absl::StatusOr<std::unique_ptr<sandbox::SocketForwarder>> forwarder =
      sandbox::SocketForwarder::Start(forward);
  if (!forwarder.ok()) return forwarder.status();
  auto stub = v1::Referee::NewStub(grpc::CreateChannel(
      absl::StrCat("unix:", forward.socket_path),
      grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  v1::ListMatchesRequest request;
  request.set_page_size(1);
  v1::ListMatchesResponse listed;
  const grpc::Status s = stub->ListMatches(&context, request, &listed);
  const std::string where =
      absl::StrCat(referee.host, ":", referee.port,
                   referee.source_address.empty()
                       ? ""
                       : absl::StrCat(" from ", referee.source_address));
  if (s.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the referee takes a sandboxed bot's connection (", where,
        ") for the organiser's, so a bot could end or watch any match: give "
        "it an organiser credential (--organiser_token_file, and the same to "
        "this tournament), or start it with --bot_addresses=",
        kBotSourceAddress, " (the default of this build's referee)"));
  }
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
      s.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
    return absl::OkStatus();
  }
  return absl::UnavailableError(absl::StrCat(
      "sandboxed bots cannot reach the referee through their forwarder (",
      where, "): ", s.error_message()));
}

}  // namespace cardref::tournament
