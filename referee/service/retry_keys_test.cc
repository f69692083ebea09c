// Retry keys (retry_keys.h): a JoinMatch or CreateMatch resent after its
// answer was lost gets that answer again, and takes no other seat or makes
// no other match (docs/bots.md, "When the network fails"; docs/status_codes.md,
// "Retries").
#include <atomic>
#include <filesystem>
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
#include "games/all_games.h"
#include "referee/service/clock.h"
#include "referee/service/match.h"
#include "referee/service/match_manager.h"

namespace cardref::service {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::testing::HasSubstr;

constexpr char kKey[] = "k3y-of-the-bot-0123456789";
constexpr char kCreateKey[] = "organiser-key-0123456789";

class RetryKeyTest : public ::testing::Test {
 protected:
  RetryKeyTest() : dir_(testing_util::FreshTestDir("retry_keys_test_")) {
    ManagerOptions options;
    options.log_dir = dir_.string();
    options.referee_version = "test";
    options.clock = &clock_;
    manager_ = std::make_unique<MatchManager>(&AllGames(), options);
  }

  // A 2-seat short Craits match; `invited`: by invitation (the answer
  // holds tickets); `key`: the creation's retry_key.
  static v1::CreateMatchRequest CreateRequest(bool invited,
                                              const std::string& key = "") {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    auto& values = *create.mutable_params()->mutable_values();
    values["num_players"].set_int_value(2);
    values["game_length"].set_enum_value("SHORT");
    if (invited) {
      for (const char* name : {"alice", "bob"}) {
        create.add_seat_assignments()->set_player_name(name);
      }
    }
    create.set_retry_key(key);
    return create;
  }

  v1::CreateMatchResponse Create(bool invited = false) {
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(CreateRequest(invited));
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

  size_t Matches() { return manager_->AllMatches().size(); }

  FakeClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<MatchManager> manager_;
};

// `resend` from 8 threads released at once, as resends that overtake their
// first request: every answer must be OK or "still being made"
// (UNAVAILABLE). Returns what `answered` says of the OK ones.
template <typename Resend, typename Answered>
std::set<std::string> ResendAtOnce(const Resend& resend,
                                   const Answered& answered) {
  constexpr int kThreads = 8;
  std::vector<decltype(resend())> answers(kThreads,
                                          absl::UnknownError("not run"));
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      while (!go.load()) std::this_thread::yield();
      answers[t] = resend();
    });
  }
  go = true;
  for (std::thread& t : threads) t.join();
  std::set<std::string> seen;
  for (const auto& answer : answers) {
    if (answer.ok()) {
      seen.insert(answered(*answer));
    } else {
      EXPECT_EQ(answer.status().code(), absl::StatusCode::kUnavailable)
          << answer.status();
      EXPECT_THAT(answer.status().message(), HasSubstr("still being made"));
    }
  }
  return seen;
}

using JoinRetryTest = RetryKeyTest;
using CreateRetryTest = RetryKeyTest;

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
    const std::set<std::string> tokens =
        ResendAtOnce([&] { return manager_->JoinMatch(Join(id, key)); },
                     [](const v1::JoinMatchResponse& r) { return r.token(); });
    EXPECT_EQ(tokens.size(), 1u);
    EXPECT_EQ(manager_->Info(id)->seats_size(), 1);
  }
}

TEST_F(CreateRetryTest, AResentCreationGetsTheFirstAnswerAndMakesNoMatch) {
  absl::StatusOr<v1::CreateMatchResponse> first =
      manager_->CreateMatch(CreateRequest(/*invited=*/true, kCreateKey));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->tickets_size(), 2);
  absl::StatusOr<v1::CreateMatchResponse> again =
      manager_->CreateMatch(CreateRequest(/*invited=*/true, kCreateKey));
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
  v1::CreateMatchRequest keyless = CreateRequest(/*invited=*/true);
  ASSERT_TRUE(manager_->CreateMatch(keyless).ok());
  ASSERT_TRUE(manager_->CreateMatch(keyless).ok());
  EXPECT_EQ(Matches(), 3u);
}

TEST_F(CreateRetryTest, TheSameRequestInAnotherByteOrderIsTheSameRequest) {
  ASSERT_TRUE(manager_->CreateMatch(CreateRequest(/*invited=*/true, kCreateKey)).ok());
  // params is a map: the resend may serialize its entries in another order.
  v1::CreateMatchRequest resend = CreateRequest(/*invited=*/true, kCreateKey);
  resend.mutable_params()->clear_values();
  auto& values = *resend.mutable_params()->mutable_values();
  values["game_length"].set_enum_value("SHORT");
  values["num_players"].set_int_value(2);
  EXPECT_TRUE(manager_->CreateMatch(resend).ok());
  EXPECT_EQ(Matches(), 1u);
}

TEST_F(CreateRetryTest, AKeyIsForOneCreation) {
  absl::StatusOr<v1::CreateMatchResponse> first =
      manager_->CreateMatch(CreateRequest(/*invited=*/true, kCreateKey));
  ASSERT_TRUE(first.ok()) << first.status();
  v1::CreateMatchRequest other = CreateRequest(/*invited=*/true, kCreateKey);
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
  v1::CreateMatchRequest bad = CreateRequest(/*invited=*/true, kCreateKey);
  bad.mutable_seat_assignments(1)->set_player_name("");
  EXPECT_EQ(manager_->CreateMatch(bad).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The corrected request, with the same key, makes its match.
  ASSERT_TRUE(manager_->CreateMatch(CreateRequest(/*invited=*/true, kCreateKey)).ok());
  EXPECT_EQ(Matches(), 1u);
}

TEST_F(CreateRetryTest, KeysThatCouldBeGuessedOrForgeLinesAreRefused) {
  for (const std::string& key :
       {std::string("short"), std::string(65, 'k'),
        std::string("0123456789abcdef\nforged")}) {
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(CreateRequest(/*invited=*/true, key));
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
    const std::string key = absl::StrCat(kCreateKey, "-", round);
    const std::set<std::string> ids = ResendAtOnce(
        [&] {
          return manager_->CreateMatch(CreateRequest(/*invited=*/true, key));
        },
        [](const v1::CreateMatchResponse& r) { return r.match_id(); });
    EXPECT_EQ(ids.size(), 1u);
    EXPECT_EQ(Matches(), static_cast<size_t>(round + 1));
  }
}

}  // namespace
}  // namespace cardref::service
