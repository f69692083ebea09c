// The referee's resource limits over real gRPC on loopback
// (docs/limits.md): request size, undecodable bytes, a flood of oversized
// and rejected submissions (the log stays bounded, another match finishes,
// the codes are right), stream caps, calls per second per peer, match caps,
// a connection flood after which a new client is served (plaintext and
// TLS), connections closed for silence (handshake, idle, keepalive), and
// sequence-number reuse.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <future>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "analyzer/audit.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/fd_budget.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"
#include "referee/service/clock.h"
#include "tests/raw_connect.h"
#include "tests/referee_fixture.h"
#include "tests/test_certificates.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;
using testing_net::ConnectRaw;

class GrpcLimitsTest : public RefereeFixture {
 protected:
  static constexpr int kFree = 5;
  static constexpr int kDelayMs = 300;

  // A server whose tarpit gives each caller kFree refusals at once, never
  // refilled to speak of, and holds later ones kDelayMs.
  void StartWithTarpit() {
    options_.manager.limits.refusals_per_second = 0.001;
    options_.manager.limits.refusal_burst = kFree;
    options_.manager.limits.refusal_delay_ms = kDelayMs;
    StartServer();
  }

  // A server on the fake clock that lets each client address make 5 calls
  // at once and 5 a second, whatever its tokens.
  void StartWithPeerRateOf5() {
    options_.manager.clock = &fake_clock_;
    options_.manager.limits.calls_per_second_per_token = 0;
    options_.manager.limits.calls_per_second_per_peer = 5;
    options_.manager.limits.burst_per_peer = 5;
    StartServer();
  }

  // The server serves TLS with a certificate made here; NewStub's clients
  // trust it.
  void UseTls() {
    const testing_tls::KeyAndCertificate made =
        testing_tls::MakeSelfSigned("localhost");
    ASSERT_FALSE(made.certificate_pem.empty());
    auto write = [&](const std::string& name, const std::string& text) {
      std::string path = (log_dir_.parent_path() /
                                absl::StrCat(log_dir_.filename().string(),
                                             "_", name))
                                   .string();
      FILE* f = std::fopen(path.c_str(), "w");
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
      // The server refuses a private key others may read (docs/auth.md).
      ::chmod(path.c_str(), 0600);
      testing_util::RemoveWhenTheTestPasses(path);
      return path;
    };
    options_.tls.cert_file = write("server.crt", made.certificate_pem);
    options_.tls.key_file = write("server.key", made.private_key_pem);
    grpc::SslCredentialsOptions trust;
    trust.pem_root_certs = made.certificate_pem;
    client_credentials_ = grpc::SslCredentials(trust);
  }

  void FloodThenServe();
};

TEST_F(GrpcLimitsTest, ARequestOverTheSizeLimitIsResourceExhaustedAtOnce) {
  StartServer();
  const Seats m = Start();
  const v1::Observation obs = Observe(*stub_, m, 0);
  const int seat = obs.seat_to_act();
  v1::Action huge;
  huge.set_notation(std::string(3 << 20, 'p'));  // 3 MiB
  const auto start = std::chrono::steady_clock::now();
  grpc::Status s = Submit(*stub_, m, seat, huge, 0);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED)
      << s.error_message();
  EXPECT_THAT(s.error_message(), ::testing::Not(HasSubstr("metadata")));
  EXPECT_LT(s.error_message().size(), 200u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  // Within the request limit but over the action's: INVALID_ARGUMENT naming
  // the field and the limit, with a short message.
  v1::Action big;
  big.set_notation(std::string(16 << 10, 'p'));  // 16 KiB
  s = Submit(*stub_, m, seat, big, 0);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT)
      << s.error_message();
  EXPECT_THAT(s.error_message(), HasSubstr("'action' is"));
  EXPECT_THAT(s.error_message(), HasSubstr("at most 1024"));
  EXPECT_LT(s.error_message().size(), 200u);
  // The game goes on.
  v1::Observation mine = Observe(*stub_, m, seat);
  EXPECT_TRUE(Submit(*stub_, m, seat, mine.legal_actions(0), 0).ok());
}

// Bytes that do not decode: the referee parses every unary request itself
// (raw_request.h) and says what was expected; grpc_hostile_test tries every
// method.
TEST_F(GrpcLimitsTest, UndecodableRequestBytesAreInvalidArgumentOnSubmit) {
  StartServer();
  grpc::GenericStub generic(grpc::CreateChannel(
      server_->address(), grpc::InsecureChannelCredentials()));
  auto call = [&](const std::string& method) {
    grpc::Slice garbage(std::string("\xff\xff\xff\xff\x0f", 5));
    grpc::ByteBuffer request(&garbage, 1);
    grpc::ByteBuffer response;
    grpc::ClientContext context;
    std::promise<grpc::Status> done;
    generic.UnaryCall(&context, method, grpc::StubOptions(), &request,
                      &response,
                      [&done](const grpc::Status& s) { done.set_value(s); });
    return done.get_future().get();
  };
  grpc::Status s = call("/cardref.v1.Referee/SubmitAction");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("5 bytes do not decode as "
                        "cardref.v1.SubmitActionRequest"));
  s = call("/cardref.v1.Referee/GetObservation");
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(),
              HasSubstr("do not decode as cardref.v1.SeatRequest"));
  // The server is unharmed.
  v1::ListGamesResponse games;
  grpc::ClientContext list;
  EXPECT_TRUE(stub_->ListGames(&list, v1::ListGamesRequest(), &games).ok());
}

