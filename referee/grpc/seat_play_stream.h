// PlaySeat: a seat played on one bidirectional stream (referee.proto). The
// first message names the seat and is checked as WatchObservations' request
// is (call gate, unknown fields, token, the seat's stream slot); each later
// one is an action, checked and applied as SubmitAction's
// (Match::SubmitThen) and answered only if refused. One action is in
// flight: the next is read once the last is answered and a refusal
// written, so a flood on a stream waits on its own answers and holds one
// message of memory. The observations are WatchObservations' (SeatFeed),
// so the seat's clock and disconnect detection are the same.
#ifndef CARDREF_REFEREE_GRPC_SEAT_PLAY_STREAM_H_
#define CARDREF_REFEREE_GRPC_SEAT_PLAY_STREAM_H_

#include <functional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/referee.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/call_gate.h"
#include "referee/service/match_manager.h"

namespace cardref::grpc_service {

struct SeatPlayDeps {
  service::MatchManager* manager = nullptr;  // not owned
  CallGate* gate = nullptr;  // not owned; none: no stream slot is taken
  // The call gate's verdict on a message keyed by `token` (each message
  // counts as a call).
  std::function<absl::Status(absl::string_view token)> admit;
};

grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
NewSeatPlayStream(SeatPlayDeps deps);

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_SEAT_PLAY_STREAM_H_
