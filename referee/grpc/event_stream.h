// WatchMatch / WatchMatchFull: a match's events, in order, resumable from
// an index (referee/service/match_events.h says who sees what). One reactor
// per stream; it writes one event at a time and asks the match for more only
// when the previous write is done, so a slow reader costs a bounded buffer.
#ifndef CARDREF_REFEREE_GRPC_EVENT_STREAM_H_
#define CARDREF_REFEREE_GRPC_EVENT_STREAM_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "cardref/v1/referee.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/match.h"
#include "referee/service/stream_budget.h"

namespace cardref::grpc_service {

// Starts streaming `match`'s events with index > after_index to `audience`;
// the stream holds `slots` (call_gate.h) until it is done.
grpc::ServerWriteReactor<v1::MatchEvent>* NewEventStream(
    std::shared_ptr<service::Match> match, service::Audience audience,
    uint64_t after_index, uint32_t delay_decisions,
    std::vector<service::StreamSlot> slots = {},
    service::MetricsSink* metrics = service::NoMetrics());

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_EVENT_STREAM_H_