// One seat floods its match with oversized and illegal submissions while
// another match is played: the flooder is refused with the right codes, its
// match's log stays small, both matches finish and audit.
TEST_F(GrpcLimitsTest, AFloodOfRejectedSubmissionsIsBoundedAndHarmsNoOne) {
  // Low enough that any flooder outruns it, even under ThreadSanitizer.
  options_.manager.limits.calls_per_second_per_token = 100;
  options_.manager.limits.burst_per_token = 100;
  options_.manager.limits.calls_per_second_per_peer = 0;
  // 2,000 refusals in a row, counted in the log: without the tarpit, which
  // would hold them back (RefusalsPastTheFreeQuotaAreAnsweredLate).
  options_.manager.limits.refusals_per_second = 0;
  StartServer();
  const Seats flooded = Start();
  const Seats healthy = Start();
  std::map<grpc::StatusCode, int> codes;
  std::string exhausted_message;
  std::thread flood([&] {
    std::unique_ptr<v1::Referee::Stub> stub = NewStub();
    v1::Action oversized;
    oversized.set_notation(std::string(60 << 10, 'x'));  // under 64 KiB
    v1::Action illegal;
    illegal.set_notation("juggle");
    for (int i = 0; i < 2000; ++i) {
      grpc::Status s =
          Submit(*stub, flooded, 1, i % 2 ? oversized : illegal, 0);
      ++codes[s.error_code()];
      if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
        exhausted_message = s.error_message();
      }
    }
  });
  const v1::Observation healthy_end = PlayOut(*stub_, healthy, 5);
  flood.join();
  EXPECT_EQ(healthy_end.status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(codes[grpc::StatusCode::OK], 0);
  EXPECT_GT(codes[grpc::StatusCode::RESOURCE_EXHAUSTED], 0);
  EXPECT_GT(codes[grpc::StatusCode::INVALID_ARGUMENT] +
                codes[grpc::StatusCode::FAILED_PRECONDITION],
            0);
  EXPECT_THAT(exhausted_message, HasSubstr("retry in"));
  const v1::Observation flooded_end = PlayOut(*stub_, flooded, 6);
  EXPECT_EQ(flooded_end.status(), v1::MATCH_STATUS_FINISHED);

  // 2000 submissions of up to 60 KiB (60 MB); the log keeps a few in full, without
  // oversized actions, and counts the rest.
  const std::string path = LogPath(flooded.match_id);
  EXPECT_LT(std::filesystem::file_size(path), 128u << 10);
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  ASSERT_TRUE(log.ok()) << log.status();
  int logged = 0, counted = 0;
  for (const v1::LogRecord& r : log->records) {
    if (r.has_rejected()) {
      ++logged;
      EXPECT_LT(r.ByteSizeLong(), 1024u);
    }
    if (r.has_rejections_not_logged()) {
      counted += r.rejections_not_logged().count();
    }
  }
  EXPECT_GT(logged, 0);
  EXPECT_EQ(logged + counted,
            codes[grpc::StatusCode::INVALID_ARGUMENT] +
                codes[grpc::StatusCode::FAILED_PRECONDITION]);
  for (const std::string& id : {flooded.match_id, healthy.match_id}) {
    analyzer::AuditReport report =
        analyzer::AuditFile(LogPath(id), {}, AllGames());
    EXPECT_EQ(report.verdict, analyzer::Verdict::kOk) << report.Line();
  }
}

