// A tiny synchronous client for the operations tests (disk full, shutdown,
// metrics): creates two-player short Craits matches, joins both seats and
// plays random legal moves through the real gRPC service.
#ifndef CARDREF_TESTS_OPS_TEST_CLIENT_H_
#define CARDREF_TESTS_OPS_TEST_CLIENT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"

namespace cardref::testing_ops {

struct TestMatch {
  std::string id;
  std::vector<std::string> tokens;  // by seat
};

class OpsTestClient {
 public:
  explicit OpsTestClient(const std::string& address)
      : stub_(v1::Referee::NewStub(grpc::CreateChannel(
            address, grpc::InsecureChannelCredentials()))) {}

  v1::Referee::Stub& stub() { return *stub_; }

  grpc::Status Create(uint64_t seed, std::string* id,
                      const v1::FaultPolicy* policy = nullptr,
                      int64_t limit_ms = 60'000) {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    auto& values = *request.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    request.set_dealing_seed(seed);
    request.set_decision_time_limit_millis(limit_ms);
    if (policy != nullptr) *request.mutable_fault_policy() = *policy;
    v1::CreateMatchResponse response;
    grpc::ClientContext context;
    grpc::Status s = stub_->CreateMatch(&context, request, &response);
    *id = response.match_id();
    return s;
  }

  // Creates and joins both seats; an empty id if anything failed.
  TestMatch Start(uint64_t seed, const v1::FaultPolicy* policy = nullptr,
                  int64_t limit_ms = 60'000) {
    TestMatch match;
    if (!Create(seed, &match.id, policy, limit_ms).ok()) return {};
    for (int seat = 0; seat < 2; ++seat) {
      v1::JoinMatchRequest request;
      request.set_match_id(match.id);
      request.set_seat(seat);
      request.set_player_name("bot" + std::to_string(seat));
      v1::JoinMatchResponse response;
      grpc::ClientContext context;
      if (!stub_->JoinMatch(&context, request, &response).ok()) return {};
      match.tokens.push_back(response.token());
    }
    return match;
  }

  grpc::Status Observe(const TestMatch& match, int seat, v1::Observation* obs) {
    v1::SeatRequest request;
    request.set_match_id(match.id);
    request.set_seat(seat);
    request.set_token(match.tokens[seat]);
    grpc::ClientContext context;
    return stub_->GetObservation(&context, request, obs);
  }

  // One random legal move by the seat to act. OK with *over set once the
  // match is no longer in progress; the submission's status otherwise.
  grpc::Status Step(const TestMatch& match, Rng& rng, bool* over) {
    v1::Observation obs;
    *over = false;
    if (grpc::Status s = Observe(match, 0, &obs); !s.ok()) return s;
    if (obs.status() != v1::MATCH_STATUS_IN_PROGRESS) {
      *over = true;
      return grpc::Status::OK;
    }
    const int seat = obs.seat_to_act();
    if (seat != 0) {
      if (grpc::Status s = Observe(match, seat, &obs); !s.ok()) return s;
    }
    v1::SubmitActionRequest submit;
    submit.set_match_id(match.id);
    submit.set_seat(seat);
    submit.set_token(match.tokens[seat]);
    *submit.mutable_action() =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    submit.set_decision_version(obs.version());
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    return stub_->SubmitAction(&context, submit, &response);
  }

  // `moves` moves (fewer if the game ends first).
  grpc::Status Play(const TestMatch& match, Rng& rng, int moves) {
    for (int i = 0; i < moves; ++i) {
      bool over = false;
      if (grpc::Status s = Step(match, rng, &over); !s.ok() || over) return s;
    }
    return grpc::Status::OK;
  }

  // Plays until the match is over, at most `max_moves`.
  grpc::Status PlayToEnd(const TestMatch& match, Rng& rng,
                         int max_moves = 100'000) {
    for (int i = 0; i < max_moves; ++i) {
      bool over = false;
      grpc::Status s = Step(match, rng, &over);
      if (!s.ok() || over) return s;
    }
    return grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED,
                        "the game did not end");
  }

  // A submission for the seat that is not to act: rejected (and logged).
  grpc::Status SubmitOutOfTurn(const TestMatch& match) {
    v1::Observation obs;
    if (grpc::Status s = Observe(match, 0, &obs); !s.ok()) return s;
    // Seat 1 when seat 0 is to act, else seat 0 (also when no one is: an
    // ended match).
    const int seat = obs.seat_to_act() == 0 ? 1 : 0;
    v1::SubmitActionRequest submit;
    submit.set_match_id(match.id);
    submit.set_seat(seat);
    submit.set_token(match.tokens[seat]);
    submit.mutable_action()->set_notation("PASS");
    v1::SubmitActionResponse response;
    grpc::ClientContext context;
    return stub_->SubmitAction(&context, submit, &response);
  }

  grpc::Status Info(const std::string& id, v1::MatchInfo* info) {
    v1::GetMatchRequest request;
    request.set_match_id(id);
    grpc::ClientContext context;
    return stub_->GetMatch(&context, request, info);
  }

 private:
  std::unique_ptr<v1::Referee::Stub> stub_;
};

}  // namespace cardref::testing_ops

#endif  // CARDREF_TESTS_OPS_TEST_CLIENT_H_
