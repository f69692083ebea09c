#include "referee/grpc/prometheus_metrics.h"

#include <dirent.h>
#include <sys/resource.h>

#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"
#include "referee/grpc/connection_limiter.h"
#include "referee/grpc/refusal_tarpit.h"

namespace cardref::grpc_service {

namespace {

// "in_progress" for MATCH_STATUS_IN_PROGRESS.
std::string StatusLabel(v1::MatchStatus status) {
  std::string name = v1::MatchStatus_Name(status);
  absl::string_view rest = name;
  absl::ConsumePrefix(&rest, "MATCH_STATUS_");
  return absl::AsciiStrToLower(rest);
}

std::string FaultLabel(v1::FaultKind kind) {
  std::string name = v1::FaultKind_Name(kind);
  absl::string_view rest = name;
  absl::ConsumePrefix(&rest, "FAULT_KIND_");
  return absl::AsciiStrToLower(rest);
}

std::string ForfeitLabel(v1::ForfeitReason reason) {
  std::string name = v1::ForfeitReason_Name(reason);
  absl::string_view rest = name;
  absl::ConsumePrefix(&rest, "FORFEIT_REASON_");
  return absl::AsciiStrToLower(rest);
}

// Entries of /proc/self/fd, or -1.
double OpenFds() {
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int n = 0;
  while (struct dirent* e = ::readdir(dir)) {
    if (e->d_name[0] != '.') ++n;
  }
  ::closedir(dir);
  return n - 1;  // not the descriptor opendir itself holds
}

double MaxFds() {
  struct rlimit limit;
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
  return static_cast<double>(limit.rlim_cur);
}

// Established TCP connections whose local port is `port`, from a
// /proc/net/tcp-style table: "sl local_address rem_address st ...", the
// addresses as HEXIP:HEXPORT, st 01 = ESTABLISHED.
int EstablishedOn(const std::string& table, int port) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // the column names
  int n = 0;
  while (std::getline(in, line)) {
    std::vector<absl::string_view> cols =
        absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (cols.size() < 4 || cols[3] != "01") continue;
    const size_t colon = cols[1].rfind(':');
    int local_port = 0;
    if (colon != absl::string_view::npos &&
        absl::SimpleHexAtoi(cols[1].substr(colon + 1), &local_port) &&
        local_port == port) {
      ++n;
    }
  }
  return n;
}

// A family of one unlabelled gauge or counter.
prometheus::MetricFamily OneValueFamily(const std::string& name,
                                        const std::string& help,
                                        prometheus::MetricType type,
                                        double value) {
  prometheus::MetricFamily family;
  family.name = name;
  family.help = help;
  family.type = type;
  prometheus::ClientMetric metric;
  (type == prometheus::MetricType::Counter ? metric.counter.value
                                           : metric.gauge.value) = value;
  family.metric.push_back(metric);
  return family;
}

prometheus::MetricFamily GaugeFamily(const std::string& name,
                                     const std::string& help, double value) {
  return OneValueFamily(name, help, prometheus::MetricType::Gauge, value);
}

prometheus::MetricFamily CounterFamily(const std::string& name,
                                       const std::string& help, double value) {
  return OneValueFamily(name, help, prometheus::MetricType::Counter, value);
}

// Connections the listener closed at once, by the cap that was reached.
prometheus::MetricFamily RefusedConnections(const ConnectionLimiter& limiter) {
  prometheus::MetricFamily family;
  family.name = "cardref_connections_refused_total";
  family.help =
      "Connections closed at once, by the cap reached (docs/limits.md)";
  family.type = prometheus::MetricType::Counter;
  const std::pair<const char*, int64_t> caps[] = {
      {"max_connections", limiter.refused()},
      {"max_connections_per_address", limiter.refused_per_address()}};
  for (const auto& [cap, refused] : caps) {
    prometheus::ClientMetric metric;
    metric.label.push_back({"cap", cap});
    metric.counter.value = static_cast<double>(refused);
    family.metric.push_back(metric);
  }
  return family;
}

}  // namespace

// Values read from the process at scrape time.
class PrometheusMetrics::ProcessCollector : public prometheus::Collectable {
 public:
  explicit ProcessCollector(const std::atomic<int>* grpc_port)
      : grpc_port_(grpc_port) {}

  void set_tarpit(std::shared_ptr<const RefusalTarpit> tarpit) {
    absl::MutexLock lock(&mu_);
    tarpit_ = std::move(tarpit);
  }
  void set_connections(std::shared_ptr<const ConnectionLimiter> connections) {
    absl::MutexLock lock(&mu_);
    connections_ = std::move(connections);
  }

