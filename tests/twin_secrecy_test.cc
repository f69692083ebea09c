// Duplicate play's twins stay secret until their deal set is done
// (docs/auth.md, "Twins"), over real gRPC against a referee with an
// organiser credential: a spy that holds a seat in one twin asks GetMatch
// and WatchMatch about the others, played before, at the same time and not
// yet created, and learns nothing but ids and status, while its own seat
// still sees its own match. Once the set is done, everything is public.
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

constexpr char kTwinsOrganiserToken[] = "organiser-secret-twins-0123456789";

class TwinSecrecyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    log_dir_ = testing_util::FreshTestDir("twin_secrecy_").string();
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir_;
    options.manager.evict_after = EvictAfter();
    options.organiser_token = kTwinsOrganiserToken;
    auto server = grpc_service::RefereeServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    stub_ = v1::Referee::NewStub(grpc::CreateChannel(
        server_->address(), grpc::InsecureChannelCredentials()));
  }

  void TearDown() override {
    stub_.reset();
    server_.reset();
  }

  // How long an ended match stays in memory (then GetMatch reads its
  // archive, and WatchMatch refuses): longer than a slow (sanitized) test
  // takes to watch its finished twins.
  virtual absl::Duration EvictAfter() const { return absl::Minutes(5); }

  static void AsOrganiser(grpc::ClientContext* context) {
    context->AddMetadata("authorization",
                         absl::StrCat("Bearer ", kTwinsOrganiserToken));
  }

  // A twin of deal set "set-1" (the same seed for every twin), invited:
  // seat tokens come back through the tickets.
  struct Twin {
    std::string id;
    std::vector<std::string> tokens;
  };
  Twin CreateAndJoin(uint32_t deal_set_size) {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    auto& values = *request.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    request.set_seed(std::string(32, '\x07'));
    request.set_deal_set_id("set-1");
    request.set_deal_set_size(deal_set_size);
    request.add_seat_assignments()->set_player_name("spy");
    request.add_seat_assignments()->set_player_name("honest");
    v1::CreateMatchResponse created;
    grpc::ClientContext context;
    AsOrganiser(&context);
    grpc::Status s = stub_->CreateMatch(&context, request, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    Twin twin{created.match_id(), {}};
    for (const v1::SeatTicket& t : created.tickets()) {
      v1::JoinMatchRequest join;
      join.set_match_id(twin.id);
      join.set_ticket(t.ticket());
      v1::JoinMatchResponse joined;
      grpc::ClientContext c;
      EXPECT_TRUE(stub_->JoinMatch(&c, join, &joined).ok());
      twin.tokens.push_back(joined.token());
    }
    return twin;
  }

  // Plays `twin` to its end with random legal actions.
  void PlayToEnd(const Twin& twin, uint64_t seed) {
    Rng rng(seed);
    for (int step = 0; step < 5000; ++step) {
      v1::Observation obs;
      bool acted = false;
      for (int seat = 0; seat < 2 && !acted; ++seat) {
        v1::SeatRequest request;
        request.set_match_id(twin.id);
        request.set_seat(seat);
        request.set_token(twin.tokens[seat]);
        grpc::ClientContext c;
        ASSERT_TRUE(stub_->GetObservation(&c, request, &obs).ok());
        if (obs.status() == v1::MATCH_STATUS_FINISHED) return;
        if (obs.seat_to_act() != seat) continue;
        v1::SubmitActionRequest submit;
        submit.set_match_id(twin.id);
        submit.set_seat(seat);
        submit.set_token(twin.tokens[seat]);
        *submit.mutable_action() = obs.legal_actions(
            static_cast<int>(rng.Uniform(obs.legal_actions_size())));
        submit.set_decision_version(obs.version());
        v1::SubmitActionResponse response;
        grpc::ClientContext sc;
        ASSERT_TRUE(stub_->SubmitAction(&sc, submit, &response).ok());
        acted = true;
      }
    }
    FAIL() << "the match did not end";
  }

  // What the spy (no organiser credential) sees of `id`.
  v1::MatchInfo SpyInfo(const std::string& id) {
    v1::GetMatchRequest request;
    request.set_match_id(id);
    v1::MatchInfo info;
    grpc::ClientContext c;
    EXPECT_TRUE(stub_->GetMatch(&c, request, &info).ok());
    return info;
  }
  grpc::Status SpyWatch(const std::string& id) {
    v1::WatchMatchRequest request;
    request.set_match_id(id);
    grpc::ClientContext c;
    auto reader = stub_->WatchMatch(&c, request);
    v1::MatchEvent event;
    while (reader->Read(&event)) {
    }
    return reader->Finish();
  }
  // Only an id and a status: nothing of the deal, the seats or the result.
  static void ExpectIdAndStatusOnly(const v1::MatchInfo& info,
                                    const std::string& id) {
    EXPECT_EQ(info.match_id(), id);
    v1::MatchInfo bare;
    bare.set_match_id(info.match_id());
    bare.set_status(info.status());
    EXPECT_EQ(info.SerializeAsString(), bare.SerializeAsString())
        << info.DebugString();
  }

  std::string log_dir_;
  std::unique_ptr<grpc_service::RefereeServer> server_;
  std::unique_ptr<v1::Referee::Stub> stub_;
};

