// Whether a listener may take a host without an organiser credential: only
// if every address the host resolves to is loopback (127.0.0.0/8, ::1,
// ::ffff:127.0.0.0/104). The spelling proves nothing: "127.evil.example"
// may resolve to 0.0.0.0, and "0" is inet_aton's 0.0.0.0. One rule for
// every listener of the referee (the gRPC port, the metrics port, and any
// front end to come): docs/auth.md, "The organiser credential".
//
// The resolution is getaddrinfo's, with the hints a listener binds with
// (AI_PASSIVE, any family), so the addresses checked are those it would
// bind. A name is resolved again when the listener binds; a resolver that
// answers differently between the two calls is the host's own (/etc/hosts,
// its DNS), not a stranger's. Thread-safe (getaddrinfo is).
#ifndef CARDREF_REFEREE_GRPC_LOOPBACK_HOST_H_
#define CARDREF_REFEREE_GRPC_LOOPBACK_HOST_H_

#include <sys/socket.h>

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::grpc_service {

// True if `addresses` is not empty and every one is loopback.
bool AllLoopback(const std::vector<sockaddr_storage>& addresses);

// The numeric address ("127.0.0.1", "::1"), without the port.
std::string AddressText(const sockaddr_storage& address);

// The addresses a TCP listener on `host` would bind ("[::1]" is "::1"; ""
// is the wildcard). UNAVAILABLE if the name does not resolve.
[[nodiscard]] absl::StatusOr<std::vector<sockaddr_storage>>
ResolveListenAddresses(const std::string& host);

// `host` resolves, and only to loopback addresses.
bool IsLoopbackHost(const std::string& host);

// OK if the listener named by `flag` (e.g. "--metrics_host") may listen on
// `host`: it has a credential to guard it, or `host` is loopback only.
// Else FAILED_PRECONDITION saying what the host resolves to and what to do.
[[nodiscard]] absl::Status CheckListenHost(absl::string_view flag,
                                           const std::string& host,
                                           bool has_credential);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_LOOPBACK_HOST_H_
