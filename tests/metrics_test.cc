// /metrics over loopback during and after a run of several matches: the
// counters equal what the logs say (records counted in the log files), the
// gauges follow matches and streams (docs/operations.md).
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"
#include "referee/record/record_io.h"
#include "tests/metrics_scrape.h"
#include "tests/ops_test_client.h"
#include "tests/raw_connect.h"

namespace cardref {
namespace {

using testing_ops::HttpGet;
using testing_ops::MetricSum;

// What the logs of a directory say, counted record by record.
struct LogCounts {
  int bot_actions = 0;
  int referee_actions = 0;
  int rejected = 0;
  int timeouts = 0;
  int faults = 0;
  int forfeits = 0;
  int finished = 0;
  uint64_t bytes = 0;
};

LogCounts CountLogs(const std::filesystem::path& dir) {
  LogCounts c;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    auto log = record::ReadGameLog(entry.path().string());
    EXPECT_TRUE(log.ok()) << log.status();
    if (!log.ok()) continue;
    // A log still open ends in space its writer reserved (record_io.h,
    // OpenAppendSink): the bytes written are the records before it.
    c.bytes += log->end == record::FileEnd::kTornTail ? log->damage_offset
                                                      : log->file_size;
    for (const v1::LogRecord& r : log->records) {
      if (r.has_action()) {
        (r.action().by_referee() ? c.referee_actions : c.bot_actions)++;
      }
      c.rejected += r.has_rejected();
      if (r.has_rejections_not_logged()) {
        c.rejected += r.rejections_not_logged().count();
      }
      c.faults += r.has_fault();
      c.timeouts += r.has_fault() && r.fault().kind() == v1::FAULT_KIND_TIMEOUT;
      c.forfeits += r.has_forfeit();
      c.finished += r.has_final_result();
    }
  }
  return c;
}

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir("metrics_test_");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_.string();
    // The matches gauge counts matches in memory: none may be evicted
    // during the test, however slowly it runs (sanitizers).
    options.manager.evict_after = absl::Minutes(10);
    options.metrics_port = 0;
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    ASSERT_GT(server_->metrics_port(), 0);
    client_ = std::make_unique<testing_ops::OpsTestClient>(server_->address());
  }

  std::string Scrape() {
    std::string text = HttpGet(server_->metrics_port());
    EXPECT_FALSE(text.empty()) << "GET /metrics failed";
    return text;
  }

  std::filesystem::path log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<testing_ops::OpsTestClient> client_;
};

