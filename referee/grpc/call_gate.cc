#include "referee/grpc/call_gate.h"

#include <algorithm>


#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "referee/grpc/organiser_token.h"
#include "referee/service/text_limits.h"

namespace cardref::grpc_service {

namespace {

// Huge tokens must not grow a key (rate_limit.h bounds their number): a
// real token or bearer credential is at most kMaxSecretChars long, so a
// longer one (refused later anyway) is tracked by its prefix.
absl::string_view KeyPart(absl::string_view secret) {
  return secret.substr(0, service::kMaxSecretChars);
}

}  // namespace

CallGate::CallGate(const service::Limits& limits, const service::Clock* clock)
    : per_token_(limits.calls_per_second_per_token, limits.burst_per_token,
                 clock, service::kMaxTrackedCallers),
      per_peer_(limits.calls_per_second_per_peer, limits.burst_per_peer, clock,
                service::kMaxTrackedCallers),
      seat_streams_(limits.max_streams_per_seat),
      event_streams_(limits.max_event_streams),
      spectator_streams_(
          limits.max_event_streams > 0
              ? std::max(1, limits.max_event_streams -
                                std::max(0, limits.organiser_event_streams))
              : 0),
      client_event_streams_(limits.max_event_streams_per_client),
      service_streams_(limits.max_service_streams_per_connection) {}

std::string CallGate::PeerKey(const grpc::ServerContextBase& context) const {
  std::string peer = context.peer();
  // The port differs per connection; the address is the client.
  const size_t colon = peer.rfind(':');
  if (colon == std::string::npos || !absl::StartsWith(peer, "ip")) return peer;
  return peer.substr(0, colon);
}

std::string CallGate::TokenKey(const grpc::ServerContextBase& context,
                               absl::string_view token) {
  if (!token.empty()) return absl::StrCat("seat:", KeyPart(token));
  const auto& metadata = context.client_metadata();
  auto it = metadata.find("authorization");
  if (it == metadata.end()) return "";
  return absl::StrCat("bearer:", KeyPart(absl::string_view(
                                     it->second.data(), it->second.size())));
}

std::string CallGate::CallerKey(const grpc::ServerContextBase& context,
                                absl::string_view token) const {
  std::string key = TokenKey(context, token);
  return key.empty() ? AddressKey(context) : key;
}

std::string CallGate::AddressKey(const grpc::ServerContextBase& context) const {
  return absl::StrCat("peer:", PeerKey(context));
}

absl::Status CallGate::Admit(const grpc::ServerContextBase& context,
                             absl::string_view token) {
  return Admit(KeysOf(context, token));
}

CallGate::CallerKeys CallGate::KeysOf(const grpc::ServerContextBase& context,
                                      absl::string_view token) const {
  CallerKeys keys;
  if (per_token_.enabled()) keys.token = TokenKey(context, token);
  if (per_peer_.enabled()) keys.peer = PeerKey(context);
  return keys;
}

absl::Status CallGate::Admit(const CallerKeys& keys) {
  // The token first: a flooder exhausts its own bucket and its refused
  // calls take nothing from other clients at the same address.
  // (A limiter that is off admits every call at once.)
  if (!keys.token.empty()) {
    if (absl::Status st = per_token_.Admit("calls per token", keys.token);
        !st.ok()) {
      return st;
    }
  }
  return per_peer_.Admit("calls per client address", keys.peer);
}

absl::StatusOr<service::StreamSlot> CallGate::OpenSeatStream(
    const std::string& match_id, int seat) {
  return seat_streams_.Acquire(absl::StrCat("seat ", seat),
                               absl::StrCat(match_id, "/", seat));
}

absl::StatusOr<std::vector<service::StreamSlot>> CallGate::OpenEventStream(
    const grpc::ServerContextBase& context, bool organiser) {
  std::vector<service::StreamSlot> slots;
  if (!organiser) {
    absl::StatusOr<service::StreamSlot> client = client_event_streams_.Acquire(
        "this client's WatchMatch streams (one address, or one user on the "
        "referee's machine)",
        ClientKey(context));
    if (!client.ok()) return client.status();
    slots.push_back(*std::move(client));
    absl::StatusOr<service::StreamSlot> shared = spectator_streams_.Acquire(
        "the spectators' WatchMatch streams (what --organiser_event_streams "
        "leaves of --max_event_streams)",
        "");
    if (!shared.ok()) return shared.status();
    slots.push_back(*std::move(shared));
  }
  absl::StatusOr<service::StreamSlot> total = event_streams_.Acquire(
      "this referee (all WatchMatch and WatchMatchFull streams)", "");
  if (!total.ok()) return total.status();
  slots.push_back(*std::move(total));
  return slots;
}

std::string CallGate::ClientKey(const grpc::ServerContextBase& context) const {
  if (client_of_) {
    std::string key = client_of_(context.peer());
    if (!key.empty()) return absl::StrCat("client:", key);
  }
  return AddressKey(context);
}

absl::StatusOr<service::StreamSlot> CallGate::OpenServiceStream(
    const grpc::ServerContextBase& context) {
  if (absl::Status st = Admit(context, ""); !st.ok()) return st;
  // The peer with its port names one connection.
  return service_streams_.Acquire(
      "this connection (Health/Watch and ServerReflectionInfo)",
      context.peer());
}

}  // namespace cardref::grpc_service