// The tarpit (refusal_tarpit.h): a seat's refusals are answered at once up
// to its free quota, each later one only after the delay, with the same
// code and message; another seat's refusals and every accepted call are
// answered at once.
TEST_F(GrpcLimitsTest, RefusalsPastTheFreeQuotaAreAnsweredLate) {
  StartWithTarpit();
  const Seats flooded = Start();
  const Seats other = Start();
  v1::Action illegal;
  illegal.set_notation("juggle");
  grpc::Status free;
  for (int i = 0; i < kFree; ++i) {
    free = Submit(*stub_, flooded, 1, illegal, 0);
    ASSERT_FALSE(free.ok());
  }
  EXPECT_EQ(server_->tarpit().delayed_total(), 0u);
  const auto start = std::chrono::steady_clock::now();
  grpc::Status late = Submit(*stub_, flooded, 1, illegal, 0);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(late.error_code(), free.error_code());
  EXPECT_EQ(late.error_message(), free.error_message());
  EXPECT_GE(waited, std::chrono::milliseconds(kDelayMs));
  EXPECT_EQ(server_->tarpit().delayed_total(), 1u);

  // Another seat's quota is its own; honest play is never held.
  EXPECT_FALSE(Submit(*stub_, other, 1, illegal, 0).ok());
  EXPECT_EQ(PlayOut(*stub_, other, 7).status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(PlayOut(*stub_, flooded, 8).status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(server_->tarpit().delayed_total(), 1u);
  EXPECT_EQ(server_->tarpit().held(), 0u);
}

// A made-up token is not a quota of its own: refusals of a credential
// (PERMISSION_DENIED, UNAUTHENTICATED) are charged to the caller's address,
// so a new token with every call is held once the address's quota is
// spent. A real seat's refusals keep their own quota.
TEST_F(GrpcLimitsTest, ANewMadeUpTokenPerCallGetsNoNewQuota) {
  StartWithTarpit();
  const Seats real = Start();
  v1::Action any;
  any.set_notation("juggle");
  auto made_up = [&](int i) {
    Seats forged = real;
    forged.tokens[1] = absl::StrCat("made-up-token-", i);
    return Submit(*stub_, forged, 1, any, 0);
  };
  grpc::Status free;
  for (int i = 0; i < kFree; ++i) {
    free = made_up(i);
    ASSERT_EQ(free.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  EXPECT_EQ(server_->tarpit().delayed_total(), 0u);
  const auto start = std::chrono::steady_clock::now();
  const grpc::Status late = made_up(kFree);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(late.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_GE(waited, std::chrono::milliseconds(kDelayMs));
  EXPECT_EQ(server_->tarpit().delayed_total(), 1u);

  // The real seat at the same address still has its quota, and plays.
  EXPECT_FALSE(Submit(*stub_, real, 1, any, 0).ok());
  EXPECT_EQ(PlayOut(*stub_, real, 9).status(), v1::MATCH_STATUS_FINISHED);
  EXPECT_EQ(server_->tarpit().delayed_total(), 1u);
}

// A synchronous flood of refused submissions runs at the tarpit's pace:
// each thread waits out the delay on every call past the quota, so the
// count has an upper bound whatever the machine's speed; a healthy match is
// played meanwhile.
TEST_F(GrpcLimitsTest, ASynchronousFloodRunsAtTheTarpitsPace) {
  constexpr int kThreads = 4;
  constexpr double kBurst = 10, kPerSecond = 1;
  constexpr int kDelayMs = 100;
  options_.manager.limits.refusals_per_second = kPerSecond;
  options_.manager.limits.refusal_burst = kBurst;
  options_.manager.limits.refusal_delay_ms = kDelayMs;
  options_.manager.limits.calls_per_second_per_peer = 0;
  StartServer();
  const Seats flooded = Start();
  const Seats healthy = Start();
  std::atomic<bool> stop{false};
  std::atomic<int> refused{0}, accepted{0};
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> flood;
  flood.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    flood.emplace_back([&] {
      std::unique_ptr<v1::Referee::Stub> stub = NewStub();
      v1::Action illegal;
      illegal.set_notation("juggle");
      while (!stop.load()) {
        (Submit(*stub, flooded, 1, illegal, 0).ok() ? accepted : refused)++;
      }
    });
  }
  EXPECT_EQ(PlayOut(*stub_, healthy, 9).status(), v1::MATCH_STATUS_FINISHED);
  std::this_thread::sleep_until(start + std::chrono::seconds(2));
  stop = true;
  for (std::thread& t : flood) t.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_EQ(accepted.load(), 0);
  // The quota, its refill, one call per delay per thread, one more each in
  // flight at the start.
  const double bound = kBurst + kPerSecond * seconds +
                       kThreads * (seconds * 1000 / kDelayMs + 1);
  EXPECT_LE(refused.load(), bound);
  EXPECT_GT(server_->tarpit().delayed_total(), 0u);
  std::printf("[figures] tarpit: %d threads refused %d times in %.1f s "
              "(%.0f/s; bound %.0f), %llu answers held back\n",
              kThreads, refused.load(), seconds, refused.load() / seconds,
              bound,
              static_cast<unsigned long long>(
                  server_->tarpit().delayed_total()));
}

// Held answers are capped (past the cap they go out at once), and a server
// shutting down answers the held ones at once instead of waiting them out.
TEST_F(GrpcLimitsTest, HeldRefusalsAreCappedAndAnsweredAtShutdown) {
  constexpr int kMaxHeld = 2;
  options_.manager.limits.refusals_per_second = 0.001;
  options_.manager.limits.refusal_burst = 1;
  options_.manager.limits.refusal_delay_ms = 600'000;
  options_.manager.limits.max_delayed_refusals = kMaxHeld;
  StartServer();
  const Seats m = Start();
  v1::Action illegal;
  illegal.set_notation("juggle");
  ASSERT_FALSE(Submit(*stub_, m, 1, illegal, 0).ok());  // the free one
  std::vector<std::future<grpc::Status>> held;
  held.reserve(kMaxHeld);
  for (int i = 0; i < kMaxHeld; ++i) {
    held.push_back(std::async(std::launch::async, [&] {
      return Submit(*NewStub(), m, 1, illegal, 0);
    }));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (server_->tarpit().held() < kMaxHeld &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(server_->tarpit().held(), static_cast<size_t>(kMaxHeld));
  // Past the cap: answered at once, not held.
  EXPECT_FALSE(Submit(*stub_, m, 1, illegal, 0).ok());
  EXPECT_EQ(server_->tarpit().delayed_total(), static_cast<uint64_t>(kMaxHeld));
  for (auto& f : held) {
    EXPECT_EQ(f.wait_for(std::chrono::milliseconds(0)),
              std::future_status::timeout);
  }
  const auto stopping = std::chrono::steady_clock::now();
  server_.reset();  // shuts down: the held calls get their refusals now
  for (auto& f : held) {
    ASSERT_EQ(f.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    grpc::Status s = f.get();
    EXPECT_THAT(s.error_code(),
                ::testing::AnyOf(grpc::StatusCode::FAILED_PRECONDITION,
                                 grpc::StatusCode::INVALID_ARGUMENT))
        << s.error_message();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - stopping,
            std::chrono::seconds(60));
}

TEST_F(GrpcLimitsTest, ObservationStreamsPerSeatAndEventStreamsAreCapped) {
  options_.manager.limits.max_streams_per_seat = 2;
  options_.manager.limits.max_event_streams = 1;
  StartServer();
  const Seats m = Start();
  // The seat to act gets an observation at once on every stream it opens,
  // so reading it shows the server has taken the stream.
  const int seat = Observe(*stub_, m, 0).seat_to_act();
  const int other_seat = 1 - seat;
  v1::SeatRequest request;
  request.set_match_id(m.match_id);
  request.set_seat(seat);
  request.set_token(m.tokens[seat]);
  struct Open {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::Observation>> reader;
  };
  auto open = [&](Open& o) {
    o.context.set_deadline(std::chrono::system_clock::now() +
                           std::chrono::seconds(20));
    o.reader = stub_->WatchObservations(&o.context, request);
  };
  Open a, b, c;
  v1::Observation first;
  open(a);
  ASSERT_TRUE(a.reader->Read(&first));
  open(b);
  ASSERT_TRUE(b.reader->Read(&first));
  open(c);
  EXPECT_FALSE(c.reader->Read(&first));
  grpc::Status refused = c.reader->Finish();
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(),
              HasSubstr("seat " + std::to_string(seat) + " has 2 streams open"));
  // The other seat has a budget of its own.
  request.set_seat(other_seat);
  request.set_token(m.tokens[other_seat]);
  Open other;
  open(other);
  request.set_seat(seat);
  request.set_token(m.tokens[seat]);
  // Closing one frees its slot (once the server has seen it go).
  a.context.TryCancel();
  a.reader->Finish().IgnoreError();
  bool reopened = false;
  for (int i = 0; i < 200 && !reopened; ++i) {
    Open d;
    open(d);
    reopened = d.reader->Read(&first);
    d.context.TryCancel();
    d.reader->Finish().IgnoreError();
    if (!reopened) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(reopened);

  // Event streams: one for the whole referee.
  v1::WatchMatchRequest watch;
  watch.set_match_id(m.match_id);
  grpc::ClientContext spectator;
  spectator.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(20));
  auto events = stub_->WatchMatch(&spectator, watch);
  v1::MatchEvent event;
  ASSERT_TRUE(events->Read(&event));  // the header: the stream is open
  grpc::ClientContext second;
  second.set_deadline(std::chrono::system_clock::now() +
                      std::chrono::seconds(20));
  auto refused_events = stub_->WatchMatch(&second, watch);
  EXPECT_FALSE(refused_events->Read(&event));
  grpc::Status s = refused_events->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("WatchMatch"));
  spectator.TryCancel();
  events->Finish().IgnoreError();
  for (Open* o : {&b, &other}) {
    o->context.TryCancel();
    o->reader->Finish().IgnoreError();
  }
}

TEST_F(GrpcLimitsTest, CallsPerSecondPerPeerAreLimitedWithARetryHint) {
  StartWithPeerRateOf5();
  service::FakeClock& clock = fake_clock_;
  auto list = [&] {
    v1::ListGamesResponse games;
    grpc::ClientContext context;
    return stub_->ListGames(&context, v1::ListGamesRequest(), &games);
  };
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(list().ok()) << i;
  grpc::Status s = list();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("retry in 200 ms"));
  EXPECT_THAT(s.error_message(), HasSubstr("per client address"));
  // Another connection from the same address shares the budget.
  std::unique_ptr<v1::Referee::Stub> other = NewStub();
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  EXPECT_EQ(other->ListGames(&context, v1::ListGamesRequest(), &games)
                .error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  clock.Advance(absl::Milliseconds(200));
  EXPECT_TRUE(list().ok());
}

// The limiter's count once it has fallen to `n` (gRPC closes a descriptor a
// moment after the peer sees the connection end), waiting at most 10 s.
int OpenConnectionsOnceAtMost(grpc_service::ConnectionLimiter& limiter,
                              int n) {
  for (int i = 0; i < 1000 && limiter.open_connections() > n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return limiter.open_connections();
}

// Whether the referee closes `fd` (sending nothing of ours) within `within`.
bool ClosedWithin(int fd, absl::Duration within) {
  bool closed = false;
  const absl::Time end = absl::Now() + within;
  while (fd >= 0 && !closed && absl::Now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    char buffer[4096];
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    closed = n == 0 || (n < 0 && errno == ECONNRESET);  // n > 0: SETTINGS
  }
  return closed;
}

// A connection that says nothing: true once the referee has closed it.
bool ClosedByTheReferee(int port, absl::Duration within) {
  const int fd = ConnectRaw(port);
  const bool closed = ClosedWithin(fd, within);
  if (fd >= 0) close(fd);
  return closed;
}

// A connection that never finishes its handshake is closed after
// --handshake_timeout_ms (gRPC's default would hold it two minutes).
TEST_F(GrpcLimitsTest, ASilentConnectionIsClosedAfterTheHandshakeTimeout) {
  options_.manager.limits.handshake_timeout_ms = 300;
  StartServer();
  EXPECT_TRUE(ClosedByTheReferee(server_->port(), absl::Seconds(10)));
  EXPECT_EQ(OpenConnectionsOnceAtMost(*server_->connections(), 0), 0);
}

TEST_F(GrpcLimitsTest, ASilentTlsConnectionIsClosedAfterTheHandshakeTimeout) {
  ASSERT_NO_FATAL_FAILURE(UseTls());
  options_.manager.limits.handshake_timeout_ms = 300;
  StartServer();
  EXPECT_TRUE(ClosedByTheReferee(server_->port(), absl::Seconds(10)));
  EXPECT_EQ(OpenConnectionsOnceAtMost(*server_->connections(), 0), 0);
}

// The default leaves a silent connection open for longer than a moment:
// what the two tests above change.
TEST_F(GrpcLimitsTest, ASilentConnectionIsHeldForTheDefaultHandshakeTimeout) {
  StartServer();
  EXPECT_FALSE(ClosedByTheReferee(server_->port(), absl::Seconds(1)));
}

// A connection without a call is closed after --max_connection_idle_ms and
// its client reconnects at its next call.
TEST_F(GrpcLimitsTest, AnIdleConnectionIsClosedAndItsClientReconnects) {
  options_.manager.limits.max_connection_idle_ms = 300;
  StartServer();
  grpc_service::ConnectionLimiter* limiter = server_->connections();
  auto list = [&] {
    v1::ListGamesResponse games;
    grpc::ClientContext context;
    context.set_wait_for_ready(true);
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(10));
    return stub_->ListGames(&context, {}, &games);
  };
  ASSERT_TRUE(list().ok());
  EXPECT_EQ(limiter->open_connections(), 1);
  EXPECT_EQ(OpenConnectionsOnceAtMost(*limiter, 0), 0);
  grpc::Status again = list();
  EXPECT_TRUE(again.ok()) << again.error_message();
  EXPECT_EQ(limiter->open_connections(), 1);
}

// One address holds at most --max_connections_per_address connections;
// another address still gets in, and a place freed is taken again.
TEST_F(GrpcLimitsTest, OneAddressHoldsAtMostItsShareOfConnections) {
  options_.manager.limits.max_connections = 20;
  options_.manager.limits.max_connections_per_address = 5;
  StartServer();
  grpc_service::ConnectionLimiter& limiter = *server_->connections();
  std::vector<int> mine;
  for (int i = 0; i < 5; ++i) {
    mine.push_back(ConnectRaw(server_->port()));
    ASSERT_GE(mine.back(), 0);
  }
  const int sixth = ConnectRaw(server_->port());
  EXPECT_TRUE(ClosedWithin(sixth, absl::Seconds(10)));
  if (sixth >= 0) close(sixth);
  EXPECT_EQ(limiter.refused_per_address(), 1);
  // 127.0.0.2 is another client (all of 127/8 is this machine's).
  const int other = ConnectRaw(server_->port(), "127.0.0.2");
  ASSERT_GE(other, 0);
  EXPECT_FALSE(ClosedWithin(other, absl::Milliseconds(500)));
  EXPECT_EQ(limiter.open_connections(), 6);
  EXPECT_EQ(limiter.refused(), 0);
  close(mine.back());
  mine.pop_back();
  EXPECT_EQ(OpenConnectionsOnceAtMost(limiter, 5), 5);
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  context.set_wait_for_ready(true);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  const grpc::Status s = stub_->ListGames(&context, {}, &games);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(limiter.refused_per_address(), 1);
  for (int fd : mine) close(fd);
  close(other);
}

// On this machine a client is also the user whose process connects: bots
// run as users of their own (cardref_tournament --bot_uids) each have the
// cap, though all connect from 127.0.0.1.
TEST_F(GrpcLimitsTest, EachLocalUserHoldsAtMostItsShareOfConnections) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root: a child connects as nobody (uid 65534)";
  }
  options_.manager.limits.max_connections = 20;
  options_.manager.limits.max_connections_per_address = 2;
  StartServer();
  grpc_service::ConnectionLimiter& limiter = *server_->connections();
  const int port = server_->port();
  std::vector<int> mine = {ConnectRaw(port), ConnectRaw(port)};
  for (int i = 0; i < 1000 && limiter.open_connections() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(limiter.open_connections(), 2);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only syscalls here. Exits with how many of its 3 connections the
    // referee closed at once.
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(100);
    int fds[3];
    for (int& fd : fds) fd = ConnectRaw(port);
    usleep(500'000);
    int closed = 0;
    for (int fd : fds) {
      char byte;
      closed += fd < 0 || recv(fd, &byte, 1, MSG_DONTWAIT) == 0;
    }
    _exit(closed);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1) << "nobody's third connection, only";
  EXPECT_EQ(limiter.refused_per_address(), 1);
  // This process's user is still at its share.
  const int third = ConnectRaw(port);
  EXPECT_TRUE(ClosedWithin(third, absl::Seconds(10)));
  if (third >= 0) close(third);
  EXPECT_EQ(limiter.refused_per_address(), 2);
  for (int fd : mine) close(fd);
}

// Forwards one connection to the referee until Freeze, then forwards
// nothing and keeps both ends open: a peer whose machine died or whose
// network dropped every packet, as the referee sees it.
class FreezableProxy {
 public:
  explicit FreezableProxy(int target_port) : target_port_(target_port) {
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) !=
            0 ||
        listen(listener_, 4) != 0 ||
        getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) !=
            0) {
      return;  // port() stays 0
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Run(); });
  }
  ~FreezableProxy() {
    stopped_ = true;
    shutdown(listener_, SHUT_RDWR);
    if (thread_.joinable()) thread_.join();
    for (int fd : {listener_, client_, server_}) {
      if (fd >= 0) close(fd);
    }
  }
  int port() const { return port_; }
  void Freeze() { frozen_ = true; }

 private:
  void Run() {
    client_ = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client_ < 0) return;
    server_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(target_port_);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(server_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) !=
        0) {
      return;
    }
    char buffer[16384];
    while (!stopped_) {
      if (frozen_) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      pollfd p[2] = {{client_, POLLIN, 0}, {server_, POLLIN, 0}};
      if (poll(p, 2, 10) <= 0) continue;
      for (int i = 0; i < 2 && !frozen_; ++i) {
        if ((p[i].revents & (POLLIN | POLLHUP)) == 0) continue;
        const ssize_t n = read(p[i].fd, buffer, sizeof(buffer));
        if (n <= 0) return;
        (void)!write(i == 0 ? server_ : client_, buffer, n);
      }
    }
  }

  const int target_port_;
  int port_ = 0;
  int listener_ = -1;
  int client_ = -1;
  int server_ = -1;
  std::atomic<bool> frozen_{false};
  std::atomic<bool> stopped_{false};
  std::thread thread_;
};