TEST_F(TwinSecrecyTest, ASpyLearnsNothingOfItsDealFromTwinsBeforeTheSetIsDone) {
  // Sequential twins: the first is over before the second exists.
  const Twin first = CreateAndJoin(3);
  ASSERT_NO_FATAL_FAILURE(PlayToEnd(first, 1));
  ExpectIdAndStatusOnly(SpyInfo(first.id), first.id);
  EXPECT_EQ(SpyInfo(first.id).status(), v1::MATCH_STATUS_FINISHED);
  grpc::Status watch = SpyWatch(first.id);
  EXPECT_EQ(watch.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(watch.error_message(), HasSubstr("deal set"));
  // Concurrent twins: the spy sits in the second while the third is played.
  const Twin second = CreateAndJoin(0);
  const Twin third = CreateAndJoin(0);
  for (const Twin* twin : {&first, &second, &third}) {
    ExpectIdAndStatusOnly(SpyInfo(twin->id), twin->id);
    EXPECT_EQ(SpyWatch(twin->id).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  // Its own seat still sees its own match.
  v1::SeatRequest own;
  own.set_match_id(second.id);
  own.set_seat(0);
  own.set_token(second.tokens[0]);
  v1::Observation obs;
  grpc::ClientContext oc;
  ASSERT_TRUE(stub_->GetObservation(&oc, own, &obs).ok());
  EXPECT_TRUE(obs.has_craits());
  EXPECT_GT(obs.craits().hand_size(), 0);
  // The organiser sees everything but the seed (twins are in play).
  {
    v1::GetMatchRequest request;
    request.set_match_id(first.id);
    v1::MatchInfo info;
    grpc::ClientContext c;
    AsOrganiser(&c);
    ASSERT_TRUE(stub_->GetMatch(&c, request, &info).ok());
    EXPECT_TRUE(info.has_result());
    EXPECT_FALSE(info.log_path().empty());
    EXPECT_TRUE(info.seed().empty());
  }
  // The set is full: no fourth twin.
  {
    v1::CreateMatchRequest request;
    request.set_game("craits");
    request.set_deal_set_id("set-1");
    request.add_seat_assignments()->set_player_name("a");
    request.add_seat_assignments()->set_player_name("b");
    request.add_seat_assignments()->set_player_name("c");
    request.add_seat_assignments()->set_player_name("d");
    v1::CreateMatchResponse created;
    grpc::ClientContext c;
    AsOrganiser(&c);
    grpc::Status s = stub_->CreateMatch(&c, request, &created);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_THAT(s.error_message(), HasSubstr("closed"));
  }
  ASSERT_NO_FATAL_FAILURE(PlayToEnd(third, 3));
  ExpectIdAndStatusOnly(SpyInfo(third.id), third.id);  // second in play
  ASSERT_NO_FATAL_FAILURE(PlayToEnd(second, 2));
  // Done: every twin is public, seed included, and its stream replays it.
  for (const Twin* twin : {&first, &second, &third}) {
    const v1::MatchInfo info = SpyInfo(twin->id);
    EXPECT_TRUE(info.has_result()) << twin->id;
    EXPECT_EQ(info.seed(), std::string(32, '\x07'));
    EXPECT_TRUE(info.log_path().empty());  // the organiser's only
    EXPECT_TRUE(SpyWatch(twin->id).ok());
  }
}

TEST_F(TwinSecrecyTest, AnOpenSetIsSecretUntilTheOrganiserClosesIt) {
  const Twin only = CreateAndJoin(0);
  ASSERT_NO_FATAL_FAILURE(PlayToEnd(only, 4));
  ExpectIdAndStatusOnly(SpyInfo(only.id), only.id);  // more may come
  // Closing is the organiser's.
  v1::CloseDealSetRequest close;
  close.set_deal_set_id("set-1");
  v1::CloseDealSetResponse closed;
  {
    grpc::ClientContext c;
    EXPECT_EQ(stub_->CloseDealSet(&c, close, &closed).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  grpc::ClientContext c;
  AsOrganiser(&c);
  ASSERT_TRUE(stub_->CloseDealSet(&c, close, &closed).ok());
  EXPECT_EQ(closed.matches(), 1u);
  EXPECT_EQ(closed.over(), 1u);
  EXPECT_TRUE(SpyInfo(only.id).has_result());
  EXPECT_TRUE(SpyWatch(only.id).ok());
}

// Ended matches leave memory at once: GetMatch answers from the archive.
class TwinSecrecyArchiveTest : public TwinSecrecyTest {
 protected:
  absl::Duration EvictAfter() const override { return absl::Milliseconds(50); }
};

// A twin cancelled before it was played was dealt like the others: once it
// leaves memory, the archive of cancelled matches must not give its seed
// (or anything but its id and status) while the set is secret.
TEST_F(TwinSecrecyArchiveTest, ACancelledTwinLeftInTheArchiveStaysSecret) {
  v1::CreateMatchRequest request;
  request.set_game("craits");
  auto& values = *request.mutable_params()->mutable_values();
  values["num_players"].set_int_value(2);
  request.set_seed(std::string(32, '\x07'));
  request.set_deal_set_id("set-1");
  request.set_deal_set_size(2);
  request.add_seat_assignments()->set_player_name("spy");
  request.add_seat_assignments()->set_player_name("honest");
  v1::CreateMatchResponse created;
  {
    grpc::ClientContext c;
    AsOrganiser(&c);
    ASSERT_TRUE(stub_->CreateMatch(&c, request, &created).ok());
  }
  v1::EndMatchRequest cancel;
  cancel.set_match_id(created.match_id());
  v1::MatchInfo cancelled;
  {
    grpc::ClientContext c;
    AsOrganiser(&c);
    ASSERT_TRUE(stub_->CancelMatch(&c, cancel, &cancelled).ok());
  }
  ASSERT_EQ(cancelled.status(), v1::MATCH_STATUS_CANCELLED);
  // Once it has left memory, the answers come from the archive.
  absl::SleepFor(absl::Milliseconds(600));
  ExpectIdAndStatusOnly(SpyInfo(created.match_id()), created.match_id());
  v1::GetMatchRequest get;
  get.set_match_id(created.match_id());
  v1::MatchInfo organiser;
  grpc::ClientContext c;
  AsOrganiser(&c);
  ASSERT_TRUE(stub_->GetMatch(&c, get, &organiser).ok());
  EXPECT_EQ(organiser.status(), v1::MATCH_STATUS_CANCELLED);
  EXPECT_EQ(organiser.game(), "craits");
}

}  // namespace
}  // namespace cardref
