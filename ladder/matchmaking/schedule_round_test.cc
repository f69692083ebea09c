// Store, matchmaking and ratings together: rounds scheduled from the store,
// claimed, played (results drawn from known strengths) and rated.
#include "ladder/matchmaking/schedule_round.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"
#include "ladder/testing/simulate.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;

constexpr int64_t kCraits = 1;
constexpr int64_t kKraken = 2;

class ScheduleRoundTest : public ::testing::Test {
 protected:
  void Open(bool duplicate) {
    SqliteStoreOptions options;
    options.open.sync_every_commit = false;  // hundreds of commits; no crash
    auto store = SqliteStore::Open(testing::FreshPath("ladder.db"), options);
    ASSERT_TRUE(store.ok());
    store_ = *std::move(store);
    LadderConfig config = testing::SmallLadder();
    config.duplicate = duplicate;
    ASSERT_TRUE(store_->Initialize(config, 1).ok());
  }

  int64_t Ranked(const std::string& name, int64_t now) {
    EXPECT_TRUE(store_->AddEntrant(name, now).ok());
    auto v = store_->AddVersion(name, "cmd", "h", now);
    EXPECT_TRUE(v.ok());
    EXPECT_TRUE(
        store_->SetVersionStatus(v->id, VersionStatus::kRanked, "", now).ok());
    return v->id;
  }

  SeedSource Counter() {
    return [this]() -> absl::StatusOr<std::string> {
      return FakeHash(++seeds_);
    };
  }

  std::unique_ptr<SqliteStore> store_;
  uint64_t seeds_ = 0;
};

TEST_F(ScheduleRoundTest, ALadderRunsThroughTheStore) {
  Open(/*duplicate=*/false);
  // Strength by version id (log scale); ids follow the order of ranking.
  std::map<int64_t, double> theta;
  for (int i = 0; i < 6; ++i) {
    theta[Ranked("e" + std::to_string(i), 10)] = 1.0 - 0.4 * i;
  }
  MatchmakingOptions options;
  options.seats = 3;
  Matchmaker matchmaker(options, 17);
  Rng results(99);
  uint64_t logs = 0;
  int64_t now = 100;
  for (int r = 1; r <= 150; ++r) {
    now += 10;
    if (r == 50) theta[Ranked("late", now)] = 0.0;  // joins
    if (r == 100) {                                   // retires
      ASSERT_TRUE(store_->SetVersionStatus(2, VersionStatus::kRetired,
                                           "withdrawn", now)
                      .ok());
      theta.erase(2);
    }
    auto state = store_->MatchmakingState(kCraits);
    ASSERT_TRUE(state.ok());
    for (const MatchmakingEntry& e : *state) {
      EXPECT_LE(e.rounds_waited, 3 * static_cast<int64_t>(state->size()) / 3)
          << "version " << e.version_id << " before round " << r;
    }
    auto round = ScheduleNextRound(*store_, matchmaker, kCraits, now,
                                   Counter());
    ASSERT_TRUE(round.ok()) << round.status();
    EXPECT_EQ(round->round, r);
    ASSERT_EQ(round->match_ids.size(), 1u);
    // A worker plays it.
    auto claimed = store_->ClaimNext({"w", now, 1000, 3});
    ASSERT_TRUE(claimed.ok() && claimed->has_value());
    EXPECT_EQ((*claimed)->id, round->match_ids[0]);
    EXPECT_EQ((*claimed)->deal_set, round->deal_set);
    std::vector<double> strengths;
    for (int64_t v : (*claimed)->seat_versions) strengths.push_back(theta[v]);
    const std::vector<int> ranks =
        testing::SamplePlackettLuceRanks(strengths, results);
    MatchResult result;
    result.match_id = (*claimed)->id;
    result.log_hash = FakeHash(++logs);
    result.worker = "w";
    for (int s = 0; s < 3; ++s) {
      result.seats.push_back({s, (*claimed)->seat_versions[s], ranks[s], 0});
    }
    ASSERT_EQ(*store_->RecordResult(result, now + 5, RatePlackettLuce),
              RecordOutcome::kRecorded);
  }
  EXPECT_TRUE(store_->ListMatches(MatchState::kScheduled)->empty());
  EXPECT_EQ(store_->ListMatches(MatchState::kFinished)->size(), 150u);
  // Every seed differs without duplicate deals.
  std::set<std::string> seeds;
  auto all = store_->ListMatches(std::nullopt);
  ASSERT_TRUE(all.ok());
  for (const Match& m : *all) seeds.insert(m.seed);
  EXPECT_EQ(seeds.size(), 150u);
  // The strongest is on top and the weakest at the bottom.
  auto ratings = store_->Ratings(kCraits);
  ASSERT_TRUE(ratings.ok());
  auto by_mu = *ratings;
  std::sort(by_mu.begin(), by_mu.end(),
            [](const Rating& a, const Rating& b) { return a.mu > b.mu; });
  EXPECT_EQ(by_mu.front().version_id, 1);
  EXPECT_EQ(by_mu.back().version_id, 6);
  // The late entrant played its share after joining.
  auto late = std::find_if(ratings->begin(), ratings->end(),
                           [](const Rating& r) { return r.version_id == 7; });
  ASSERT_NE(late, ratings->end());
  EXPECT_GT(late->games, 100 * 3 / 7 / 2);
}

TEST_F(ScheduleRoundTest, ADuplicateRoundIsEverySeatingOnOneSeedOrNothing) {
  Open(/*duplicate=*/true);
  for (int i = 0; i < 5; ++i) Ranked("e" + std::to_string(i), 10);
  MatchmakingOptions options;
  options.seats = 4;
  options.duplicate = true;
  Matchmaker matchmaker(options, 3);
  auto round = ScheduleNextRound(*store_, matchmaker, kKraken, 20, Counter());
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_EQ(round->deal_set, "kraken4-r000001");
  ASSERT_EQ(round->match_ids.size(), 24u);
  std::set<std::string> seeds;
  for (int64_t id : round->match_ids) {
    auto match = store_->GetMatch(id);
    ASSERT_TRUE(match.ok());
    seeds.insert(match->seed);
    EXPECT_EQ(match->round, 1);
    EXPECT_EQ(match->deal_set, round->deal_set);
  }
  EXPECT_EQ(seeds.size(), 1u);

  // A seed source that fails the hex check: nothing of the round is kept.
  SeedSource bad = []() -> absl::StatusOr<std::string> { return "xyz"; };
  auto failed = ScheduleNextRound(*store_, matchmaker, kKraken, 30, bad);
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListMatches(std::nullopt)->size(), 24u);

  // The matchmaker must be set for the game.
  MatchmakingOptions three;
  three.seats = 3;
  three.duplicate = true;
  Matchmaker wrong(three, 1);
  EXPECT_EQ(ScheduleNextRound(*store_, wrong, kKraken, 40, Counter())
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::ladder
