// WatchObservations: a seat's observation each time it must act, and once
// at the end. The seat's decision clock starts when the message is written,
// not when it is built (a busy referee's delay in sending is not the
// seat's); each observation is built on an arena and dropped before the
// next.
#ifndef CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_
#define CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>

#include "cardref/v1/game.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/match.h"
#include "referee/service/stream_budget.h"

namespace cardref::grpc_service {

// Starts streaming `seat`'s observations of `match` (the seat's token
// already checked), with the actions after `since_version` in the first;
// the stream holds `slot` (call_gate.h) until it is done.
grpc::ServerWriteReactor<v1::Observation>* NewObservationStream(
    std::shared_ptr<service::Match> match, int seat, std::string token,
    uint64_t since_version, service::StreamSlot slot = {});

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_OBSERVATION_STREAM_H_
