// CreateMatchRequest.retry_key: a creation resent after its answer was lost
// gets that answer again (the same match and tickets) and makes no other
// match (docs/status_codes.md, "Retries").
#include <atomic>
#include <memory>
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
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

constexpr char kKey[] = "organiser-key-0123456789";

class CreateRetryTest : public ::testing::Test {
 protected:
  CreateRetryTest() : dir_(testing_util::FreshTestDir("create_retry_test_")) {
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.clock = &clock_;
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // A 2-seat Craits match by invitation (so the answer holds tickets).
  static v1::CreateMatchRequest Create(const std::string& key) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    auto& values = *create.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    for (const char* name : {"alice", "bob"}) {
      create.add_seat_assignments()->set_player_name(name);
    }
    create.set_retry_key(key);
    return create;
  }

  size_t Matches() { return manager_->AllMatches().size(); }

  FakeClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
};

TEST_F(CreateRetryTest, AResentCreationGetsTheFirstAnswerAndMakesNoMatch) {
  absl::StatusOr<v1::CreateMatchResponse> first =
      manager_->CreateMatch(Create(kKey));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->tickets_size(), 2);
  absl::StatusOr<v1::CreateMatchResponse> again =
      manager_->CreateMatch(Create(kKey));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(MessageDifferencer::Equals(*again, *first))
      << again->DebugString() << first->DebugString();
  EXPECT_EQ(Matches(), 1u);
  // The tickets the resend gave are the match's: they seat the players.
  v1::JoinMatchRequest join;
  join.set_match_id(again->match_id());
  join.set_ticket(again->tickets(0).ticket());
  EXPECT_TRUE(manager_->JoinMatch(join).ok());
  // Without a key every creation makes a match.
  v1::CreateMatchRequest keyless = Create("");
  ASSERT_TRUE(manager_->CreateMatch(keyless).ok());
  ASSERT_TRUE(manager_->CreateMatch(keyless).ok());
  EXPECT_EQ(Matches(), 3u);
}

TEST_F(CreateRetryTest, TheSameRequestInAnotherByteOrderIsTheSameRequest) {
  ASSERT_TRUE(manager_->CreateMatch(Create(kKey)).ok());
  // params is a map: the resend may serialize its entries in another order.
  v1::CreateMatchRequest resend = Create(kKey);
  resend.mutable_params()->clear_values();
  auto& values = *resend.mutable_params()->mutable_values();
  values["game_length"].set_enum_value("SHORT");
  values["num_players"].set_int_value(2);
  EXPECT_TRUE(manager_->CreateMatch(resend).ok());
  EXPECT_EQ(Matches(), 1u);
}

TEST_F(CreateRetryTest, AKeyIsForOneCreation) {
  absl::StatusOr<v1::CreateMatchResponse> first =
      manager_->CreateMatch(Create(kKey));
  ASSERT_TRUE(first.ok()) << first.status();
  v1::CreateMatchRequest other = Create(kKey);
  other.set_decision_time_limit_millis(5000);
  absl::StatusOr<v1::CreateMatchResponse> refused =
      manager_->CreateMatch(other);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(),
              HasSubstr(absl::StrCat("created match ", first->match_id(),
                                     " from a different request")));
  EXPECT_EQ(Matches(), 1u);
}

TEST_F(CreateRetryTest, AFailedCreationLeavesTheKeyFree) {
  v1::CreateMatchRequest bad = Create(kKey);
  bad.mutable_seat_assignments(1)->set_player_name("");
  EXPECT_EQ(manager_->CreateMatch(bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The corrected request, with the same key, makes its match.
  ASSERT_TRUE(manager_->CreateMatch(Create(kKey)).ok());
  EXPECT_EQ(Matches(), 1u);
}

TEST_F(CreateRetryTest, KeysThatCouldBeGuessedOrForgeLinesAreRefused) {
  for (const std::string& key :
       {std::string("short"), std::string(65, 'k'),
        std::string("0123456789abcdef\nforged")}) {
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(Create(key));
    EXPECT_EQ(created.status().code(), absl::StatusCode::kInvalidArgument)
        << key;
    EXPECT_THAT(created.status().message(), HasSubstr("retry_key"));
  }
  EXPECT_EQ(Matches(), 0u);
}

// Resends racing their first creation (the organiser's deadline passed
// while it was still being made): exactly one match is made, and every
// answer that is not "still being made" is that match's.
TEST_F(CreateRetryTest, ConcurrentResendsMakeOneMatch) {
  for (int round = 0; round < 20; ++round) {
    const std::string key = absl::StrCat(kKey, "-", round);
    constexpr int kThreads = 8;
    std::vector<absl::StatusOr<v1::CreateMatchResponse>> answers(
        kThreads, absl::UnknownError("not run"));
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        answers[t] = manager_->CreateMatch(Create(key));
      });
    }
    go = true;
    for (std::thread& t : threads) t.join();
    std::set<std::string> ids;
    for (const auto& answer : answers) {
      if (answer.ok()) {
        ids.insert(answer->match_id());
      } else {
        EXPECT_EQ(answer.status().code(), absl::StatusCode::kUnavailable)
            << answer.status();
        EXPECT_THAT(answer.status().message(), HasSubstr("still being made"));
      }
    }
    EXPECT_EQ(ids.size(), 1u);
    EXPECT_EQ(Matches(), static_cast<size_t>(round + 1));
  }
}

}  // namespace
}  // namespace cardref::service
