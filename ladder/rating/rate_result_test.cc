#include "ladder/rating/rate_result.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::SmallLadder;

LadderGame Kraken() { return {2, "kraken", 4, {0, 1, 0, 1}, ""}; }
LadderGame Craits() { return {1, "craits", 3, {}, ""}; }

std::vector<Rating> Before(std::vector<Skill> skills) {
  std::vector<Rating> ratings;
  for (size_t i = 0; i < skills.size(); ++i) {
    ratings.push_back({static_cast<int64_t>(i + 1), 1, skills[i].mu,
                       skills[i].sigma, 3});
  }
  return ratings;
}

MatchResult Result(std::vector<int> ranks) {
  MatchResult result;
  result.match_id = 1;
  result.log_hash = FakeHash(1);
  result.worker = "w";
  for (size_t s = 0; s < ranks.size(); ++s) {
    result.seats.push_back({static_cast<int>(s), static_cast<int64_t>(s + 1),
                            ranks[s], 0});
  }
  return result;
}

TEST(RateResultTest, FreeForAllSeatsAreTeamsOfOne) {
  const LadderConfig config = SmallLadder();
  const std::vector<Skill> skills = {{27, 5}, {22, 7}, {31, 3}};
  auto after = RatePlackettLuce(config, Craits(), Result({2, 1, 3}),
                                Before(skills));
  ASSERT_TRUE(after.ok()) << after.status();
  auto direct = UpdatePlackettLuce(ModelParams(config),
                                   {{skills[0]}, {skills[1]}, {skills[2]}},
                                   {2, 1, 3});
  ASSERT_TRUE(direct.ok());
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ((*after)[i].mu, (*direct)[i][0].mu);
    EXPECT_DOUBLE_EQ((*after)[i].sigma, (*direct)[i][0].sigma);
    EXPECT_EQ((*after)[i].games, 4);
    EXPECT_EQ((*after)[i].version_id, static_cast<int64_t>(i + 1));
  }
}

TEST(RateResultTest, PartnershipSeatsFormTwoTeams) {
  const LadderConfig config = SmallLadder();
  const std::vector<Skill> skills = {{26, 4}, {30, 3}, {24, 6}, {18, 8}};
  // Seats 0 and 2 beat seats 1 and 3; the seats come in any order.
  MatchResult result = Result({1, 2, 1, 2});
  std::swap(result.seats[0], result.seats[3]);
  std::vector<Rating> before = Before(skills);
  std::swap(before[0], before[3]);
  auto after = RatePlackettLuce(config, Kraken(), result, before);
  ASSERT_TRUE(after.ok()) << after.status();
  // The "two_teams" case of plackett_luce_test.cc, whose numbers are
  // OpenSkill's.
  EXPECT_NEAR((*after)[3].mu, 26.583229230280, 1e-9);  // seat 0
  EXPECT_NEAR((*after)[2].mu, 25.311949483297, 1e-9);  // seat 2
  EXPECT_NEAR((*after)[1].mu, 29.671822858276, 1e-9);  // seat 1
  EXPECT_NEAR((*after)[0].mu, 15.667842162478, 1e-9);  // seat 3
  EXPECT_EQ((*after)[0].version_id, 4);
  EXPECT_FALSE(
      RatePlackettLuce(config, Kraken(), Result({1, 2, 2, 1}), Before(skills))
          .ok());
}

TEST(RateResultTest, AFrozenLadderHasNoDrift) {
  LadderConfig config = SmallLadder();
  EXPECT_DOUBLE_EQ(ModelParams(config).tau, 25.0 / 300.0);
  config.frozen = true;
  EXPECT_EQ(ModelParams(config).tau, 0);
  // Drawing equals: no information about order, so only the drift could
  // widen sigma; frozen, every sigma shrinks.
  auto after = RatePlackettLuce(config, Craits(), Result({1, 1, 1}),
                                Before({{25, 1}, {25, 1}, {25, 1}}));
  ASSERT_TRUE(after.ok());
  for (const Rating& r : *after) EXPECT_LT(r.sigma, 1);
}

// Through the store: the recorded ratings are the model's.
TEST(RateResultTest, TheStoreRecordsTheModelsRatings) {
  auto store = SqliteStore::Open(testing::FreshPath("ladder.db"));
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Initialize(SmallLadder(), 1).ok());
  std::vector<int64_t> versions;
  for (const char* name : {"a", "b", "c"}) {
    ASSERT_TRUE((*store)->AddEntrant(name, 1).ok());
    auto v = (*store)->AddVersion(name, "cmd", "h", 1);
    ASSERT_TRUE(v.ok());
    ASSERT_TRUE(
        (*store)->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1).ok());
    versions.push_back(v->id);
  }
  NewMatch match;
  match.game_id = 1;
  match.seed = FakeHash(9);
  match.seat_versions = versions;
  auto id = (*store)->ScheduleMatch(match, 1);
  ASSERT_TRUE(id.ok());
  MatchResult result = Result({3, 1, 2});
  result.match_id = *id;
  ASSERT_EQ(*(*store)->RecordResult(result, 2, RatePlackettLuce),
            RecordOutcome::kRecorded);
  const double d = 25.0 / 3.0;
  auto direct = UpdatePlackettLuce(ModelParams(SmallLadder()),
                                   {{{25, d}}, {{25, d}}, {{25, d}}},
                                   {3, 1, 2});
  ASSERT_TRUE(direct.ok());
  auto ratings = (*store)->Ratings(1);
  ASSERT_TRUE(ratings.ok());
  ASSERT_EQ(ratings->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ((*ratings)[i].mu, (*direct)[i][0].mu);
    EXPECT_DOUBLE_EQ((*ratings)[i].sigma, (*direct)[i][0].sigma);
  }
  EXPECT_GT((*ratings)[1].mu, (*ratings)[2].mu);
  EXPECT_GT((*ratings)[2].mu, (*ratings)[0].mu);
}

}  // namespace
}  // namespace cardref::ladder