// A seat's stream whose peer stops answering (no FIN, no RST) is closed
// after a keepalive ping goes unanswered: the referee sees the seat gone
// (docs/fault_policy.md, disconnects) in --keepalive_ms plus
// --keepalive_timeout_ms.
TEST_F(GrpcLimitsTest, AStreamWhosePeerStopsAnsweringIsClosedByKeepalive) {
  options_.manager.limits.keepalive_ms = 200;
  options_.manager.limits.keepalive_timeout_ms = 300;
  options_.manager.limits.max_connection_idle_ms = 0;
  StartServer();
  grpc_service::ConnectionLimiter* limiter = server_->connections();
  const Seats m = Start();
  FreezableProxy proxy(server_->port());
  ASSERT_GT(proxy.port(), 0);
  auto through_proxy = v1::Referee::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", proxy.port()),
      grpc::InsecureChannelCredentials()));
  v1::SeatRequest request;
  request.set_match_id(m.match_id);
  request.set_seat(1);
  request.set_token(m.tokens[1]);
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::Observation>> stream =
      through_proxy->WatchObservations(&context, request);
  v1::Observation first;
  ASSERT_TRUE(stream->Read(&first));
  EXPECT_EQ(limiter->open_connections(), 2);  // the fixture's and the proxy's
  proxy.Freeze();
  const absl::Time frozen = absl::Now();
  EXPECT_EQ(OpenConnectionsOnceAtMost(*limiter, 1), 1);
  EXPECT_GE(absl::Now() - frozen, absl::Milliseconds(300));
  context.TryCancel();
  stream->Finish();
}

