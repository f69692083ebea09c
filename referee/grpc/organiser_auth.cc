#include "referee/grpc/organiser_auth.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "referee/grpc/organiser_token.h"
#include "referee/service/token.h"

namespace cardref::grpc_service {
namespace {

// 4 bytes for IPv4 (and IPv4-mapped IPv6), 16 for IPv6; nullopt otherwise.
std::optional<std::string> AddressBytes(const std::string& text) {
  in_addr v4;
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    return std::string(reinterpret_cast<const char*>(&v4), sizeof(v4));
  }
  in6_addr v6;
  if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_V4MAPPED(&v6)) {
      return std::string(reinterpret_cast<const char*>(&v6.s6_addr[12]), 4);
    }
    return std::string(reinterpret_cast<const char*>(&v6), sizeof(v6));
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<std::string> ParseBotAddress(absl::string_view flag,
                                            absl::string_view text) {
  std::optional<std::string> bytes = AddressBytes(std::string(text));
  if (!bytes.has_value()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " takes IP addresses (e.g. ", kDefaultBotAddress,
                     "), not '", text, "'"));
  }
  return *bytes;
}

std::optional<std::string> PeerAddress(absl::string_view peer) {
  // gRPC writes the brackets of an IPv6 peer as they are or URI-escaped.
  std::string text = absl::StrReplaceAll(peer, {{"%5B", "["}, {"%5D", "]"}});
  absl::string_view rest = text;
  if (!absl::ConsumePrefix(&rest, "ipv4:") &&
      !absl::ConsumePrefix(&rest, "ipv6:")) {
    return std::nullopt;
  }
  const size_t colon = rest.rfind(':');
  if (colon == absl::string_view::npos) return std::nullopt;
  rest = rest.substr(0, colon);  // the port is the connection's, not the host's
  absl::ConsumePrefix(&rest, "[");
  absl::ConsumeSuffix(&rest, "]");
  return AddressBytes(std::string(rest));
}

bool OrganiserAuth::FromBotAddress(absl::string_view peer) const {
  if (bot_addresses_.empty()) return false;
  const std::optional<std::string> address = PeerAddress(peer);
  return address.has_value() &&
         std::find(bot_addresses_.begin(), bot_addresses_.end(), *address) !=
             bot_addresses_.end();
}

absl::Status OrganiserAuth::Check(const grpc::ServerContextBase& context,
                                  const char* what) const {
  // First: a sandboxed bot reaches the referee only through its forwarder,
  // from a bot address, and must never act as the organiser, whatever it
  // sends and whether or not the referee has a credential.
  if (FromBotAddress(context.peer())) {
    return absl::PermissionDeniedError(absl::StrCat(
        what, " is for the organiser, and this call comes from a bot "
        "address (--bot_addresses: a sandboxed bot's connection), which is "
        "never the organiser's"));
  }
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
