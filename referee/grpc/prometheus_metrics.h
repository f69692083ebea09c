// The referee's metrics as Prometheus exposition text on GET /metrics, on
// a port of its own (cardref_referee --metrics_port). docs/operations.md
// lists every metric with its type and labels.
#ifndef CARDREF_REFEREE_GRPC_PROMETHEUS_METRICS_H_
#define CARDREF_REFEREE_GRPC_PROMETHEUS_METRICS_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/counter.h"
#include "prometheus/exposer.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "referee/service/metrics_sink.h"

namespace cardref::grpc_service {

class ConnectionLimiter;
class RefusalTarpit;

// The metrics server's bounds (docs/limits.md). civetweb serves each
// connection on one of its threads from accept to close, so a client that
// connects and sends nothing, or half a request, holds a thread until the
// request timeout (civetweb's default: 30 s). With several threads and a
// short timeout, a few such clients cannot delay a scrape, and the server
// uses a fixed number of threads (these plus civetweb's one accepting
// thread) whatever its clients do. Keep-alive is off: a connection serves
// one request.
inline constexpr int kMetricsServerThreads = 8;
// A whole request (its headers) must arrive within this; also bounds each
// write of the answer.
inline constexpr int kMetricsRequestTimeoutMs = 2000;

// Thread-safe.
class PrometheusMetrics : public service::MetricsSink {
 public:
  // Serves /metrics on host:port; port 0 picks a free one.
  static absl::StatusOr<std::unique_ptr<PrometheusMetrics>> Start(
      const std::string& host, int port);
  ~PrometheusMetrics() override;

  int port() const { return port_; }
  // The gRPC port, whose established connections are counted (at scrape
  // time, from /proc/net/tcp and tcp6).
  void set_grpc_port(int port) { grpc_port_ = port; }
  // The tarpit whose held and delayed refusals are reported (at scrape
  // time); shared, so a scrape never outlives it.
  void set_refusal_tarpit(std::shared_ptr<const RefusalTarpit> tarpit);
  // The listener whose refused connections are reported (at scrape time).
  void set_connection_limiter(
      std::shared_ptr<const ConnectionLimiter> connections);

  void MatchStatusChanged(absl::string_view game, v1::MatchStatus from,
                          v1::MatchStatus to) override;
  void RecordWritten(absl::string_view game, const v1::LogRecord& record,
                     uint64_t bytes) override;
  void StreamOpened(absl::string_view kind) override;
  void StreamClosed(absl::string_view kind) override;
  void InvitationsNow(int bots_connected, int streams, int queued,
                      int outstanding) override;
  void InvitationCounted(absl::string_view what) override;

 private:
  class ProcessCollector;
  PrometheusMetrics();

  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<ProcessCollector> process_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  int port_ = 0;
  std::atomic<int> grpc_port_{0};

  prometheus::Family<prometheus::Gauge>& matches_;
  prometheus::Family<prometheus::Counter>& matches_ended_;
  prometheus::Family<prometheus::Counter>& decisions_;
  prometheus::Family<prometheus::Histogram>& decision_seconds_;
  prometheus::Family<prometheus::Counter>& rejected_;
  prometheus::Family<prometheus::Counter>& timeouts_;
  prometheus::Family<prometheus::Counter>& substitutions_;
  prometheus::Family<prometheus::Counter>& forfeits_;
  prometheus::Family<prometheus::Counter>& log_bytes_;
  prometheus::Family<prometheus::Gauge>& streams_;
  prometheus::Gauge& bots_connected_;
  prometheus::Gauge& invitation_streams_;
  prometheus::Gauge& invitations_queued_;
  prometheus::Gauge& invitations_outstanding_;
  prometheus::Family<prometheus::Counter>& invitations_;
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_PROMETHEUS_METRICS_H_