TEST_F(GrpcLimitsTest, CreateMatchPastTheWaitingCapIsResourceExhausted) {
  options_.manager.limits.max_waiting_matches = 1;
  StartServer();
  ASSERT_TRUE(Create(*stub_).ok());
  absl::StatusOr<v1::CreateMatchResponse> refused = Create(*stub_);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("waiting for players"));
}

// Raw TCP connections up to the cap and past it: those past it are closed
// at once, nothing runs out of descriptors, and once the flood ends a new
// client is served. The same over TLS: connections are counted before their
// handshake, which is gRPC's after the hand-over.
void GrpcLimitsTest::FloodThenServe() {
  ASSERT_TRUE(grpc_service::RaiseOpenFileLimit().ok());
  options_.manager.limits.max_connections = 20;
  StartServer();
  grpc_service::ConnectionLimiter* limiter = server_->connections();
  ASSERT_NE(limiter, nullptr);
  // The fixture's own stub has not connected yet (channels are lazy).
  std::vector<int> flood;
  for (int i = 0; i < 60; ++i) {
    const int fd = ConnectRaw(server_->port());
    ASSERT_GE(fd, 0);
    flood.push_back(fd);
  }
  for (int i = 0; i < 500 && limiter->refused() < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(limiter->refused(), 40);
  EXPECT_EQ(limiter->open_connections(), 20);
  // At the cap a new client is refused, not left hanging.
  {
    std::unique_ptr<v1::Referee::Stub> late = NewStub();
    v1::ListGamesResponse games;
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::milliseconds(500));
    EXPECT_FALSE(late->ListGames(&context, v1::ListGamesRequest(), &games).ok());
  }
  for (int fd : flood) close(fd);
  // gRPC closes its side when it sees the peer gone.
  EXPECT_EQ(OpenConnectionsOnceAtMost(*limiter, 0), 0);
  std::unique_ptr<v1::Referee::Stub> fresh = NewStub();
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  context.set_wait_for_ready(true);
  grpc::Status s = fresh->ListGames(&context, v1::ListGamesRequest(), &games);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(limiter->open_connections(), 1);
}

