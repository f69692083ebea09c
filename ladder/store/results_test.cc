// The store's reads of recorded results (ResultOfMatch, ListResults) and
// listings without a filter, which bind an empty text.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeRate;
using testing::FreshPath;
using testing::ResultInSeatOrder;
using testing::SmallLadder;

class ResultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = SqliteStore::Open(FreshPath("ladder.db"));
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    ASSERT_TRUE(store_->Initialize(SmallLadder(), 100).ok());
    for (const std::string name : {"a", "b", "c", "d"}) {
      ASSERT_TRUE(store_->AddEntrant(name, 200).ok());
      auto v = store_->AddVersion(name, "bot", "hash-" + name, 200);
      ASSERT_TRUE(v.ok());
      versions_.push_back(v->id);
    }
    for (size_t i = 0; i < 3; ++i) {
      ASSERT_TRUE(store_->SetVersionStatus(versions_[i], VersionStatus::kRanked,
                                           "", 200)
                      .ok());
    }
  }

  int64_t Schedule(int64_t game, std::vector<int64_t> seats, MatchKind kind) {
    NewMatch match;
    match.game_id = game;
    match.kind = kind;
    match.deal_set = "d";
    match.seed = testing::FakeHash(9);
    match.seat_versions = std::move(seats);
    auto id = store_->ScheduleMatch(match, 300);
    EXPECT_TRUE(id.ok()) << id.status();
    return id.value_or(0);
  }

  std::unique_ptr<SqliteStore> store_;
  std::vector<int64_t> versions_;
};

TEST_F(ResultsTest, ListingsWithoutAFilterListEverything) {
  auto all = store_->ListVersions(std::nullopt);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);  // three ranked, one validating
  Schedule(1, {versions_[0], versions_[1], versions_[2]}, MatchKind::kRated);
  auto matches = store_->ListMatches(std::nullopt);
  ASSERT_TRUE(matches.ok());
  EXPECT_EQ(matches->size(), 1u);
}

TEST_F(ResultsTest, ResultsAreFoundByMatchAndListedByGameAndKind) {
  const int64_t rated =
      Schedule(1, {versions_[0], versions_[1], versions_[2]}, MatchKind::kRated);
  const int64_t validation = Schedule(
      1, {versions_[3], versions_[0], versions_[0]}, MatchKind::kValidation);
  const int64_t unplayed =
      Schedule(1, {versions_[2], versions_[1], versions_[0]}, MatchKind::kRated);
  auto rated_match = store_->GetMatch(rated);
  auto validation_match = store_->GetMatch(validation);
  ASSERT_TRUE(rated_match.ok() && validation_match.ok());
  ASSERT_TRUE(store_
                  ->RecordResult(ResultInSeatOrder(*validation_match, 2, "w"),
                                 400, FakeRate)
                  .ok());
  ASSERT_TRUE(
      store_->RecordResult(ResultInSeatOrder(*rated_match, 1, "w"), 500, FakeRate)
          .ok());

  auto found = store_->ResultOfMatch(rated);
  ASSERT_TRUE(found.ok());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->log_hash, testing::FakeHash(1));
  ASSERT_EQ((*found)->seats.size(), 3u);
  EXPECT_EQ((*found)->seats[2].rank, 3);
  auto none = store_->ResultOfMatch(unplayed);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  auto everything = store_->ListResults(1, std::nullopt);
  ASSERT_TRUE(everything.ok());
  ASSERT_EQ(everything->size(), 2u);
  EXPECT_EQ((*everything)[0].match_id, validation);  // recorded first
  EXPECT_EQ((*everything)[1].match_id, rated);
  for (const MatchResult& r : *everything) EXPECT_EQ(r.seats.size(), 3u);
  auto only_rated = store_->ListResults(1, MatchKind::kRated);
  ASSERT_TRUE(only_rated.ok());
  ASSERT_EQ(only_rated->size(), 1u);
  EXPECT_EQ((*only_rated)[0].seats[0].version_id, versions_[0]);
  auto other_game = store_->ListResults(2, std::nullopt);
  ASSERT_TRUE(other_game.ok());
  EXPECT_TRUE(other_game->empty());
}

}  // namespace
}  // namespace cardref::ladder
