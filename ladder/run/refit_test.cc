// The runner's periodic refit (refit.h) over a store of results drawn from
// known strengths: the batch order agrees with the online ratings within
// intervals, and a store whose online ratings moved the wrong way is
// caught.
#include "ladder/run/refit.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder::run {
namespace {

const std::vector<double> kTheta = {1.2, 0.7, 0.2, -0.3, -0.8, -1.3};

// A ladder of kTheta's versions with `matches` three-player results drawn
// from the Plackett-Luce model, rated by `rate`.
std::unique_ptr<SqliteStore> Simulated(int matches, const RateResultFn& rate) {
  SqliteStoreOptions options;
  options.open.sync_every_commit = false;  // a test's file: speed over power loss
  auto opened =
      SqliteStore::Open(::cardref::ladder::testing::FreshPath("l.db"), options);
  EXPECT_TRUE(opened.ok());
  std::unique_ptr<SqliteStore> store = *std::move(opened);
  LadderConfig config;
  config.name = "refit";
  config.games.push_back({0, "g", 3, {}, ""});
  EXPECT_TRUE(store->Initialize(config, 1).ok());
  std::vector<int64_t> versions;
  for (size_t i = 0; i < kTheta.size(); ++i) {
    const std::string name = "p" + std::to_string(i);
    EXPECT_TRUE(store->AddEntrant(name, 1).ok());
    auto v = store->AddVersion(name, "bot", "h" + name, 1);
    EXPECT_TRUE(v.ok());
    EXPECT_TRUE(
        store->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1).ok());
    versions.push_back(v->id);
  }
  Rng rng(5);
  for (int m = 0; m < matches; ++m) {
    std::vector<int> group;
    while (group.size() < 3) {
      const int pick = static_cast<int>(rng.Uniform(kTheta.size()));
      if (std::find(group.begin(), group.end(), pick) == group.end()) {
        group.push_back(pick);
      }
    }
    NewMatch match;
    match.game_id = 1;
    match.deal_set = "d" + std::to_string(m);
    match.seed = ::cardref::ladder::testing::FakeHash(m + 1);
    std::vector<double> theta;
    for (int p : group) {
      match.seat_versions.push_back(versions[p]);
      theta.push_back(kTheta[p]);
    }
    auto id = store->ScheduleMatch(match, 2 + m);
    EXPECT_TRUE(id.ok()) << id.status();
    const std::vector<int> ranks =
        ::cardref::ladder::testing::SamplePlackettLuceRanks(theta, rng);
    MatchResult result;
    result.match_id = *id;
    result.log_hash = ::cardref::ladder::testing::FakeHash(1000 + m);
    result.worker = "sim";
    for (int s = 0; s < 3; ++s) {
      result.seats.push_back({s, match.seat_versions[s], ranks[s], 0});
    }
    EXPECT_TRUE(store->RecordResult(result, 3 + m, rate).ok());
  }
  return store;
}

TEST(RefitTest, TheBatchOrderAgreesWithTheOnlineRatings) {
  std::unique_ptr<SqliteStore> store = Simulated(300, RatePlackettLuce);
  auto config = store->GetConfig();
  ASSERT_TRUE(config.ok());
  RefitOptions options;
  options.resamples = 100;
  auto compared = RefitGame(*store, config->games[0], options);
  ASSERT_TRUE(compared.ok()) << compared.status();
  EXPECT_TRUE(compared->agree) << compared->summary;
  EXPECT_EQ(compared->players, 6);
  EXPECT_GT(compared->kendall_tau, 0.7) << compared->summary;
}

TEST(RefitTest, OnlineRatingsThatMovedTheWrongWayAreCaught) {
  // Each result rated as if its order were reversed.
  RateResultFn backwards = [](const LadderConfig& config,
                              const LadderGame& game, const MatchResult& result,
                              const std::vector<Rating>& before) {
    MatchResult reversed = result;
    for (SeatResult& s : reversed.seats) s.rank = game.players + 1 - s.rank;
    return RatePlackettLuce(config, game, reversed, before);
  };
  std::unique_ptr<SqliteStore> store = Simulated(300, backwards);
  auto config = store->GetConfig();
  ASSERT_TRUE(config.ok());
  RefitOptions options;
  options.resamples = 100;
  auto compared = RefitGame(*store, config->games[0], options);
  ASSERT_TRUE(compared.ok()) << compared.status();
  EXPECT_FALSE(compared->agree) << compared->summary;
  EXPECT_LT(compared->kendall_tau, 0) << compared->summary;
}

}  // namespace
}  // namespace cardref::ladder::run