// HTTP/2's client preface and an empty SETTINGS frame: a connection that
// finished its handshake, then says nothing.
void SendPreface(int fd) {
  static constexpr char kPreface[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  static constexpr char kSettings[] = {0, 0, 0, 4, 0, 0, 0, 0, 0};
  ASSERT_EQ(send(fd, kPreface, sizeof(kPreface) - 1, MSG_NOSIGNAL),
            static_cast<ssize_t>(sizeof(kPreface) - 1));
  ASSERT_EQ(send(fd, kSettings, sizeof(kSettings), MSG_NOSIGNAL),
            static_cast<ssize_t>(sizeof(kSettings)));
}

// At the default flags, one local client that opens 300 connections, each
// with HTTP/2's preface and SETTINGS and then silent, holds at most its
// share (--max_connections_per_address, half the places): a new client and
// the organiser are still served.
TEST_F(GrpcLimitsTest, AtTheDefaultsAConnectionFloodLeavesOthersServed) {
  StartServer();
  grpc_service::ConnectionLimiter* limiter = server_->connections();
  ASSERT_NE(limiter, nullptr);
  const int share = service::Limits().max_connections_per_address;
  ASSERT_GT(share, 0);
  ASSERT_LT(share, limiter->max_connections());
  std::vector<int> flood;
  for (int i = 0; i < share + 44; ++i) {
    const int fd = ConnectRaw(server_->port(), "127.0.0.2");
    ASSERT_GE(fd, 0);
    SendPreface(fd);
    flood.push_back(fd);
  }
  for (int i = 0; i < 1000 && limiter->refused_per_address() < 44; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(limiter->refused_per_address(), 44);
  EXPECT_EQ(limiter->refused(), 0);
  // Another client (this process, 127.0.0.1), which is also the organiser
  // of this referee without a credential, is served at once.
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(5));
  grpc::Status s = stub_->ListGames(&context, {}, &games);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_NO_FATAL_FAILURE(Start());  // CreateMatch: the organiser's call
  for (int fd : flood) close(fd);
}

// A connection with no byte either way for --max_connection_idle_ms is shut
// down by the referee's listener, though it finished its handshake.
TEST_F(GrpcLimitsTest, AnIdleHandshakenConnectionIsShutDownByTheListener) {
  options_.manager.limits.max_connection_idle_ms = 1500;
  StartServer();
  const int fd = ConnectRaw(server_->port());
  ASSERT_GE(fd, 0);
  SendPreface(fd);
  EXPECT_FALSE(ClosedWithin(fd, absl::Milliseconds(500)));  // not yet
  EXPECT_TRUE(ClosedWithin(fd, absl::Seconds(10)));
  close(fd);
  EXPECT_GE(server_->connections()->closed_idle(), 1);
}

// One client holds at most --max_event_streams_per_client spectators'
// streams; the organiser's WatchMatchFull is served still.
TEST_F(GrpcLimitsTest, OneClientCannotHoardTheEventStreams) {
  StartServer();
  const Seats m = Start();
  const int cap = service::Limits().max_event_streams_per_client;
  ASSERT_GT(cap, 0);
  struct Open {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::MatchEvent>> reader;
  };
  std::vector<std::unique_ptr<Open>> held;
  v1::WatchMatchRequest watch;
  watch.set_match_id(m.match_id);
  v1::MatchEvent event;
  for (int i = 0; i < cap; ++i) {
    auto o = std::make_unique<Open>();
    o->reader = stub_->WatchMatch(&o->context, watch);
    ASSERT_TRUE(o->reader->Read(&event)) << "stream " << i;  // the header
    held.push_back(std::move(o));
  }
  grpc::ClientContext one_more;
  auto refused = stub_->WatchMatch(&one_more, watch);
  EXPECT_FALSE(refused->Read(&event));
  grpc::Status s = refused->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("this client's WatchMatch"));
  grpc::ClientContext organiser;
  auto full = stub_->WatchMatchFull(&organiser, watch);
  EXPECT_TRUE(full->Read(&event));
  organiser.TryCancel();
  full->Finish().IgnoreError();
  for (auto& o : held) {
    o->context.TryCancel();
    o->reader->Finish().IgnoreError();
  }
}