TEST_F(MetricsTest, CountersEqualWhatTheLogsSay) {
  constexpr int kMatches = 3;
  std::vector<testing_ops::TestMatch> matches;
  Rng rng(11);
  for (int i = 0; i < kMatches; ++i) {
    matches.push_back(client_->Start(100 + i));
    ASSERT_FALSE(matches.back().id.empty());
  }
  std::string waiting_id;
  ASSERT_TRUE(client_->Create(8, &waiting_id).ok());

  // During the run: a few moves and rejections in each match, one stream.
  for (const auto& m : matches) {
    ASSERT_TRUE(client_->Play(m, rng, 5).ok());
    EXPECT_FALSE(client_->SubmitOutOfTurn(m).ok());
    EXPECT_FALSE(client_->SubmitOutOfTurn(m).ok());
  }
  grpc::ClientContext stream_context;
  v1::SeatRequest watch;
  watch.set_match_id(matches[0].id);
  watch.set_seat(0);
  watch.set_token(matches[0].tokens[0]);
  auto stream = client_->stub().WatchObservations(&stream_context, watch);
  v1::Observation first;
  ASSERT_TRUE(stream->Read(&first));
  // A health Watch and a reflection stream, on a connection of their own.
  grpc::ChannelArguments own;
  own.SetInt("grpc.use_local_subchannel_pool", 1);
  auto channel = grpc::CreateCustomChannel(
      server_->address(), grpc::InsecureChannelCredentials(), own);
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext health_context;
  auto health_stream = health->Watch(&health_context,
                                     grpc::health::v1::HealthCheckRequest());
  grpc::health::v1::HealthCheckResponse serving;
  ASSERT_TRUE(health_stream->Read(&serving));
  auto reflection =
      grpc::reflection::v1alpha::ServerReflection::NewStub(channel);
  grpc::ClientContext reflection_context;
  auto reflection_stream =
      reflection->ServerReflectionInfo(&reflection_context);
  grpc::reflection::v1alpha::ServerReflectionRequest list;
  list.set_list_services("");
  grpc::reflection::v1alpha::ServerReflectionResponse listed;
  ASSERT_TRUE(reflection_stream->Write(list));
  ASSERT_TRUE(reflection_stream->Read(&listed));
  {
    const std::string text = Scrape();
    EXPECT_EQ(MetricSum(text, "cardref_matches", {"status=\"in_progress\""}),
              kMatches);
    EXPECT_EQ(MetricSum(text, "cardref_matches",
                        {"status=\"waiting_for_players\""}),
              1);
    EXPECT_EQ(MetricSum(text, "cardref_streams_open", {"kind=\"observation\""}),
              1);
    EXPECT_EQ(MetricSum(text, "cardref_streams_open", {"kind=\"health\""}),
              1);
    EXPECT_EQ(
        MetricSum(text, "cardref_streams_open", {"kind=\"reflection\""}), 1);
    EXPECT_GE(MetricSum(text, "cardref_connections_open"), 1);
    EXPECT_GT(MetricSum(text, "cardref_open_fds"), 0);
    EXPECT_GT(MetricSum(text, "cardref_max_fds"),
              MetricSum(text, "cardref_open_fds"));
    EXPECT_EQ(MetricSum(text, "cardref_rejected_submissions_total"),
              2 * kMatches);
    const LogCounts logs = CountLogs(log_dir_);
    EXPECT_EQ(MetricSum(text, "cardref_decisions_total", {"by=\"bot\""}),
              logs.bot_actions);
    EXPECT_EQ(MetricSum(text, "cardref_log_bytes_written_total"),
              static_cast<double>(logs.bytes));
  }
  stream_context.TryCancel();
  stream->Finish().IgnoreError();
  health_context.TryCancel();
  health_stream->Finish().IgnoreError();
  reflection_stream->WritesDone();
  reflection_stream->Finish().IgnoreError();

  for (const auto& m : matches) ASSERT_TRUE(client_->PlayToEnd(m, rng).ok());
  // A match whose seat 1 never plays: it times out (200 ms) twice and
  // forfeits.
  v1::FaultPolicy forfeit;
  forfeit.set_max_consecutive_timeouts(2);
  forfeit.set_action(v1::FAULT_ACTION_FORFEIT);
  const testing_ops::TestMatch silent = client_->Start(7, &forfeit, 200);
  ASSERT_FALSE(silent.id.empty());
  // Seat 0 of the silent match plays; seat 1 is played for by the referee.
  for (int i = 0; i < 100'000; ++i) {
    v1::Observation obs;
    ASSERT_TRUE(client_->Observe(silent, 0, &obs).ok());
    if (obs.status() != v1::MATCH_STATUS_IN_PROGRESS) break;
    if (obs.seat_to_act() != 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    bool over;
    ASSERT_TRUE(client_->Step(silent, rng, &over).ok());
  }

  const LogCounts logs = CountLogs(log_dir_);
  ASSERT_EQ(logs.finished, kMatches + 1);
  ASSERT_GE(logs.forfeits, 1);
  ASSERT_GE(logs.timeouts, 2);
  std::string text = Scrape();
  // Stream gauges fall when the server notices the cancel: wait for it.
  for (int i = 0; i < 200 && MetricSum(text, "cardref_streams_open") != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    text = Scrape();
  }
  EXPECT_EQ(MetricSum(text, "cardref_streams_open"), 0);
  EXPECT_EQ(MetricSum(text, "cardref_matches", {"status=\"finished\""}),
            kMatches + 1);
  EXPECT_EQ(MetricSum(text, "cardref_matches", {"status=\"in_progress\""}), 0);
  EXPECT_EQ(MetricSum(text, "cardref_matches_ended_total",
                      {"status=\"finished\""}),
            logs.finished);
  EXPECT_EQ(MetricSum(text, "cardref_decisions_total", {"by=\"bot\""}),
            logs.bot_actions);
  EXPECT_EQ(MetricSum(text, "cardref_decisions_total", {"by=\"referee\""}),
            logs.referee_actions);
  EXPECT_EQ(MetricSum(text, "cardref_decision_latency_seconds_count"),
            logs.bot_actions);
  EXPECT_EQ(MetricSum(text, "cardref_rejected_submissions_total"),
            logs.rejected);
  EXPECT_EQ(MetricSum(text, "cardref_timeouts_total"), logs.timeouts);
  EXPECT_EQ(MetricSum(text, "cardref_substitutions_total"),
            logs.referee_actions);
  EXPECT_EQ(MetricSum(text, "cardref_substitutions_total",
                      {"reason=\"timeout\""}),
            logs.timeouts);
  EXPECT_EQ(MetricSum(text, "cardref_forfeits_total",
                      {"reason=\"timeout_limit\""}),
            logs.forfeits);
  EXPECT_EQ(MetricSum(text, "cardref_matches",
                      {"status=\"waiting_for_players\""}),
            1);
  EXPECT_EQ(MetricSum(text, "cardref_log_bytes_written_total"),
            static_cast<double>(logs.bytes));
}

// The tarpit's figures (docs/limits.md, "Refusals"): past the free quota,
// out-of-turn submissions are held, and the scrape counts them as the
// tarpit does.
TEST_F(MetricsTest, TheTarpitsDelayedRefusalsAreCounted) {
  const testing_ops::TestMatch m = client_->Start(300);
  ASSERT_FALSE(m.id.empty());
  EXPECT_EQ(MetricSum(Scrape(), "cardref_refusals_delayed_total"), 0);
  // The quota is 20 at once (service::Limits): 200 refusals outrun it
  // however slowly they go out.
  for (int i = 0; i < 200 && server_->tarpit().delayed_total() < 2; ++i) {
    EXPECT_FALSE(client_->SubmitOutOfTurn(m).ok());
  }
  const std::string text = Scrape();
  EXPECT_GE(MetricSum(text, "cardref_refusals_delayed_total"), 2);
  EXPECT_EQ(MetricSum(text, "cardref_refusals_delayed_total"),
            static_cast<double>(server_->tarpit().delayed_total()));
  EXPECT_EQ(MetricSum(text, "cardref_refusals_held"), 0);
}

// Connections closed at once are counted by the cap they reached.
TEST(MetricsConnectionsTest, RefusedConnectionsAreCountedByTheirCap) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("metrics_connections_test_");
  grpc_service::ServerOptions options;
  options.manager.log_dir = dir.string();
  options.metrics_port = 0;
  options.manager.limits.max_connections = 3;
  options.manager.limits.max_connections_per_address = 2;
  auto server = grpc_service::RefereeServer::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();
  const int port = (*server)->metrics_port();
  const std::string before = HttpGet(port);
  EXPECT_EQ(MetricSum(before, "cardref_connections_refused_total"), 0);
  EXPECT_NE(before.find("cardref_connections_refused_total{"
                        "cap=\"max_connections_per_address\"} 0"),
            std::string::npos)
      << before;
  // 2 from 127.0.0.1, a third refused for its address; 1 from 127.0.0.2,
  // then the cap of 3 is reached for 127.0.0.3.
  std::vector<int> open;
  for (const char* from :
       {"127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.3"}) {
    open.push_back(testing_net::ConnectRaw((*server)->port(), from));
    ASSERT_GE(open.back(), 0) << from;
  }
  const grpc_service::ConnectionLimiter& limiter = *(*server)->connections();
  for (int i = 0;
       i < 500 && limiter.refused() + limiter.refused_per_address() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const std::string after = HttpGet(port);
  EXPECT_EQ(MetricSum(after, "cardref_connections_refused_total",
                      {"cap=\"max_connections_per_address\""}),
            1);
  EXPECT_EQ(MetricSum(after, "cardref_connections_refused_total",
                      {"cap=\"max_connections\""}),
            1);
  for (int fd : open) close(fd);
  server->reset();
}

// Clients that connect and say nothing, or half a request, hold a serving
// thread each until the request timeout; a scrape meanwhile is answered at
// once on another, and the held connections are closed by the timeout.
TEST_F(MetricsTest, IdleAndSlowClientsDoNotDelayAScrape) {
  using Clock = std::chrono::steady_clock;
  const int port = server_->metrics_port();
  std::vector<int> held;
  // Every thread but one: each of these occupies one.
  for (int i = 0; i + 2 < grpc_service::kMetricsServerThreads; ++i) {
    held.push_back(testing_net::ConnectRaw(port));
    ASSERT_GE(held.back(), 0);
  }
  const int half = testing_net::ConnectRaw(port);
  ASSERT_GE(half, 0);
  const std::string partial = "GET /metrics HTTP/1.1\r\nHost: 127.";
  ASSERT_EQ(::write(half, partial.data(), partial.size()),
            static_cast<ssize_t>(partial.size()));
  held.push_back(half);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const Clock::time_point held_since = Clock::now();
  for (int scrape = 0; scrape < 3; ++scrape) {
    const Clock::time_point start = Clock::now();
    const std::string text = HttpGet(port, "/metrics", /*timeout_ms=*/2000);
    const auto took = Clock::now() - start;
    EXPECT_NE(text.find("cardref_"), std::string::npos)
        << "scrape " << scrape << " got no answer";
    EXPECT_LT(took, std::chrono::milliseconds(1500)) << "scrape " << scrape;
  }
  // The request timeout closes every held connection (EOF), well before
  // civetweb's default of 30 s.
  for (int fd : held) {
    timeval tv{};
    tv.tv_sec = grpc_service::kMetricsRequestTimeoutMs / 1000 + 3;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    char buffer[512];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) {
    }
    EXPECT_TRUE(n == 0 || (n < 0 && errno == ECONNRESET))
        << "a held connection is still open: " << std::strerror(errno);
    ::close(fd);
  }
  EXPECT_LT(Clock::now() - held_since,
            std::chrono::milliseconds(grpc_service::kMetricsRequestTimeoutMs +
                                      2000));
}

TEST_F(MetricsTest, OnlyMetricsIsServed) {
  EXPECT_TRUE(HttpGet(server_->metrics_port(), "/nothing").empty());
}

}  // namespace
}  // namespace cardref
