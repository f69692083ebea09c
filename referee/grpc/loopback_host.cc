#include "referee/grpc/loopback_host.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/grpc/loopback_peer.h"
#include "referee/grpc/organiser_token.h"

namespace cardref::grpc_service {

bool AllLoopback(const std::vector<sockaddr_storage>& addresses) {
  if (addresses.empty()) return false;
  for (const sockaddr_storage& a : addresses) {
    if (!IsLoopback(a)) return false;
  }
  return true;
}

std::string AddressText(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = "?";
  if (address.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr,
              text, sizeof(text));
  } else if (address.ss_family == AF_INET6) {
    inet_ntop(AF_INET6,
              &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text,
              sizeof(text));
  }
  return text;
}

absl::StatusOr<std::vector<sockaddr_storage>> ResolveListenAddresses(
    const std::string& host) {
  std::string name = host;
  if (absl::StartsWith(name, "[") && absl::EndsWith(name, "]")) {
    name = name.substr(1, name.size() - 2);
  }
  // The hints of ConnectionLimiter::Listen: what a listener binds.
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  if (int rc = getaddrinfo(name.empty() ? nullptr : name.c_str(), "0", &hints,
                           &found);
      rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  std::vector<sockaddr_storage> addresses;
  for (const addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    if (ai->ai_addrlen > sizeof(sockaddr_storage)) continue;
    sockaddr_storage a{};
    std::memcpy(&a, ai->ai_addr, ai->ai_addrlen);
    addresses.push_back(a);
  }
  freeaddrinfo(found);
  return addresses;
}

bool IsLoopbackHost(const std::string& host) {
  absl::StatusOr<std::vector<sockaddr_storage>> addresses =
      ResolveListenAddresses(host);
  return addresses.ok() && AllLoopback(*addresses);
}

absl::Status CheckListenHost(absl::string_view flag, const std::string& host,
                             bool has_credential) {
  if (has_credential) return absl::OkStatus();
  absl::StatusOr<std::vector<sockaddr_storage>> addresses =
      ResolveListenAddresses(host);
  if (addresses.ok() && AllLoopback(*addresses)) return absl::OkStatus();
  std::string why;
  if (!addresses.ok()) {
    why = absl::StrCat(flag, "=", host, ": ", addresses.status().message(),
                       ", so it cannot be shown to be loopback");
  } else {
    std::vector<std::string> texts;
    for (const sockaddr_storage& a : *addresses) {
      const std::string text = AddressText(a);
      if (std::find(texts.begin(), texts.end(), text) == texts.end()) {
        texts.push_back(text);
      }
    }
    why = absl::StrCat(flag, "=", host, " resolves to ",
                       absl::StrJoin(texts, ", "),
                       texts.size() == 1 ? ", which is not loopback"
                                         : ", not all loopback");
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "refusing to listen on ", host, " without an organiser credential: ",
      why,
      "; anyone who can reach it could create and abort matches or read "
      "the referee's state. Give --organiser_token_file (or $",
      kOrganiserTokenEnv,
      "), or listen on localhost (docs/auth.md)"));
}

}  // namespace cardref::grpc_service
