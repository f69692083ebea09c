// JoinMatchRequest.retry_key: a join resent after its answer was lost gets
// that answer again and takes no other seat (docs/bots.md, "When the
// network fails").
#include <atomic>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/games/all_games.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

constexpr char kKey[] = "k3y-of-the-bot-0123456789";

class JoinRetryTest : public ::testing::Test {
 protected:
  JoinRetryTest() : dir_(testing_util::FreshTestDir("join_retry_test_")) {
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.clock = &clock_;
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // A 2-seat Craits match; with `names`, by invitation.
  v1::CreateMatchResponse Create(bool invited = false) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(
        2);
    if (invited) {
      for (const char* name : {"alice", "bob"}) {
        create.add_seat_assignments()->set_player_name(name);
      }
    }
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(create);
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? *created : v1::CreateMatchResponse();
  }

  static v1::JoinMatchRequest Join(const std::string& match_id,
                                   const std::string& key) {
    v1::JoinMatchRequest join;
    join.set_match_id(match_id);
    join.set_game("craits");
    join.set_retry_key(key);
    return join;
  }

  FakeClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
};

TEST_F(JoinRetryTest, AResentJoinGetsTheFirstAnswerAndTakesNoOtherSeat) {
  const std::string id = Create().match_id();
  absl::StatusOr<v1::JoinMatchResponse> first =
      manager_->JoinMatch(Join(id, kKey));
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<v1::JoinMatchResponse> again =
      manager_->JoinMatch(Join(id, kKey));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*again, *first))
      << again->DebugString() << first->DebugString();
  // The other seat is still free: the resend did not take it.
  absl::StatusOr<v1::JoinMatchResponse> other =
      manager_->JoinMatch(Join(id, ""));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(other->seat(), first->seat());
  // The match started with the second seat; a resend still answers.
  EXPECT_EQ(manager_->Info(id)->status(), v1::MATCH_STATUS_IN_PROGRESS);
  again = manager_->JoinMatch(Join(id, kKey));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->token(), first->token());
}

TEST_F(JoinRetryTest, AJoinByGameIsFoundAgainWithoutItsMatchId) {
  const std::string id = Create().match_id();
  absl::StatusOr<v1::JoinMatchResponse> first =
      manager_->JoinMatch(Join("", kKey));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->match_id(), id);
  // A second open match: a new join by game would take a seat in either.
  Create();
  absl::StatusOr<v1::JoinMatchResponse> again =
      manager_->JoinMatch(Join("", kKey));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->match_id(), id);
  EXPECT_EQ(again->seat(), first->seat());
  EXPECT_EQ(again->token(), first->token());
}

TEST_F(JoinRetryTest, AnInvitedSeatsTicketIsResentSafely) {
  v1::CreateMatchResponse created = Create(/*invited=*/true);
  v1::JoinMatchRequest join = Join(created.match_id(), kKey);
  join.set_ticket(created.tickets(1).ticket());
  absl::StatusOr<v1::JoinMatchResponse> first = manager_->JoinMatch(join);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->seat(), 1);
  absl::StatusOr<v1::JoinMatchResponse> again = manager_->JoinMatch(join);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->token(), first->token());
  // Without the key the ticket stays single-use.
  join.clear_retry_key();
  absl::StatusOr<v1::JoinMatchResponse> reused = manager_->JoinMatch(join);
  EXPECT_EQ(reused.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(reused.status().message(), HasSubstr("already used"));
}

TEST_F(JoinRetryTest, AKeyIsForOneJoin) {
  const std::string id = Create().match_id();
  v1::JoinMatchRequest join = Join(id, kKey);
  join.set_seat(0);
  ASSERT_TRUE(manager_->JoinMatch(join).ok());
  // The same key asking for another seat, or another match: refused, and
  // nothing taken.
  join.set_seat(1);
  absl::StatusOr<v1::JoinMatchResponse> other_seat = manager_->JoinMatch(join);
  EXPECT_EQ(other_seat.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(other_seat.status().message(),
              HasSubstr("joined seat 0, not seat 1"));
  const std::string second = Create().match_id();
  absl::StatusOr<v1::JoinMatchResponse> other_match =
      manager_->JoinMatch(Join(second, kKey));
  EXPECT_EQ(other_match.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(other_match.status().message(), HasSubstr("a key is for one"));
  EXPECT_EQ(manager_->Info(id)->seats_size(), 1);
  EXPECT_EQ(manager_->Info(second)->seats_size(), 0);
}

TEST_F(JoinRetryTest, AFailedJoinLeavesTheKeyFree) {
  const std::string id = Create().match_id();
  v1::JoinMatchRequest join = Join(id, kKey);
  join.set_seat(5);  // no such seat
  EXPECT_EQ(manager_->JoinMatch(join).status().code(),
            absl::StatusCode::kInvalidArgument);
  join.set_seat(1);
  absl::StatusOr<v1::JoinMatchResponse> joined = manager_->JoinMatch(join);
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_EQ(joined->seat(), 1);
}

TEST_F(JoinRetryTest, KeysThatCouldBeGuessedOrForgeLinesAreRefused) {
  const std::string id = Create().match_id();
  for (const std::string& key :
       {std::string("short"), std::string(65, 'k'),
        std::string("0123456789abcdef\nforged")}) {
    absl::StatusOr<v1::JoinMatchResponse> joined =
        manager_->JoinMatch(Join(id, key));
    EXPECT_EQ(joined.status().code(), absl::StatusCode::kInvalidArgument)
        << key;
    EXPECT_THAT(joined.status().message(), HasSubstr("retry_key"));
  }
  EXPECT_EQ(manager_->Info(id)->seats_size(), 0);
}

// Resends racing their first join (the client timed out while it was still
// being made): exactly one seat is taken, and every answer that is not
// "still being made" is that seat's.
TEST_F(JoinRetryTest, ConcurrentResendsTakeOneSeat) {
  for (int round = 0; round < 20; ++round) {
    const std::string id = Create().match_id();
    const std::string key = absl::StrCat(kKey, "-", round);
    constexpr int kThreads = 8;
    std::vector<absl::StatusOr<v1::JoinMatchResponse>> answers(
        kThreads, absl::UnknownError("not run"));
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        answers[t] = manager_->JoinMatch(Join(id, key));
      });
    }
    go = true;
    for (std::thread& t : threads) t.join();
    std::set<std::string> tokens;
    for (const auto& answer : answers) {
      if (answer.ok()) {
        tokens.insert(answer->token());
      } else {
        EXPECT_EQ(answer.status().code(), absl::StatusCode::kUnavailable)
            << answer.status();
        EXPECT_THAT(answer.status().message(), HasSubstr("still being made"));
      }
    }
    EXPECT_EQ(tokens.size(), 1u);
    EXPECT_EQ(manager_->Info(id)->seats_size(), 1);
  }
}

}  // namespace
}  // namespace cardref::service
