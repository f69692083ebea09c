// A sandboxed bot's way to its referee: the address its forwarder
// (sandbox/forwarder.h) connects to, from a bot address, and a check, made
// before the event plays, that a connection made that way is never the
// organiser's (docs/auth.md, "Sandboxed bots").
#ifndef CARDREF_TOURNAMENT_BOT_PATH_H_
#define CARDREF_TOURNAMENT_BOT_PATH_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "sandbox/sandbox.h"

namespace cardref::tournament {

// The address sandboxed bots' connections come from on a loopback referee:
// the referee's default --bot_addresses.
inline constexpr char kBotSourceAddress[] = "127.0.0.2";

// `server` ("host:port", "[v6]:port") as the forwarders' target: the host's
// IPv4 address when it has one (a referee on "localhost" listens there),
// and, when that is loopback, kBotSourceAddress as the connections' source
// address. INVALID_ARGUMENT for a server without a port; NOT_FOUND for a
// host that does not resolve.
[[nodiscard]] absl::StatusOr<sandbox::RefereeAddress> BotsRefereeAddress(
    const std::string& server);

// Connects to `referee` as a bot's forwarder does (a socket in
// `work_dir`) and makes an organiser's call (ListMatches) without a
// credential: OK when the referee refuses it. FAILED_PRECONDITION, saying
// what to do, when the referee takes it (one without a credential that
// does not count kBotSourceAddress as a bot's); UNAVAILABLE when the
// referee cannot be reached that way.
[[nodiscard]] absl::Status CheckBotsAreNotOrganiser(
    const sandbox::RefereeAddress& referee, const std::string& work_dir);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_PATH_H_
