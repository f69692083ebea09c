// The store's reads of recorded results (ResultOfMatch, ListResults),
// listings without a filter (which bind an empty text), and the seat
// tallies matchmaking reads; on every backend of the test binary.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ladder/store/open_store.h"
#include "ladder/store/schema.h"
#include "ladder/store/testing/store_backends.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeRate;
using testing::ResultInSeatOrder;
using testing::SmallLadder;

class ResultsTest : public testing::BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    store_ = Open();
    ASSERT_NE(store_, nullptr);
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

  std::unique_ptr<LadderStore> store_;
  std::vector<int64_t> versions_;
};

INSTANTIATE_TEST_SUITE_P(Store, ResultsTest,
                         ::testing::ValuesIn(testing::LinkedBackends()),
                         testing::BackendName);

TEST_P(ResultsTest, ListingsWithoutAFilterListEverything) {
  auto all = store_->ListVersions(std::nullopt);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);  // three ranked, one validating
  Schedule(1, {versions_[0], versions_[1], versions_[2]}, MatchKind::kRated);
  auto matches = store_->ListMatches(std::nullopt);
  ASSERT_TRUE(matches.ok());
  EXPECT_EQ(matches->size(), 1u);
}

TEST_P(ResultsTest, ResultsAreFoundByMatchAndListedByGameAndKind) {
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

// What matchmaking reads, counted here from the matches the store lists:
// per version and seat of game 1, rated matches not voided, and the last
// round among them.
std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> Counted(
    LadderStore& store) {
  std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> counted;
  auto matches = store.ListMatches(std::nullopt);
  EXPECT_TRUE(matches.ok()) << matches.status();
  if (!matches.ok()) return counted;
  for (const Match& m : *matches) {
    if (m.game_id != 1 || m.kind != MatchKind::kRated ||
        m.state == MatchState::kVoided) {
      continue;
    }
    for (size_t seat = 0; seat < m.seat_versions.size(); ++seat) {
      auto& [count, last] =
          counted[{m.seat_versions[seat], static_cast<int64_t>(seat)}];
      ++count;
      last = std::max(last, m.round);
    }
  }
  return counted;
}

// The tallies matchmaking keeps, as MatchmakingState gives them.
std::map<std::pair<int64_t, int64_t>, int64_t> Kept(LadderStore& store) {
  std::map<std::pair<int64_t, int64_t>, int64_t> kept;
  auto state = store.MatchmakingState(1);
  EXPECT_TRUE(state.ok()) << state.status();
  for (const MatchmakingEntry& e : *state) {
    for (size_t seat = 0; seat < e.seat_counts.size(); ++seat) {
      if (e.seat_counts[seat] > 0) {
        kept[{e.version_id, static_cast<int64_t>(seat)}] = e.seat_counts[seat];
      }
    }
  }
  return kept;
}

using SeatTalliesTest = testing::BackendTest;
INSTANTIATE_TEST_SUITE_P(Store, SeatTalliesTest,
                         ::testing::ValuesIn(testing::LinkedBackends()),
                         testing::BackendName);

TEST_P(SeatTalliesTest, KeptAsMatchesAreScheduledVoidedAbandonedAndRetired) {
  std::unique_ptr<LadderStore> opened = Open();
  ASSERT_NE(opened, nullptr);
  LadderStore& store = *opened;
  ASSERT_TRUE(store.Initialize(SmallLadder(), 1).ok());
  std::vector<int64_t> v;
  for (int i = 0; i < 5; ++i) {
    const std::string name = "p" + std::to_string(i);
    ASSERT_TRUE(store.AddEntrant(name, 2).ok());
    auto added = store.AddVersion(name, "bot", name, 2);
    ASSERT_TRUE(added.ok());
    ASSERT_TRUE(
        store.SetVersionStatus(added->id, VersionStatus::kRanked, "", 2).ok());
    v.push_back(added->id);
  }
  std::vector<int64_t> ids;
  for (int round = 1; round <= 12; ++round) {
    NewMatch m;
    m.game_id = 1;
    m.round = round;
    m.deal_set = "d" + std::to_string(round);
    m.seed = testing::FakeHash(round);
    m.seat_versions = {v[round % 5], v[(round + 1) % 5], v[(round + 3) % 5]};
    auto id = store.ScheduleMatch(m, 10 + round);
    ASSERT_TRUE(id.ok()) << id.status();
    ids.push_back(*id);
  }
  auto check = [&](const char* when) {
    // Matchmaking sees ranked versions only.
    auto ranked = store.ListVersions(VersionStatus::kRanked);
    ASSERT_TRUE(ranked.ok());
    std::set<int64_t> seen;
    for (const Version& r : *ranked) seen.insert(r.id);
    std::map<std::pair<int64_t, int64_t>, int64_t> expected;
    for (const auto& [key, value] : Counted(store)) {
      if (seen.count(key.first) != 0) expected[key] = value.first;
    }
    EXPECT_EQ(Kept(store), expected) << when;
  };
  check("scheduled");
  ASSERT_TRUE(store.VoidMatch(ids[11], "the last round", 30).ok());
  check("the last round voided");
  // Claimed and abandoned: the third claim of an expired match voids it.
  ClaimRequest claim{"w", 40, 1, 1};
  auto first = store.ClaimNext(claim);
  ASSERT_TRUE(first.ok() && first->has_value());
  claim.now_micros = 50;
  ASSERT_TRUE(store.ClaimNext(claim).ok());  // abandons the first
  check("abandoned");
  ASSERT_TRUE(
      store.SetVersionStatus(v[2], VersionStatus::kRetired, "", 60).ok());
  check("retired");
  // Rounds waited: counted from the last round each version sat in.
  auto state = store.MatchmakingState(1);
  ASSERT_TRUE(state.ok());
  const auto counted = Counted(store);
  for (const MatchmakingEntry& e : *state) {
    int64_t last = 0;
    for (const auto& [key, value] : counted) {
      if (key.first == e.version_id) last = std::max(last, value.second);
    }
    std::set<int64_t> rounds;
    auto all = store.ListMatches(std::nullopt);
    ASSERT_TRUE(all.ok());
    for (const Match& m : *all) {
      if (m.kind == MatchKind::kRated && m.state != MatchState::kVoided &&
          m.round > last) {
        rounds.insert(m.round);
      }
    }
    EXPECT_EQ(e.rounds_waited, static_cast<int64_t>(rounds.size()))
        << "version " << e.version_id;
  }
}

TEST_P(SeatTalliesTest, TheMigrationCountsAnOlderStoresMatches) {
  const std::string path = NewDatabase();
  const std::vector<Migration> first(LadderMigrations().begin(),
                                     LadderMigrations().begin() + 1);
  {
    OpenStoreOptions options;
    options.migrations = &first;
    auto old = OpenStore(path, options);
    ASSERT_TRUE(old.ok()) << old.status();
    ASSERT_TRUE((*old)->Initialize(SmallLadder(), 1).ok());
    for (int i = 0; i < 3; ++i) {
      const std::string name = "p" + std::to_string(i);
      ASSERT_TRUE((*old)->AddEntrant(name, 2).ok());
      auto added = (*old)->AddVersion(name, "bot", name, 2);
      ASSERT_TRUE(added.ok());
      ASSERT_TRUE((*old)
                      ->SetVersionStatus(added->id, VersionStatus::kRanked, "",
                                         2)
                      .ok());
    }
  }
  {
    // Matches as a binary of schema version 1 wrote them (this one's
    // ScheduleMatches keeps tallies that version lacks).
    std::string sql;
    for (int round = 1; round <= 4; ++round) {
      absl::StrAppend(&sql, "INSERT INTO matches VALUES (", round,
                      ", 1, 'rated', ", round, ", 'd', '",
                      testing::FakeHash(round),
                      "', 'scheduled', '', 0, 0, '', 10, 0);");
      for (int seat = 0; seat < 3; ++seat) {
        absl::StrAppend(&sql, "INSERT INTO match_seats VALUES (", round, ", ",
                        seat, ", ", 1 + (round + seat) % 3, ");");
      }
    }
    ASSERT_TRUE(backend().Exec(path, sql).ok());
  }
  auto now = OpenStore(path);
  ASSERT_TRUE(now.ok()) << now.status();
  std::map<std::pair<int64_t, int64_t>, int64_t> expected;
  for (const auto& [key, value] : Counted(**now)) expected[key] = value.first;
  EXPECT_EQ(expected.size(), 9u);
  EXPECT_EQ(Kept(**now), expected);
}

}  // namespace
}  // namespace cardref::ladder
