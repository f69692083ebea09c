// What the referee counts for operators, without knowing how it is shown:
// Match and MatchManager report here, referee/grpc/prometheus_metrics.h
// turns it into Prometheus metrics (docs/operations.md lists them). No
// Prometheus, no gRPC here.
#ifndef CARDREF_REFEREE_SERVICE_METRICS_SINK_H_
#define CARDREF_REFEREE_SERVICE_METRICS_SINK_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"

namespace cardref::service {

// Every method is called often, some with a match's lock held: keep them
// cheap and never call back into a match. Implementations are thread-safe.
// The default does nothing.
class MetricsSink {
 public:
  virtual ~MetricsSink() = default;

  // A match of `game` moved from `from` to `to`. A new match arrives from
  // MATCH_STATUS_UNSPECIFIED; a match leaving memory goes to it.
  virtual void MatchStatusChanged(absl::string_view /*game*/,
                                  v1::MatchStatus /*from*/,
                                  v1::MatchStatus /*to*/) {}

  // `record` was written to the log of a match of `game`, taking `bytes`
  // bytes of the file (framing included). Decisions, rejections, faults
  // and forfeits are counted from these records, so the metrics agree with
  // the logs by construction.
  virtual void RecordWritten(absl::string_view /*game*/,
                             const v1::LogRecord& /*record*/,
                             uint64_t /*bytes*/) {}

  // Observation and event streams (`kind`: "observation", "events").
  virtual void StreamOpened(absl::string_view /*kind*/) {}
  virtual void StreamClosed(absl::string_view /*kind*/) {}

  // The invitation board now (invitation_board.h): entrants with at least
  // one WatchInvitations stream open, those streams, invitations waiting
  // for a stream with room, and seats sent or joined by credential whose
  // matches are not over.
  virtual void InvitationsNow(int /*bots_connected*/, int /*streams*/,
                              int /*queued*/, int /*outstanding*/) {}
  // One invitation: "sent", "requeued" (its stream closed before the seat
  // was joined) or "dropped" (its match started or ended before any stream
  // took it).
  virtual void InvitationCounted(absl::string_view /*what*/) {}
};

// The shared do-nothing sink.
inline MetricsSink* NoMetrics() {
  static MetricsSink none;
  return &none;
}

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_METRICS_SINK_H_
