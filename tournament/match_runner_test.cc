// A match whose creation's answers are lost (match_runner.h): the runner
// resends with its retry key for a while, gives the match up as "not
// played" with the keyed request, and SettleLostCreations ends the match
// the referee made once it answers again, so none waits for ever. Against
// an in-process referee; the answers are lost by a client interceptor after
// the referee has done the work.
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/support/client_interceptor.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/grpc/server.h"
#include "tournament/match_runner.h"

namespace cardref::tournament {
namespace {

namespace exp = grpc::experimental;

// While `lose` is set, every CreateMatch answer becomes UNAVAILABLE: the
// referee made (or found) the match, the client never hears of it.
class LoseCreateAnswers : public exp::Interceptor {
 public:
  LoseCreateAnswers(bool create, const std::atomic<bool>* lose)
      : create_(create), lose_(lose) {}
  void Intercept(exp::InterceptorBatchMethods* methods) override {
    if (create_ && lose_->load() &&
        methods->QueryInterceptionHookPoint(
            exp::InterceptionHookPoints::POST_RECV_STATUS)) {
      *methods->GetRecvStatus() =
          grpc::Status(grpc::StatusCode::UNAVAILABLE, "answer lost (test)");
    }
    methods->Proceed();
  }

 private:
  const bool create_;
  const std::atomic<bool>* lose_;
};

class LoseCreateAnswersFactory : public exp::ClientInterceptorFactoryInterface {
 public:
  explicit LoseCreateAnswersFactory(const std::atomic<bool>* lose)
      : lose_(lose) {}
  exp::Interceptor* CreateClientInterceptor(exp::ClientRpcInfo* info) override {
    return new LoseCreateAnswers(
        std::string(info->method()) == "/cardref.v1.Referee/CreateMatch",
        lose_);
  }

 private:
  const std::atomic<bool>* lose_;
};

class LostCreationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing_util::FreshTestDir("match_runner_test_");
    grpc_service::ServerOptions server;
    server.manager.log_dir = (dir_ / "logs").string();
    auto started = grpc_service::RefereeServer::Start(server);
    ASSERT_TRUE(started.ok()) << started.status();
    referee_ = *std::move(started);
    std::vector<std::unique_ptr<exp::ClientInterceptorFactoryInterface>> lossy;
    lossy.push_back(std::make_unique<LoseCreateAnswersFactory>(&lose_));
    stub_ = v1::Referee::NewStub(exp::CreateCustomChannelWithInterceptors(
        referee_->address(), grpc::InsecureChannelCredentials(),
        grpc::ChannelArguments(), std::move(lossy)));

    options_.server = referee_->address();
    options_.params = "game_length=SHORT";
    options_.bot_output_dir = dir_.string();
    options_.match_budget_s = 30;
    config_.bots = {{"a", {"/bin/false"}}, {"b", {"/bin/false"}}};
    config_.games = {{"craits", 2}};
    match_ = {"craits2-g001-d00-s0", "craits2-g001-d00", 0, {0, 1}};
    grpc::ClientContext context;
    v1::ListGamesResponse games;
    ASSERT_TRUE(stub_->ListGames(&context, {}, &games).ok());
    for (const v1::GameInfo& game : games.games()) {
      if (game.id() == "craits") craits_ = game;
    }
    ASSERT_EQ(craits_.id(), "craits");
  }

  // The referee's matches in `status`.
  int Matches(v1::MatchStatus status) {
    v1::ListMatchesRequest request;
    request.set_status(status);
    v1::ListMatchesResponse listed;
    grpc::ClientContext context;
    EXPECT_TRUE(stub_->ListMatches(&context, request, &listed).ok());
    return listed.matches_size();
  }

  std::filesystem::path dir_;
  std::unique_ptr<grpc_service::RefereeServer> referee_;
  std::atomic<bool> lose_{false};
  std::unique_ptr<v1::Referee::Stub> stub_;
  MatchOptions options_;
  ScheduleConfig config_;
  ScheduledMatch match_;
  v1::GameInfo craits_;
};

