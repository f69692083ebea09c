// A seat made absent is told so over real gRPC (docs/fault_policy.md): its
// observation stream ends with FAILED_PRECONDITION naming the timeouts in a
// row, its submissions get the same, GetMatch counts its faults, and the
// log audits OK.
#include <chrono>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "analyzer/cli.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

class GrpcAbsentSeatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir("grpc_absent_seat_test_");
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_.string();
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    stub_ = v1::Referee::NewStub(grpc::CreateChannel(
        server_->address(), grpc::InsecureChannelCredentials()));
  }

  v1::JoinMatchResponse Join(const std::string& match_id, int seat) {
    v1::JoinMatchRequest request;
    request.set_match_id(match_id);
    request.set_seat(seat);
    request.set_player_name(seat == 0 ? "quick" : "slow");
    v1::JoinMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub_->JoinMatch(&context, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return response;
  }

  static v1::SeatRequest Seat(const v1::JoinMatchResponse& joined) {
    v1::SeatRequest request;
    request.set_match_id(joined.match_id());
    request.set_seat(joined.seat());
    request.set_token(joined.token());
    return request;
  }

  std::filesystem::path log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

TEST_F(GrpcAbsentSeatTest, TheStreamAndTheSubmissionsOfAnAbsentSeatSaySo) {
  v1::CreateMatchRequest create;
  create.set_game("craits");
  (*create.mutable_params()->mutable_values())["num_players"].set_int_value(2);
  (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
      "SHORT");
  create.set_dealing_seed(9);
  // Long enough for the quick seat on a loaded machine (or under TSan).
  create.set_decision_time_limit_millis(1000);
  create.mutable_fault_policy()->set_max_consecutive_timeouts(2);
  create.mutable_fault_policy()->set_action(v1::FAULT_ACTION_SUBSTITUTE);
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext context;
    grpc::Status s = stub_->CreateMatch(&context, create, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  const v1::JoinMatchResponse quick = Join(created.match_id(), 0);
  const v1::JoinMatchResponse slow = Join(created.match_id(), 1);

  // The slow seat reads its stream and never answers.
  int shown = 0;
  grpc::Status stream_end;
  std::thread slow_reader([&] {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::seconds(60));
    auto stream = stub_->WatchObservations(&context, Seat(slow));
    v1::Observation obs;
    while (stream->Read(&obs)) ++shown;
    stream_end = stream->Finish();
  });

  // The quick seat plays its first legal action to the end: polling while
  // another seat is to act, else from the view its answer brings.
  v1::Observation last;
  uint64_t sequence = 0;
  bool fresh = false;  // `last` is the view the last answer brought
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < give_up) {
    if (!fresh) {
      grpc::ClientContext context;
      ASSERT_TRUE(stub_->GetObservation(&context, Seat(quick), &last).ok());
    }
    fresh = false;
    if (last.status() == v1::MATCH_STATUS_FINISHED) break;
    if (last.seat_to_act() != 0 || last.legal_actions().empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    v1::SubmitActionRequest submit;
    submit.set_match_id(quick.match_id());
    submit.set_seat(0);
    submit.set_token(quick.token());
    *submit.mutable_action() = last.legal_actions(0);
    submit.set_decision_version(last.version());
    submit.set_sequence(++sequence);
    v1::SubmitActionResponse response;
    grpc::ClientContext submit_context;
    ASSERT_TRUE(stub_->SubmitAction(&submit_context, submit, &response).ok());
    last = response.observation();
    fresh = true;
  }
  ASSERT_EQ(last.status(), v1::MATCH_STATUS_FINISHED);
  slow_reader.join();

  const std::string absent =
      "seat 1 was made absent after 2 timeouts in a row (docs/fault_policy.md)";
  EXPECT_EQ(shown, 2);  // its two decisions, then the stream's end
  EXPECT_EQ(stream_end.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(stream_end.error_message(), HasSubstr(absent));
  EXPECT_THAT(last.absent_seats(), ::testing::ElementsAre(1));

  // A submission of the absent seat, now the match is over.
  v1::SubmitActionRequest late;
  late.set_match_id(slow.match_id());
  late.set_seat(1);
  late.set_token(slow.token());
  late.mutable_action()->set_notation("draw");
  late.set_decision_version(last.version());
  late.set_sequence(1);
  v1::SubmitActionResponse response;
  grpc::ClientContext late_context;
  const grpc::Status refused =
      stub_->SubmitAction(&late_context, late, &response);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(refused.error_message(), HasSubstr("the match is over; " + absent));

  v1::GetMatchRequest get;
  get.set_match_id(created.match_id());
  v1::MatchInfo info;
  grpc::ClientContext get_context;
  ASSERT_TRUE(stub_->GetMatch(&get_context, get, &info).ok());
  ASSERT_EQ(info.seat_faults_size(), 2);
  EXPECT_EQ(info.seat_faults(1).timeouts(), 2);
  EXPECT_TRUE(info.seat_faults(1).absent());
  EXPECT_GT(info.seat_faults(1).played_for(), 2);
  EXPECT_EQ(info.seat_faults(0).played_for(), 0);

  std::ostringstream out, err;
  EXPECT_EQ(analyzer::RunAudit({info.log_path()}, false, AllGames(), out, err),
            analyzer::kExitOk)
      << out.str() << err.str();
}

}  // namespace
}  // namespace cardref
