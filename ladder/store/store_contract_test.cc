// The store's contract: what every LadderStore backend does alike, run on
// each backend of the test binary (testing/store_backends.h).
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ladder/store/store.h"
#include "ladder/store/testing/store_backends.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using ::testing::ElementsAre;
using testing::FakeHash;
using testing::FakeRate;
using testing::ResultInSeatOrder;
using testing::SmallLadder;
using testing::kCraits;
using testing::kKraken;

class StoreContractTest : public testing::BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    store_ = Open();
    ASSERT_NE(store_, nullptr);
    ASSERT_TRUE(store_->Initialize(SmallLadder(), 100).ok());
  }

  // A ranked version of a new entrant `name`.
  int64_t Ranked(const std::string& name, int64_t now = 200) {
    EXPECT_TRUE(store_->AddEntrant(name, now).ok());
    auto version = store_->AddVersion(name, "bot --name=" + name,
                                      "hash-" + name, now);
    EXPECT_TRUE(version.ok()) << version.status();
    EXPECT_TRUE(store_->SetVersionStatus(version->id, VersionStatus::kRanked,
                                         "", now)
                    .ok());
    return version->id;
  }

  int64_t Schedule(int64_t game, std::vector<int64_t> seats,
                   MatchKind kind = MatchKind::kRated, int64_t round = 1) {
    NewMatch match;
    match.game_id = game;
    match.kind = kind;
    match.round = round;
    match.deal_set = "d1";
    match.seed = FakeHash(7);
    match.seat_versions = std::move(seats);
    auto id = store_->ScheduleMatch(match, 300);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.value_or(0);
  }

  std::unique_ptr<LadderStore> store_;
};

INSTANTIATE_TEST_SUITE_P(Store, StoreContractTest,
                         ::testing::ValuesIn(testing::LinkedBackends()),
                         testing::BackendName);

TEST_P(StoreContractTest, ConfigRoundTripsAndInitialisesOnce) {
  auto config = store_->GetConfig();
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->name, "test");
  ASSERT_EQ(config->games.size(), 2u);
  EXPECT_EQ(config->games[0].id, kCraits);
  EXPECT_EQ(config->games[0].players, 3);
  EXPECT_THAT(config->games[1].teams, ElementsAre(0, 1, 0, 1));
  EXPECT_TRUE(config->games[0].teams.empty());
  EXPECT_DOUBLE_EQ(config->rating.sigma, 25.0 / 3.0);
  EXPECT_EQ(store_->Initialize(SmallLadder(), 1).code(),
            absl::StatusCode::kAlreadyExists);
  ASSERT_TRUE(store_->SetFrozen(true).ok());
  EXPECT_TRUE(store_->GetConfig()->frozen);
}

