// A real referee on a loopback port for the gRPC suites that attack it
// (grpc_limits_test, grpc_hostile_test): start it with the options a test
// sets, create and join 2-seat Craits matches, play them out with random
// legal actions, find their logs.
#ifndef CARDREF_TESTS_REFEREE_FIXTURE_H_
#define CARDREF_TESTS_REFEREE_FIXTURE_H_

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"
#include "referee/service/clock.h"

namespace cardref {

class RefereeFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir(
        ::testing::UnitTest::GetInstance()->current_test_suite()->name());
    options_.manager.log_dir = log_dir_.string();
  }

  void StartServer() {
    auto server = grpc_service::RefereeServer::Start(options_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    stub_ = NewStub();
  }

  // A channel of its own: a fresh connection, not gRPC's shared one.
  std::shared_ptr<grpc::Channel> NewChannel() {
    grpc::ChannelArguments args;
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    args.SetMaxReceiveMessageSize(8 << 20);
    return grpc::CreateCustomChannel(server_->address(), client_credentials_,
                                     args);
  }
  std::unique_ptr<v1::Referee::Stub> NewStub() {
    return v1::Referee::NewStub(NewChannel());
  }

  // A short 2-player Craits match (dealing seed 3); `decision_time_limit`
  // 0: the referee's default.
  absl::StatusOr<v1::CreateMatchResponse> Create(
      v1::Referee::Stub& stub, int64_t decision_time_limit_millis = 0) {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    auto& values = *request.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    request.set_dealing_seed(3);
    request.set_decision_time_limit_millis(decision_time_limit_millis);
    v1::CreateMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub.CreateMatch(&context, request, &response);
    if (!s.ok()) {
      return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                          s.error_message());
    }
    return response;
  }

  // A started 2-seat match: its id and the seats' tokens.
  struct Seats {
    std::string match_id;
    std::vector<std::string> tokens;
  };
  Seats Start(int64_t decision_time_limit_millis = 0) {
    absl::StatusOr<v1::CreateMatchResponse> created =
        Create(*stub_, decision_time_limit_millis);
    EXPECT_TRUE(created.ok()) << created.status();
    return JoinAll(created->match_id(), 2);
  }

  // Seats 0..`players`-1 of match `match_id` joined (as "bot0", ...).
  Seats JoinAll(const std::string& match_id, int players) {
    Seats out;
    out.match_id = match_id;
    for (int s = 0; s < players; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(match_id);
      join.set_seat(s);
      join.set_player_name("bot" + std::to_string(s));
      v1::JoinMatchResponse joined;
      grpc::ClientContext context;
      grpc::Status status = stub_->JoinMatch(&context, join, &joined);
      EXPECT_TRUE(status.ok()) << status.error_message();
      out.tokens.push_back(joined.token());
    }
    return out;
  }

  // Calls `call` until it is not RESOURCE_EXHAUSTED (what a polite bot does
  // with a rate limit's retry hint).
  template <typename Call>
  grpc::Status Retrying(Call call) {
    for (int i = 0; i < 2000; ++i) {
      grpc::Status s = call();
      if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) return s;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "gave up");
  }

  v1::Observation Observe(v1::Referee::Stub& stub, const Seats& m, int seat) {
    v1::SeatRequest request;
    request.set_match_id(m.match_id);
    request.set_seat(seat);
    request.set_token(m.tokens[seat]);
    v1::Observation obs;
    grpc::Status s = Retrying([&] {
      grpc::ClientContext context;
      return stub.GetObservation(&context, request, &obs);
    });
    EXPECT_TRUE(s.ok()) << s.error_message();
    return obs;
  }

  grpc::Status Submit(v1::Referee::Stub& stub, const Seats& m, int seat,
                      const v1::Action& action, uint64_t version,
                      uint64_t sequence = 0,
                      v1::SubmitActionResponse* answer = nullptr) {
    v1::SubmitActionRequest request;
    request.set_match_id(m.match_id);
    request.set_seat(seat);
    request.set_token(m.tokens[seat]);
    *request.mutable_action() = action;
    request.set_decision_version(version);
    request.set_sequence(sequence);
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    return stub.SubmitAction(&context, request,
                             answer != nullptr ? answer : &response);
  }

  // Plays random legal actions for both seats until the match is over. Two
  // calls per decision, both with the acting seat's token: its view, then
  // the action, whose answer says who acts next (tests with a low rate
  // limit per token play out at twice the speed of a poll of seat 0).
  v1::Observation PlayOut(v1::Referee::Stub& stub, const Seats& m,
                          uint64_t seed) {
    Rng rng(seed);
    v1::Observation obs = Observe(stub, m, 0);
    for (int guard = 0; guard < 100000; ++guard) {
      if (obs.status() != v1::MATCH_STATUS_IN_PROGRESS) return obs;
      const int seat = obs.seat_to_act();
      v1::Observation mine = Observe(stub, m, seat);
      if (mine.seat_to_act() != seat) {
        obs = mine;
        continue;
      }
      const v1::Action action =
          mine.legal_actions(rng.Uniform(mine.legal_actions_size()));
      v1::SubmitActionResponse answer;
      grpc::Status s = Retrying([&] {
        return Submit(stub, m, seat, action, mine.version(), 0, &answer);
      });
      EXPECT_TRUE(s.ok()) << s.error_message();
      obs = s.ok() && answer.has_observation() ? answer.observation()
                                                : Observe(stub, m, 0);
    }
    ADD_FAILURE() << "the match did not end";
    return obs;
  }

  std::string LogPath(const std::string& match_id) {
    v1::GetMatchRequest get;
    get.set_match_id(match_id);
    v1::MatchInfo info;
    grpc::Status s = Retrying([&] {
      grpc::ClientContext context;
      return stub_->GetMatch(&context, get, &info);
    });
    EXPECT_TRUE(s.ok()) << s.error_message();
    return info.log_path();
  }

  std::filesystem::path log_dir_;
  grpc_service::ServerOptions options_;
  // What NewStub's channels connect with (TLS tests set their own).
  std::shared_ptr<grpc::ChannelCredentials> client_credentials_ =
      grpc::InsecureChannelCredentials();
  // Outlives server_: the manager's clock thread reads it until the end.
  service::FakeClock fake_clock_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

}  // namespace cardref

#endif  // CARDREF_TESTS_REFEREE_FIXTURE_H_
