// Disconnect detection over real gRPC on loopback: a bot whose observation
// stream closes is timed out at once (FaultPolicy.disconnect_is_timeout),
// not after its whole 60 s allowance, and the audit agrees with the log.
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "referee/base/testing/fresh_test_dir.h"
#include "analyzer/audit.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gtest/gtest.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"
#include "games/all_games.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"

namespace cardref {
namespace {

class GrpcFaultPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir("grpc_fault_test_");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_.string();
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = grpc::CreateChannel(server_->address(),
                                   grpc::InsecureChannelCredentials());
    stub_ = v1::Referee::NewStub(channel_);
  }

  v1::JoinMatchResponse Join(const std::string& match_id, int seat) {
    v1::JoinMatchRequest request;
    request.set_match_id(match_id);
    request.set_seat(seat);
    request.set_player_name("bot" + std::to_string(seat));
    v1::JoinMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub_->JoinMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }

  std::filesystem::path log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

TEST_F(GrpcFaultPolicyTest, AClosedStreamTimesTheSeatOutAtOnce) {
  v1::CreateMatchRequest create;
  create.set_game("craits");
  (*create.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
      "SHORT");
  create.set_dealing_seed(5);
  create.set_decision_time_limit_millis(60'000);
  create.mutable_fault_policy()->set_disconnect_is_timeout(true);
  create.mutable_fault_policy()->set_max_consecutive_timeouts(1);
  create.mutable_fault_policy()->set_action(v1::FAULT_ACTION_FORFEIT);
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    grpc::Status s = stub_->CreateMatch(&context, create, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  const v1::JoinMatchResponse alive = Join(created.match_id(), 0);
  const v1::JoinMatchResponse gone = Join(created.match_id(), 1);

  // Seat 1 opens its stream, reads one observation, and goes away.
  {
    v1::SeatRequest request;
    request.set_match_id(gone.match_id());
    request.set_seat(1);
    request.set_token(gone.token());
    grpc::ClientContext context;
    auto stream = stub_->WatchObservations(&context, request);
    v1::Observation first;
    ASSERT_TRUE(stream->Read(&first));
    context.TryCancel();
    stream->Finish().IgnoreError();
  }

  // Seat 0 plays; the whole game must take far less than one 60 s limit.
  const auto start = std::chrono::steady_clock::now();
  Rng rng(9);
  v1::SeatRequest request;
  request.set_match_id(alive.match_id());
  request.set_seat(0);
  request.set_token(alive.token());
  grpc::ClientContext context;
  auto stream = stub_->WatchObservations(&context, request);
  v1::Observation obs, last;
  while (stream->Read(&obs)) {
    last = obs;
    if (obs.seat_to_act() != 0) continue;
    v1::SubmitActionRequest submit;
    submit.set_match_id(alive.match_id());
    submit.set_seat(0);
    submit.set_token(alive.token());
    *submit.mutable_action() =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    submit.set_decision_version(obs.version());
    v1::SubmitActionResponse response;
    grpc::ClientContext submit_context;
    grpc::Status s = stub_->SubmitAction(&submit_context, submit, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
  }
  EXPECT_TRUE(stream->Finish().ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(last.status(), v1::MATCH_STATUS_FINISHED);
  ASSERT_EQ(last.forfeited_seats_size(), 1);
  EXPECT_EQ(last.forfeited_seats(0), 1);
  EXPECT_EQ(last.result().ranks(1), 2);

  v1::MatchInfo info;
  {
    v1::GetMatchRequest get;
    get.set_match_id(alive.match_id());
    grpc::ClientContext get_context;
    ASSERT_TRUE(stub_->GetMatch(&get_context, get, &info).ok());
  }
  EXPECT_TRUE(info.fault_policy().disconnect_is_timeout());
  auto log = record::ReadGameLog(info.log_path());
  ASSERT_TRUE(log.ok()) << log.status();
  int disconnects = 0, forfeits = 0;
  for (const v1::LogRecord& r : log->records) {
    disconnects += r.has_fault() &&
                   r.fault().kind() == v1::FAULT_KIND_DISCONNECTED;
    forfeits += r.has_forfeit();
  }
  EXPECT_EQ(disconnects, 1);
  EXPECT_EQ(forfeits, 1);
  analyzer::AuditReport report =
      analyzer::AuditFile(info.log_path(), {}, AllGames());
  EXPECT_EQ(report.verdict, analyzer::Verdict::kOk) << report.Line();
}

}  // namespace
}  // namespace cardref