TEST_P(StoreContractTest, BadConfigurationsAreRefused) {
  auto store = Open();  // a second store, not initialised
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->GetConfig().status().code(),
            absl::StatusCode::kFailedPrecondition);
  LadderConfig config = SmallLadder();
  config.games[1].players = 5;  // 4 teams for 5 seats
  EXPECT_EQ(store->Initialize(config, 1).code(),
            absl::StatusCode::kInvalidArgument);
  config = SmallLadder();
  config.games[1].teams = {0, 0, 0, 0};  // one team
  EXPECT_EQ(store->Initialize(config, 1).code(),
            absl::StatusCode::kInvalidArgument);
  config = SmallLadder();
  config.rating.sigma = 0;
  EXPECT_EQ(store->Initialize(config, 1).code(),
            absl::StatusCode::kInvalidArgument);
  config = SmallLadder();
  config.games.push_back(config.games[0]);
  EXPECT_EQ(store->Initialize(config, 1).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store->GetConfig().status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_P(StoreContractTest, EntrantNamesAreUniqueAndChecked) {
  ASSERT_TRUE(store_->AddEntrant("alice", 1).ok());
  EXPECT_EQ(store_->AddEntrant("alice", 2).status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->AddEntrant("bad name", 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->AddEntrant("", 2).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto entrants = store_->ListEntrants();
  ASSERT_TRUE(entrants.ok());
  ASSERT_EQ(entrants->size(), 1u);
  EXPECT_EQ((*entrants)[0].id, 1);
}

TEST_P(StoreContractTest, VersionsMoveThroughTheirStatuses) {
  ASSERT_TRUE(store_->AddEntrant("alice", 1).ok());
  EXPECT_EQ(store_->AddVersion("bob", "x", "h", 1).status().code(),
            absl::StatusCode::kNotFound);
  auto v1 = store_->AddVersion("alice", "bot-v1", "h1", 10);
  ASSERT_TRUE(v1.ok());
  EXPECT_EQ(v1->status, VersionStatus::kValidating);
  EXPECT_EQ(v1->entrant_name, "alice");
  EXPECT_EQ(store_->AddVersion("alice", "bot-v1 again", "h1", 11)
                .status()
                .code(),
            absl::StatusCode::kAlreadyExists);
  // validating -> retired is not a move.
  EXPECT_EQ(
      store_->SetVersionStatus(v1->id, VersionStatus::kRetired, "", 12).code(),
      absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(
      store_->SetVersionStatus(v1->id, VersionStatus::kRanked, "", 12).ok());

  const int64_t b = Ranked("bob");
  const int64_t c = Ranked("carol");
  const int64_t match = Schedule(kCraits, {v1->id, b, c});

  // Ranking alice's second version retires the first and voids its
  // scheduled matches.
  auto v2 = store_->AddVersion("alice", "bot-v2", "h2", 20);
  ASSERT_TRUE(v2.ok());
  ASSERT_TRUE(
      store_->SetVersionStatus(v2->id, VersionStatus::kRanked, "", 21).ok());
  auto old = store_->GetVersion(v1->id);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(old->status, VersionStatus::kRetired);
  EXPECT_EQ(old->reason, "replaced by version 4");
  auto voided = store_->GetMatch(match);
  ASSERT_TRUE(voided.ok());
  EXPECT_EQ(voided->state, MatchState::kVoided);
  EXPECT_TRUE(absl::StrContains(voided->reason, "replaced")) << voided->reason;

  auto ranked = store_->ListVersions(VersionStatus::kRanked);
  ASSERT_TRUE(ranked.ok());
  std::vector<int64_t> ids;
  for (const Version& v : *ranked) ids.push_back(v.id);
  EXPECT_THAT(ids, ElementsAre(b, c, v2->id));
  // No filter: every version, every match.
  auto all = store_->ListVersions(std::nullopt);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);
  EXPECT_EQ(store_->ListMatches(std::nullopt)->size(), 1u);

  ASSERT_TRUE(store_->SetFrozen(true).ok());
  EXPECT_EQ(store_->AddVersion("alice", "bot-v3", "h3", 30).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST_P(StoreContractTest, ScheduleChecksTheSeats) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c");
  NewMatch match;
  match.game_id = kCraits;
  match.seed = FakeHash(1);
  match.seat_versions = {a, b};
  EXPECT_EQ(store_->ScheduleMatch(match, 1).status().code(),
            absl::StatusCode::kInvalidArgument);  // 2 of 3 seats
  match.seat_versions = {a, b, b};
  EXPECT_EQ(store_->ScheduleMatch(match, 1).status().code(),
            absl::StatusCode::kInvalidArgument);  // repeated in a rated match
  match.kind = MatchKind::kValidation;
  EXPECT_TRUE(store_->ScheduleMatch(match, 1).ok());  // self-play validation
  match.kind = MatchKind::kRated;
  match.seat_versions = {a, b, c};
  match.seed = "not hex";
  EXPECT_EQ(store_->ScheduleMatch(match, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  match.seed = FakeHash(1);
  match.game_id = 99;
  EXPECT_EQ(store_->ScheduleMatch(match, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(store_->AddEntrant("d", 1).ok());
  auto unranked = store_->AddVersion("d", "x", "h", 1);
  ASSERT_TRUE(unranked.ok());
  match.game_id = kCraits;
  match.seat_versions = {a, b, unranked->id};
  EXPECT_EQ(store_->ScheduleMatch(match, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_P(StoreContractTest, ScheduleMatchesIsAllOrNothing) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c");
  NewMatch good;
  good.game_id = kCraits;
  good.seed = FakeHash(1);
  good.seat_versions = {a, b, c};
  NewMatch bad = good;
  bad.seat_versions = {a, b};
  EXPECT_EQ(store_->ScheduleMatches({good, bad}, 1).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(store_->ListMatches(std::nullopt)->empty());
  auto ids = store_->ScheduleMatches({good, good}, 1);
  ASSERT_TRUE(ids.ok());
  EXPECT_THAT(*ids, ElementsAre(1, 2));
}

TEST_P(StoreContractTest, ARecordedResultUpdatesRatingsOnceAndEndsTheClaim) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c");
  const int64_t id = Schedule(kCraits, {a, b, c});
  auto claimed = store_->ClaimNext({"w1", 1000, 500, 3});
  ASSERT_TRUE(claimed.ok());
  ASSERT_TRUE(claimed->has_value());
  EXPECT_EQ((*claimed)->id, id);
  EXPECT_EQ((*claimed)->state, MatchState::kClaimed);
  EXPECT_EQ((*claimed)->lease_expiry_micros, 1500);

  const MatchResult result = ResultInSeatOrder(**claimed, 1, "w1");
  int calls = 0;
  auto counting_rate = [&](const LadderConfig& config, const LadderGame& game,
                           const MatchResult& r,
                           const std::vector<Rating>& before) {
    ++calls;
    EXPECT_EQ(game.id, kCraits);
    for (const Rating& rating : before) {
      EXPECT_DOUBLE_EQ(rating.mu, config.rating.mu);  // the prior
      EXPECT_EQ(rating.games, 0);
    }
    return FakeRate(config, game, r, before);
  };
  auto outcome = store_->RecordResult(result, 1100, counting_rate);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, RecordOutcome::kRecorded);
  EXPECT_EQ(calls, 1);

  auto match = store_->GetMatch(id);
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->state, MatchState::kFinished);
  EXPECT_EQ(match->claim_owner, "");
  EXPECT_EQ(match->finished_micros, 1100);

  auto ratings = store_->Ratings(kCraits);
  ASSERT_TRUE(ratings.ok());
  ASSERT_EQ(ratings->size(), 3u);
  EXPECT_DOUBLE_EQ((*ratings)[0].mu, 25 + 2);  // rank 1 of 3
  EXPECT_DOUBLE_EQ((*ratings)[1].mu, 25);
  EXPECT_DOUBLE_EQ((*ratings)[2].mu, 25 - 2);
  EXPECT_EQ((*ratings)[0].games, 1);

  // The same log again (a retry): a no-op.
  outcome = store_->RecordResult(result, 1200, counting_rate);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(*outcome, RecordOutcome::kDuplicate);
  EXPECT_EQ(calls, 1);
  EXPECT_DOUBLE_EQ((*store_->Ratings(kCraits))[0].mu, 27);

  // Another log of the same match is not counted.
  MatchResult other = result;
  other.log_hash = FakeHash(2);
  auto second = store_->RecordResult(other, 1300, counting_rate);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(second.status().message(), FakeHash(1)));
  EXPECT_EQ(calls, 1);

  auto history = store_->RatingHistory(a, kCraits);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].log_hash, FakeHash(1));
  EXPECT_DOUBLE_EQ((*history)[0].mu_before, 25);
  EXPECT_DOUBLE_EQ((*history)[0].mu_after, 27);

  auto stored = store_->GetResult(FakeHash(1));
  ASSERT_TRUE(stored.ok());
  ASSERT_TRUE(stored->has_value());
  EXPECT_EQ((*stored)->worker, "w1");
  ASSERT_EQ((*stored)->seats.size(), 3u);
  EXPECT_EQ((*stored)->seats[2].rank, 3);
  EXPECT_FALSE(store_->GetResult(FakeHash(2))->has_value());
}

TEST_P(StoreContractTest, ABadResultChangesNothing) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c");
  const int64_t id = Schedule(kCraits, {a, b, c});
  auto claimed = store_->ClaimNext({"w1", 1000, 500, 3});
  ASSERT_TRUE(claimed.ok() && claimed->has_value());

  MatchResult wrong_version = ResultInSeatOrder(**claimed, 1, "w1");
  wrong_version.seats[0].version_id = b;
  EXPECT_EQ(store_->RecordResult(wrong_version, 1, FakeRate).status().code(),
            absl::StatusCode::kInvalidArgument);
  MatchResult bad_rank = ResultInSeatOrder(**claimed, 1, "w1");
  bad_rank.seats[0].rank = 0;
  EXPECT_EQ(store_->RecordResult(bad_rank, 1, FakeRate).status().code(),
            absl::StatusCode::kInvalidArgument);
  MatchResult missing_seat = ResultInSeatOrder(**claimed, 1, "w1");
  missing_seat.seats.pop_back();
  EXPECT_EQ(store_->RecordResult(missing_seat, 1, FakeRate).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->RecordResult(ResultInSeatOrder(**claimed, 1, "w1"), 1,
                                 RateResultFn())
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);  // no rating update
  MatchResult bad_hash = ResultInSeatOrder(**claimed, 1, "w1");
  bad_hash.log_hash = "ABC";
  EXPECT_EQ(store_->RecordResult(bad_hash, 1, FakeRate).status().code(),
            absl::StatusCode::kInvalidArgument);
  // A failing rating update aborts the whole recording.
  auto failing = [](const LadderConfig&, const LadderGame&,
                    const MatchResult&, const std::vector<Rating>&)
      -> absl::StatusOr<std::vector<Rating>> {
    return absl::InternalError("model broke");
  };
  EXPECT_EQ(store_->RecordResult(ResultInSeatOrder(**claimed, 1, "w1"), 1,
                                 failing)
                .status()
                .code(),
            absl::StatusCode::kInternal);

  auto match = store_->GetMatch(id);
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->state, MatchState::kClaimed);
  EXPECT_EQ(match->claim_owner, "w1");
  EXPECT_FALSE(store_->GetResult(FakeHash(1))->has_value());
  EXPECT_TRUE(store_->Ratings(kCraits)->empty());
  // And the good one still records.
  EXPECT_EQ(*store_->RecordResult(ResultInSeatOrder(**claimed, 1, "w1"), 1,
                                  FakeRate),
            RecordOutcome::kRecorded);
}

TEST_P(StoreContractTest, PartnersMustShareARank) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c"),
                d = Ranked("d");
  const int64_t id = Schedule(kKraken, {a, b, c, d});
  auto match = store_->GetMatch(id);
  ASSERT_TRUE(match.ok());
  MatchResult result = ResultInSeatOrder(*match, 1, "w");
  // Seats 0 and 2 against 1 and 3.
  for (SeatResult& seat : result.seats) seat.rank = seat.seat % 2 + 1;
  result.seats[2].rank = 2;
  EXPECT_EQ(store_->RecordResult(result, 1, FakeRate).status().code(),
            absl::StatusCode::kInvalidArgument);
  result.seats[2].rank = 1;
  EXPECT_EQ(*store_->RecordResult(result, 1, FakeRate),
            RecordOutcome::kRecorded);
  EXPECT_EQ(store_->Ratings(kKraken)->size(), 4u);
}

TEST_P(StoreContractTest, ValidationMatchesAreRecordedButNotRated) {
  ASSERT_TRUE(store_->AddEntrant("new", 1).ok());
  auto version = store_->AddVersion("new", "bot", "h", 1);
  ASSERT_TRUE(version.ok());
  const int64_t id = Schedule(
      kCraits, {version->id, version->id, version->id},
      MatchKind::kValidation);
  auto match = store_->GetMatch(id);
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->kind, MatchKind::kValidation);
  bool rated = false;
  auto rate = [&](const LadderConfig& config, const LadderGame& game,
                  const MatchResult& r, const std::vector<Rating>& before) {
    rated = true;
    return FakeRate(config, game, r, before);
  };
  EXPECT_EQ(*store_->RecordResult(ResultInSeatOrder(*match, 3, "w"), 1, rate),
            RecordOutcome::kRecorded);
  EXPECT_FALSE(rated);
  EXPECT_TRUE(store_->Ratings(kCraits)->empty());
  EXPECT_EQ(store_->GetMatch(id)->state, MatchState::kFinished);
}

TEST_P(StoreContractTest, VoidedMatchesTakeNoResult) {
  const int64_t a = Ranked("a"), b = Ranked("b"), c = Ranked("c");
  const int64_t id = Schedule(kCraits, {a, b, c});
  ASSERT_TRUE(store_->VoidMatch(id, "organiser's call", 5).ok());
  ASSERT_TRUE(store_->VoidMatch(id, "again", 6).ok());  // idempotent
  auto match = store_->GetMatch(id);
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->reason, "organiser's call");
  auto recorded =
      store_->RecordResult(ResultInSeatOrder(*match, 1, "w"), 7, FakeRate);
  EXPECT_EQ(recorded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(store_->ClaimNext({"w", 10, 10, 3})->has_value());
}

TEST_P(StoreContractTest, MatchmakingStateCountsGamesSeatsAndWaits) {
  const int64_t a = Ranked("a", 10), b = Ranked("b", 10), c = Ranked("c", 10),
                d = Ranked("d", 10);
  Schedule(kCraits, {a, b, c}, MatchKind::kRated, 1);
  Schedule(kCraits, {b, c, a}, MatchKind::kRated, 1);
  Schedule(kCraits, {b, c, d}, MatchKind::kRated, 2);
  const int64_t voided = Schedule(kCraits, {a, b, c}, MatchKind::kRated, 3);
  ASSERT_TRUE(store_->VoidMatch(voided, "test", 400).ok());
  Schedule(kCraits, {b, c, d}, MatchKind::kRated, 4);
  EXPECT_EQ(*store_->NextRound(kCraits), 5);
  EXPECT_EQ(*store_->NextRound(kKraken), 1);

  auto state = store_->MatchmakingState(kCraits);
  ASSERT_TRUE(state.ok()) << state.status();
  ASSERT_EQ(state->size(), 4u);
  const MatchmakingEntry& ea = (*state)[0];
  EXPECT_EQ(ea.version_id, a);
  EXPECT_EQ(ea.games, 2);
  EXPECT_THAT(ea.seat_counts, ElementsAre(1, 0, 1));
  EXPECT_EQ(ea.rounds_waited, 2);  // rounds 2 and 4 (3 was voided)
  const MatchmakingEntry& ed = (*state)[3];
  EXPECT_EQ(ed.games, 2);
  EXPECT_EQ(ed.rounds_waited, 0);
  EXPECT_DOUBLE_EQ(ed.mu, 25);

  // A version ranked later has waited the rounds scheduled since.
  const int64_t e = Ranked("e", 350);
  state = store_->MatchmakingState(kCraits);
  ASSERT_TRUE(state.ok());
  ASSERT_EQ(state->size(), 5u);
  EXPECT_EQ((*state)[4].version_id, e);
  EXPECT_EQ((*state)[4].games, 0);
  EXPECT_EQ((*state)[4].rounds_waited, 0);  // everything was before 350
}

TEST_P(StoreContractTest, EntrantCredentialsAreStoredHashedAndRevocable) {
  Ranked("a");
  Ranked("b");
  auto first = store_->AddEntrantCredential("a", FakeHash(1), 400);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->entrant_name, "a");
  ASSERT_TRUE(store_->AddEntrantCredential("a", FakeHash(2), 401).ok());
  ASSERT_TRUE(store_->AddEntrantCredential("b", FakeHash(3), 402).ok());
  EXPECT_EQ(store_->AddEntrantCredential("a", FakeHash(1), 403).status().code(),
            absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(store_->AddEntrantCredential("nobody", FakeHash(4), 403)
                .status()
                .code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(store_->AddEntrantCredential("a", "not-hex", 403).status().code(),
            absl::StatusCode::kInvalidArgument);

  auto found = store_->FindEntrantCredential(FakeHash(2));
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->entrant_name, "a");
  EXPECT_EQ((*found)->created_micros, 401);
  found = store_->FindEntrantCredential(FakeHash(9));
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found->has_value());

  auto revoked = store_->RevokeEntrantCredentials("a", 500);
  ASSERT_TRUE(revoked.ok()) << revoked.status();
  EXPECT_EQ(*revoked, 2);
  EXPECT_FALSE(store_->FindEntrantCredential(FakeHash(1))->has_value());
  EXPECT_FALSE(store_->FindEntrantCredential(FakeHash(2))->has_value());
  EXPECT_TRUE(store_->FindEntrantCredential(FakeHash(3))->has_value());
  EXPECT_EQ(*store_->RevokeEntrantCredentials("a", 501), 0);
  EXPECT_EQ(store_->RevokeEntrantCredentials("nobody", 501).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace cardref::ladder
