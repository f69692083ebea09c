// The organiser's credential: a bearer token, sent by clients as the gRPC
// metadata `authorization: Bearer <token>` (docs/auth.md). Only the organiser
// may create, list, cancel and abort matches, stream a match's full state
// and read log locations. Without a configured token every caller counts as
// the organiser, which the server allows only on loopback (server.cc), with
// one exception: a caller from a bot address (a sandboxed bot's forwarder
// connects from 127.0.0.2, sandbox/forwarder.h) is never the organiser,
// with or without a token.
#ifndef CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_
#define CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"

namespace cardref::grpc_service {

// The callers sandboxed bots' forwarders connect from by default
// (cardref_referee --bot_addresses).
inline constexpr char kDefaultBotAddress[] = "127.0.0.2";

// The address of `text` (an IPv4 or IPv6 literal) as 4 or 16 bytes, an
// IPv4-mapped IPv6 address as its 4; INVALID_ARGUMENT naming `flag`.
[[nodiscard]] absl::StatusOr<std::string> ParseBotAddress(
    absl::string_view flag, absl::string_view text);

// The address of a gRPC peer ("ipv4:127.0.0.2:5000", "ipv6:[::1]:5000"),
// as ParseBotAddress gives it; nullopt for another kind of peer (unix:).
std::optional<std::string> PeerAddress(absl::string_view peer);

// Thread-safe (immutable).
class OrganiserAuth {
 public:
  // `bot_addresses`: as ParseBotAddress returns them.
  explicit OrganiserAuth(std::optional<std::string> token,
                         std::vector<std::string> bot_addresses = {})
      : token_(std::move(token)), bot_addresses_(std::move(bot_addresses)) {}

  bool configured() const { return token_.has_value(); }

  // OK if the call carries the organiser credential (or none is
  // configured) and does not come from a bot address. UNAUTHENTICATED
  // without a well-formed bearer token, PERMISSION_DENIED for a token that
  // is not the organiser's (a seat token, say) or a call from a bot
  // address. `what` names the call in the message.
  absl::Status Check(const grpc::ServerContextBase& context,
                     const char* what) const;
  bool IsOrganiser(const grpc::ServerContextBase& context) const {
    return Check(context, "").ok();
  }
  // The peer `peer` (ServerContextBase::peer()) is one of the bot
  // addresses.
  bool FromBotAddress(absl::string_view peer) const;

 private:
  const std::optional<std::string> token_;
  const std::vector<std::string> bot_addresses_;
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_ORGANISER_AUTH_H_