  std::vector<prometheus::MetricFamily> Collect() const override {
    std::vector<prometheus::MetricFamily> out;
    out.push_back(GaugeFamily("cardref_open_fds",
                              "File descriptors the referee has open",
                              OpenFds()));
    out.push_back(GaugeFamily("cardref_max_fds",
                              "The referee's soft RLIMIT_NOFILE", MaxFds()));
    const int port = grpc_port_->load();
    if (port > 0) {
      out.push_back(GaugeFamily(
          "cardref_connections_open",
          "Established TCP connections to the referee's gRPC port",
          EstablishedOn("/proc/net/tcp", port) +
              EstablishedOn("/proc/net/tcp6", port)));
    }
    std::shared_ptr<const RefusalTarpit> tarpit;
    std::shared_ptr<const ConnectionLimiter> connections;
    {
      absl::MutexLock lock(&mu_);
      tarpit = tarpit_;
      connections = connections_;
    }
    if (connections != nullptr) out.push_back(RefusedConnections(*connections));
    if (tarpit != nullptr) {
      out.push_back(GaugeFamily(
          "cardref_refusals_held",
          "Refused calls whose answers the tarpit holds back now",
          static_cast<double>(tarpit->held())));
      out.push_back(CounterFamily(
          "cardref_refusals_delayed_total",
          "Refused calls the tarpit answered late (docs/limits.md, Refusals)",
          static_cast<double>(tarpit->delayed_total())));
    }
    return out;
  }

 private:
  const std::atomic<int>* grpc_port_;
  mutable absl::Mutex mu_;
  std::shared_ptr<const RefusalTarpit> tarpit_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<const ConnectionLimiter> connections_ ABSL_GUARDED_BY(mu_);
};

void PrometheusMetrics::set_connection_limiter(
    std::shared_ptr<const ConnectionLimiter> connections) {
  process_->set_connections(std::move(connections));
}

void PrometheusMetrics::set_refusal_tarpit(
    std::shared_ptr<const RefusalTarpit> tarpit) {
  process_->set_tarpit(std::move(tarpit));
}

PrometheusMetrics::PrometheusMetrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      process_(std::make_shared<ProcessCollector>(&grpc_port_)),
      matches_(prometheus::BuildGauge()
                   .Name("cardref_matches")
                   .Help("Matches this referee holds, by status")
                   .Register(*registry_)),
      matches_ended_(prometheus::BuildCounter()
                         .Name("cardref_matches_ended_total")
                         .Help("Matches that ended, by final status")
                         .Register(*registry_)),
      decisions_(prometheus::BuildCounter()
                     .Name("cardref_decisions_total")
                     .Help("Actions logged; by=bot or by=referee (played "
                           "for a seat)")
                     .Register(*registry_)),
      decision_seconds_(prometheus::BuildHistogram()
                            .Name("cardref_decision_latency_seconds")
                            .Help("Time a bot took for an accepted decision, "
                                  "as logged (ActionEvent.time_taken_micros)")
                            .Register(*registry_)),
      rejected_(prometheus::BuildCounter()
                    .Name("cardref_rejected_submissions_total")
                    .Help("Submissions refused while the match was in "
                          "progress, logged or only counted")
                    .Register(*registry_)),
      timeouts_(prometheus::BuildCounter()
                    .Name("cardref_timeouts_total")
                    .Help("Decisions that timed out (FAULT_KIND_TIMEOUT)")
                    .Register(*registry_)),
      substitutions_(prometheus::BuildCounter()
                         .Name("cardref_substitutions_total")
                         .Help("Actions the referee played for a seat, by "
                               "the fault that caused it")
                         .Register(*registry_)),
      forfeits_(prometheus::BuildCounter()
                    .Name("cardref_forfeits_total")
                    .Help("Seats that forfeited, by reason")
                    .Register(*registry_)),
      log_bytes_(prometheus::BuildCounter()
                     .Name("cardref_log_bytes_written_total")
                     .Help("Bytes appended to game logs, framing included")
                     .Register(*registry_)),
      streams_(prometheus::BuildGauge()
                   .Name("cardref_streams_open")
                   .Help("Open server streams, by kind (observation: a "
                         "seat's WatchObservations and PlaySeat; events, "
                         "invitations, health, reflection)")
                   .Register(*registry_)),
      bots_connected_(prometheus::BuildGauge()
                          .Name("cardref_bots_connected")
                          .Help("Entrants with at least one WatchInvitations "
                                "stream open")
                          .Register(*registry_)
                          .Add({})),
      invitation_streams_(prometheus::BuildGauge()
                              .Name("cardref_invitations_streams")
                              .Help("WatchInvitations streams open")
                              .Register(*registry_)
                              .Add({})),
      invitations_queued_(prometheus::BuildGauge()
                              .Name("cardref_invitations_queued")
                              .Help("Invitations waiting for a stream of "
                                    "their entrant with room")
                              .Register(*registry_)
                              .Add({})),
      invitations_outstanding_(
          prometheus::BuildGauge()
              .Name("cardref_invitations_outstanding")
              .Help("Seats sent by invitation or joined with a bot "
                    "credential whose matches are not over")
              .Register(*registry_)
              .Add({})),
      invitations_(prometheus::BuildCounter()
                       .Name("cardref_invitations_total")
                       .Help("Invitations, by what became of them: sent, "
                             "requeued (their stream closed before the seat "
                             "was joined), dropped (their match started or "
                             "ended before a stream took them)")
                       .Register(*registry_)) {}