// Spectators together hold at most what --organiser_event_streams leaves of
// --max_event_streams: the organiser's stream gets in when they are full.
TEST_F(GrpcLimitsTest, TheOrganisersShareOfEventStreamsIsKept) {
  options_.manager.limits.max_event_streams = 6;
  options_.manager.limits.organiser_event_streams = 2;
  StartServer();
  const Seats m = Start();
  struct Open {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::MatchEvent>> reader;
  };
  std::vector<std::unique_ptr<Open>> held;
  v1::WatchMatchRequest watch;
  watch.set_match_id(m.match_id);
  v1::MatchEvent event;
  for (int i = 0; i < 4; ++i) {
    auto o = std::make_unique<Open>();
    o->reader = stub_->WatchMatch(&o->context, watch);
    ASSERT_TRUE(o->reader->Read(&event));
    held.push_back(std::move(o));
  }
  grpc::ClientContext fifth;
  auto refused = stub_->WatchMatch(&fifth, watch);
  EXPECT_FALSE(refused->Read(&event));
  grpc::Status s = refused->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("spectators' WatchMatch"));
  for (int i = 0; i < 2; ++i) {
    auto o = std::make_unique<Open>();
    o->reader = stub_->WatchMatchFull(&o->context, watch);
    EXPECT_TRUE(o->reader->Read(&event)) << "organiser stream " << i;
    held.push_back(std::move(o));
  }
  for (auto& o : held) {
    o->context.TryCancel();
    o->reader->Finish().IgnoreError();
  }
}