TEST_F(LostCreationTest, AMatchMadeWhoseAnswersWereLostIsEndedOnceTheRefereeAnswers) {
  lose_ = true;
  const MatchOutcome outcome = RunMatch(*stub_, craits_, config_, match_,
                                        std::string(32, 's'), options_);
  EXPECT_FALSE(outcome.played);
  EXPECT_EQ(outcome.record.outcome, "not played");
  ASSERT_TRUE(outcome.lost_creation.has_value());
  EXPECT_FALSE(outcome.lost_creation->retry_key().empty());
  // Every resend carried the key: one match, waiting for bots that will
  // never come.
  EXPECT_EQ(Matches(v1::MATCH_STATUS_WAITING_FOR_PLAYERS), 1);

  // Still lost: nothing can be checked.
  SettledCreations settled =
      SettleLostCreations(*stub_, {*outcome.lost_creation}, options_);
  EXPECT_EQ(settled.ended, 0);
  EXPECT_EQ(settled.unchecked, 1);
  EXPECT_EQ(Matches(v1::MATCH_STATUS_WAITING_FOR_PLAYERS), 1);

  lose_ = false;
  settled = SettleLostCreations(*stub_, {*outcome.lost_creation}, options_);
  EXPECT_EQ(settled.ended, 1);
  EXPECT_EQ(settled.unchecked, 0);
  EXPECT_EQ(Matches(v1::MATCH_STATUS_WAITING_FOR_PLAYERS), 0);
  EXPECT_EQ(Matches(v1::MATCH_STATUS_CANCELLED), 1);
}

// A creation that never reached the referee (it was down) makes its match
// when settled, and that match is ended at once.
TEST_F(LostCreationTest, ACreationTheRefereeNeverSawLeavesNoMatchWaiting) {
  auto unreachable = v1::Referee::NewStub(grpc::CreateChannel(
      "127.0.0.1:1", grpc::InsecureChannelCredentials()));
  const MatchOutcome outcome = RunMatch(*unreachable, craits_, config_, match_,
                                        std::string(32, 's'), options_);
  EXPECT_FALSE(outcome.played);
  ASSERT_TRUE(outcome.lost_creation.has_value());
  EXPECT_EQ(Matches(v1::MATCH_STATUS_UNSPECIFIED), 0);
  const SettledCreations settled =
      SettleLostCreations(*stub_, {*outcome.lost_creation}, options_);
  EXPECT_EQ(settled.ended, 1);
  EXPECT_EQ(Matches(v1::MATCH_STATUS_WAITING_FOR_PLAYERS), 0);
  EXPECT_EQ(Matches(v1::MATCH_STATUS_CANCELLED), 1);
}

// A creation refused for good (here: an unknown parameter value) is the
// match's failure, not a lost answer: nothing to settle.
TEST_F(LostCreationTest, ARefusedCreationIsNotLost) {
  options_.params = "game_length=ENDLESS";
  const MatchOutcome outcome = RunMatch(*stub_, craits_, config_, match_,
                                        std::string(32, 's'), options_);
  EXPECT_TRUE(outcome.played);
  EXPECT_EQ(outcome.record.outcome, "failed");
  EXPECT_FALSE(outcome.lost_creation.has_value());
}

// What the progress line and matches/*.json say of a seat's faults.
TEST(DescribeFaultsTest, NamesEveryCountAndNothingWithout) {
  cardref::v1::SeatFaults none;
  EXPECT_EQ(DescribeFaults(none), "");
  cardref::v1::SeatFaults slow;
  slow.set_timeouts(6);
  slow.set_rejections(1);
  slow.set_absent(true);
  slow.set_played_for(851);
  EXPECT_EQ(DescribeFaults(slow),
            "6 timeouts, 1 rejected submission, made absent, 851 decisions "
            "played by the referee");
}

}  // namespace
}  // namespace cardref::tournament