absl::StatusOr<std::unique_ptr<PrometheusMetrics>> PrometheusMetrics::Start(
    const std::string& host, int port) {
  std::unique_ptr<PrometheusMetrics> m(new PrometheusMetrics);
  const std::string address = absl::StrCat(host, ":", port);
  try {
    // civetweb's options (prometheus-cpp hands them over as they are).
    m->exposer_ = std::make_unique<prometheus::Exposer>(
        std::vector<std::string>{
            "listening_ports", address,
            "num_threads", std::to_string(kMetricsServerThreads),
            "request_timeout_ms", std::to_string(kMetricsRequestTimeoutMs),
            "enable_keep_alive", "no"});
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat(
        "cannot serve metrics on ", address, ": ", e.what()));
  }
  const std::vector<int> ports = m->exposer_->GetListeningPorts();
  if (ports.empty()) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", address));
  }
  m->port_ = ports[0];
  m->exposer_->RegisterCollectable(m->registry_);
  m->exposer_->RegisterCollectable(m->process_);
  return m;
}

PrometheusMetrics::~PrometheusMetrics() { exposer_.reset(); }

void PrometheusMetrics::MatchStatusChanged(absl::string_view game,
                                           v1::MatchStatus from,
                                           v1::MatchStatus to) {
  const std::string g(game);
  if (from != v1::MATCH_STATUS_UNSPECIFIED) {
    matches_.Add({{"game", g}, {"status", StatusLabel(from)}}).Decrement();
  }
  if (to == v1::MATCH_STATUS_UNSPECIFIED) return;
  matches_.Add({{"game", g}, {"status", StatusLabel(to)}}).Increment();
  if (to == v1::MATCH_STATUS_FINISHED || to == v1::MATCH_STATUS_ABORTED ||
      to == v1::MATCH_STATUS_CANCELLED) {
    matches_ended_.Add({{"game", g}, {"status", StatusLabel(to)}}).Increment();
  }
}

void PrometheusMetrics::RecordWritten(absl::string_view game,
                                      const v1::LogRecord& record,
                                      uint64_t bytes) {
  const std::string g(game);
  log_bytes_.Add({{"game", g}}).Increment(static_cast<double>(bytes));
  if (record.has_action()) {
    const bool by_referee = record.action().by_referee();
    decisions_.Add({{"game", g}, {"by", by_referee ? "referee" : "bot"}})
        .Increment();
    if (!by_referee) {
      static const prometheus::Histogram::BucketBoundaries kBuckets = {
          0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300};
      decision_seconds_.Add({{"game", g}}, kBuckets)
          .Observe(static_cast<double>(record.action().time_taken_micros()) /
                   1e6);
    }
  } else if (record.has_rejected()) {
    rejected_.Add({{"game", g}}).Increment();
  } else if (record.has_rejections_not_logged()) {
    rejected_.Add({{"game", g}})
        .Increment(record.rejections_not_logged().count());
  } else if (record.has_fault()) {
    // Every fault record is followed by the action the referee plays.
    substitutions_
        .Add({{"game", g}, {"reason", FaultLabel(record.fault().kind())}})
        .Increment();
    if (record.fault().kind() == v1::FAULT_KIND_TIMEOUT) {
      timeouts_.Add({{"game", g}}).Increment();
    }
  } else if (record.has_forfeit()) {
    forfeits_
        .Add({{"game", g}, {"reason", ForfeitLabel(record.forfeit().reason())}})
        .Increment();
  }
}

void PrometheusMetrics::StreamOpened(absl::string_view kind) {
  streams_.Add({{"kind", std::string(kind)}}).Increment();
}

void PrometheusMetrics::StreamClosed(absl::string_view kind) {
  streams_.Add({{"kind", std::string(kind)}}).Decrement();
}

void PrometheusMetrics::InvitationsNow(int bots_connected, int streams,
                                       int queued, int outstanding) {
  bots_connected_.Set(bots_connected);
  invitation_streams_.Set(streams);
  invitations_queued_.Set(queued);
  invitations_outstanding_.Set(outstanding);
}

void PrometheusMetrics::InvitationCounted(absl::string_view what) {
  invitations_.Add({{"what", std::string(what)}}).Increment();
}

}  // namespace cardref::grpc_service
