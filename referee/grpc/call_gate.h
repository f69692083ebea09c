// What every call passes before it reaches a match: the calls-per-second
// limits per caller token and per peer (service/rate_limit.h), and the
// stream caps (service/stream_budget.h). Refusals are RESOURCE_EXHAUSTED and
// cost a hash lookup, never a match's lock, so a flood from one client does
// not slow the others' matches. docs/limits.md.
#ifndef CARDREF_REFEREE_GRPC_CALL_GATE_H_
#define CARDREF_REFEREE_GRPC_CALL_GATE_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/clock.h"
#include "referee/service/limits.h"
#include "referee/service/rate_limit.h"
#include "referee/service/stream_budget.h"

namespace cardref::grpc_service {

// Thread-safe.
class CallGate {
 public:
  CallGate(const service::Limits& limits, const service::Clock* clock);

  // One call of `context` by the holder of `token` (a seat's token or
  // ticket; empty: the organiser's bearer token from the metadata, if any).
  absl::Status Admit(const grpc::ServerContextBase& context,
                     absl::string_view token);

  // What Admit charges a call to. A stream works them out once and has
  // each of its messages admitted with them.
  struct CallerKeys {
    std::string token;  // TokenKey: "" when there is none
    std::string peer;   // PeerKey: "" when per-address limits are off
  };
  CallerKeys KeysOf(const grpc::ServerContextBase& context,
                    absl::string_view token) const;
  absl::Status Admit(const CallerKeys& keys);

  // A slot for one observation stream of a seat.
  absl::StatusOr<service::StreamSlot> OpenSeatStream(
      const std::string& match_id, int seat);
  // The slots one event stream holds: one of the process's
  // max_event_streams, and unless it is the `organiser`'s, one of the
  // spectators' share (what organiser_event_streams leaves) and one of its
  // client's (max_event_streams_per_client).
  absl::StatusOr<std::vector<service::StreamSlot>> OpenEventStream(
      const grpc::ServerContextBase& context, bool organiser);
  // Admits the call (as Admit, with no token), then takes a slot for one
  // Health/Watch or ServerReflectionInfo stream on `context`'s connection.
  absl::StatusOr<service::StreamSlot> OpenServiceStream(
      const grpc::ServerContextBase& context);

  // "ipv4:127.0.0.1:5555" -> "ipv4:127.0.0.1".
  std::string PeerKey(const grpc::ServerContextBase& context) const;
  // Who makes the call, for per-caller quotas: the token's key if there is
  // one (as Admit takes it), else the peer's address.
  std::string CallerKey(const grpc::ServerContextBase& context,
                        absl::string_view token) const;
  // The caller by its address alone, a key apart from every token's.
  std::string AddressKey(const grpc::ServerContextBase& context) const;
  // The client of `context`: its address, and on this machine the user
  // whose process connected, when `client_of` (set at start, before any
  // call) can tell (the connection limiter's key); else AddressKey.
  std::string ClientKey(const grpc::ServerContextBase& context) const;
  void set_client_of(std::function<std::string(const std::string& peer)> f) {
    client_of_ = std::move(f);
  }

 private:
  // "seat:" + `token`, else "bearer:" + the organiser's bearer token, else "".
  static std::string TokenKey(const grpc::ServerContextBase& context,
                              absl::string_view token);

  service::RateLimiter per_token_;
  service::RateLimiter per_peer_;
  service::StreamBudget seat_streams_;
  service::StreamBudget event_streams_;
  service::StreamBudget spectator_streams_;  // the spectators' share
  service::StreamBudget client_event_streams_;  // per client
  std::function<std::string(const std::string& peer)> client_of_;
  service::StreamBudget service_streams_;  // per connection
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_CALL_GATE_H_