TEST_F(GrpcLimitsTest, AfterAConnectionFloodANewClientIsServed) {
  FloodThenServe();
}

TEST_F(GrpcLimitsTest, AfterAConnectionFloodANewTlsClientIsServed) {
  ASSERT_NO_FATAL_FAILURE(UseTls());
  FloodThenServe();
  // A plaintext client gets nowhere with a TLS referee.
  client_credentials_ = grpc::InsecureChannelCredentials();
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(2));
  EXPECT_FALSE(NewStub()->ListGames(&context, {}, &games).ok());
}

// Over TLS the referee still sees each client's address: connections from
// one address share its call budget.
TEST_F(GrpcLimitsTest, CallsPerSecondPerPeerAreLimitedOverTls) {
  ASSERT_NO_FATAL_FAILURE(UseTls());
  StartWithPeerRateOf5();
  for (int i = 0; i < 5; ++i) {
    v1::ListGamesResponse games;
    grpc::ClientContext context;
    ASSERT_TRUE(stub_->ListGames(&context, {}, &games).ok()) << i;
  }
  v1::ListGamesResponse games;
  grpc::ClientContext context;
  grpc::Status s = NewStub()->ListGames(&context, {}, &games);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("per client address"));
}

TEST_F(GrpcLimitsTest, ASequenceNumberReusedForALaterDecisionIsAConflict) {
  StartServer();
  const Seats m = Start();
  v1::Observation obs = Observe(*stub_, m, 0);
  const int seat = obs.seat_to_act();
  v1::Observation mine = Observe(*stub_, m, seat);
  ASSERT_TRUE(
      Submit(*stub_, m, seat, mine.legal_actions(0), mine.version(), 1).ok());
  // The same submission again: the stored answer, OK.
  EXPECT_TRUE(
      Submit(*stub_, m, seat, mine.legal_actions(0), mine.version(), 1).ok());
  // Wait for the seat's next decision.
  v1::Observation next = Observe(*stub_, m, seat);
  for (int i = 0; i < 1000 && next.seat_to_act() != seat &&
                  next.status() == v1::MATCH_STATUS_IN_PROGRESS;
       ++i) {
    const int other = next.seat_to_act();
    v1::Observation theirs = Observe(*stub_, m, other);
    ASSERT_TRUE(Submit(*stub_, m, other, theirs.legal_actions(0),
                       theirs.version())
                    .ok());
    next = Observe(*stub_, m, seat);
  }
  ASSERT_EQ(next.seat_to_act(), seat);
  grpc::Status s =
      Submit(*stub_, m, seat, next.legal_actions(0), next.version(), 1);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(s.error_message(), HasSubstr("sequence 1 was first used"));
  s = Submit(*stub_, m, seat, next.legal_actions(0), next.version() + 3, 2);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(s.error_message(), HasSubstr("from the future"));
}

}  // namespace
}  // namespace cardref
