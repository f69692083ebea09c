// A ladder moved from SQLite to PostgreSQL keeps everything and goes on
// where it stopped.
#include "ladder/store/copy_to_postgres.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/open_store.h"
#include "ladder/store/testing/postgres_testing.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::FreshPath;
using testing::ResultInSeatOrder;
using testing::SharedPostgresServer;
using testing::SmallLadder;
using testing::kCraits;
using testing::kKraken;

std::unique_ptr<LadderStore> MustOpen(const std::string& db) {
  absl::StatusOr<std::unique_ptr<LadderStore>> store = OpenStore(db);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// A ladder with something in every table and every state: versions
// validating, ranked, retired and rejected with reasons; matches finished
// (rated and validation), claimed, scheduled and voided; ratings from the
// Plackett-Luce model in both games, so the doubles have every digit.
// Returns the log hashes recorded.
std::vector<std::string> FillLadder(LadderStore& store) {
  LadderConfig config = SmallLadder();
  config.name = "moving ladder";
  config.duplicate = true;
  config.decision_time_limit_ms = 1234;
  config.match_budget_ms = 98765;
  config.reference_entrant = "ref";
  config.rating.tau = 0.05;
  EXPECT_TRUE(store.Initialize(config, 10).ok());
  std::vector<int64_t> ranked;
  for (const char* name : {"ref", "alpha", "beta.2", "gamma-x", "delta_y"}) {
    EXPECT_TRUE(store.AddEntrant(name, 20).ok());
    auto v = store.AddVersion(name, absl::StrCat("bot --name='", name, "'"),
                              absl::StrCat("hash-", name), 21);
    EXPECT_TRUE(v.ok()) << v.status();
    EXPECT_TRUE(
        store.SetVersionStatus(v->id, VersionStatus::kRanked, "", 22).ok());
    ranked.push_back(v->id);
  }
  // alpha's second version replaces the first (retired with a reason).
  auto replacement = store.AddVersion("alpha", "bot v2", "hash-alpha-2", 30);
  EXPECT_TRUE(replacement.ok());
  auto rejected = store.AddVersion("beta.2", "bot v2", "hash-beta-2", 31);
  EXPECT_TRUE(rejected.ok());
  EXPECT_TRUE(store
                  .SetVersionStatus(rejected->id, VersionStatus::kRejected,
                                    "crashed in validation: exit 3", 32)
                  .ok());
  EXPECT_TRUE(store.AddVersion("gamma-x", "bot v2", "hash-g2", 33).ok());

  std::vector<std::string> hashes;
  uint64_t n = 0;
  auto schedule = [&](int64_t game, std::vector<int64_t> seats,
                      MatchKind kind) {
    NewMatch match;
    match.game_id = game;
    match.kind = kind;
    match.round = static_cast<int64_t>(++n);
    match.deal_set = absl::StrCat("set-", n);
    match.seed = FakeHash(1000 + n);
    match.seat_versions = std::move(seats);
    auto id = store.ScheduleMatch(match, 40 + static_cast<int64_t>(n));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.value_or(0);
  };
  auto record = [&](int64_t id, std::vector<int> ranks) {
    auto match = store.GetMatch(id);
    EXPECT_TRUE(match.ok());
    MatchResult result = ResultInSeatOrder(*match, 5000 + id, "host-a:1");
    for (size_t s = 0; s < ranks.size(); ++s) {
      result.seats[s].rank = ranks[s];
      result.seats[s].score = 1.0 / 3.0 + static_cast<double>(s);
    }
    EXPECT_TRUE(
        store.RecordResult(result, 100 + id, RatePlackettLuce).ok());
    hashes.push_back(result.log_hash);
  };
  for (int round = 0; round < 6; ++round) {
    const int64_t id = schedule(
        kCraits,
        {ranked[round % 5], ranked[(round + 1) % 5], ranked[(round + 2) % 5]},
        MatchKind::kRated);
    record(id, {round % 3 + 1, (round + 1) % 3 + 1, 1});  // with a tie
  }
  record(schedule(kKraken, {ranked[0], ranked[1], ranked[2], ranked[3]},
                  MatchKind::kRated),
         {2, 1, 2, 1});
  record(schedule(kCraits,
                  {replacement->id, replacement->id, replacement->id},
                  MatchKind::kValidation),
         {1, 2, 3});
  EXPECT_TRUE(store
                  .SetVersionStatus(replacement->id, VersionStatus::kRanked,
                                    "", 60)
                  .ok());
  // A claimed match, a scheduled one, a voided one.
  schedule(kCraits, {ranked[2], ranked[3], ranked[4]}, MatchKind::kRated);
  auto claimed = store.ClaimNext({"host-b:7", 70, 30'000'000, 3});
  EXPECT_TRUE(claimed.ok() && claimed->has_value());
  schedule(kCraits, {ranked[4], ranked[3], ranked[2]}, MatchKind::kRated);
  const int64_t voided =
      schedule(kCraits, {ranked[0], ranked[3], ranked[2]}, MatchKind::kRated);
  EXPECT_TRUE(store.VoidMatch(voided, "referee crashed", 80).ok());
  return hashes;
}

void ExpectSameVersion(const Version& a, const Version& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.entrant_id, b.entrant_id);
  EXPECT_EQ(a.entrant_name, b.entrant_name);
  EXPECT_EQ(a.command, b.command);
  EXPECT_EQ(a.content_hash, b.content_hash);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.created_micros, b.created_micros);
  EXPECT_EQ(a.status_micros, b.status_micros);
}

void ExpectSameMatch(const Match& a, const Match& b) {
  SCOPED_TRACE(::testing::Message() << "match " << a.id);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.game_id, b.game_id);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.round, b.round);
  EXPECT_EQ(a.deal_set, b.deal_set);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.claim_owner, b.claim_owner);
  EXPECT_EQ(a.lease_expiry_micros, b.lease_expiry_micros);
  EXPECT_EQ(a.attempts, b.attempts);
  EXPECT_EQ(a.reason, b.reason);
  EXPECT_EQ(a.scheduled_micros, b.scheduled_micros);
  EXPECT_EQ(a.finished_micros, b.finished_micros);
  EXPECT_EQ(a.seat_versions, b.seat_versions);
}

// Everything the interface can read, equal in both stores.
void ExpectSameLadder(LadderStore& from, LadderStore& to,
                      const std::vector<std::string>& hashes) {
  auto config_a = from.GetConfig();
  auto config_b = to.GetConfig();
  ASSERT_TRUE(config_a.ok() && config_b.ok()) << config_b.status();
  EXPECT_EQ(config_a->name, config_b->name);
  EXPECT_EQ(config_a->duplicate, config_b->duplicate);
  EXPECT_EQ(config_a->frozen, config_b->frozen);
  EXPECT_EQ(config_a->decision_time_limit_ms,
            config_b->decision_time_limit_ms);
  EXPECT_EQ(config_a->match_budget_ms, config_b->match_budget_ms);
  EXPECT_EQ(config_a->reference_entrant, config_b->reference_entrant);
  EXPECT_EQ(config_a->rating.mu, config_b->rating.mu);
  EXPECT_EQ(config_a->rating.sigma, config_b->rating.sigma);
  EXPECT_EQ(config_a->rating.beta, config_b->rating.beta);
  EXPECT_EQ(config_a->rating.kappa, config_b->rating.kappa);
  EXPECT_EQ(config_a->rating.tau, config_b->rating.tau);
  ASSERT_EQ(config_a->games.size(), config_b->games.size());
  for (size_t g = 0; g < config_a->games.size(); ++g) {
    EXPECT_EQ(config_a->games[g].id, config_b->games[g].id);
    EXPECT_EQ(config_a->games[g].game, config_b->games[g].game);
    EXPECT_EQ(config_a->games[g].players, config_b->games[g].players);
    EXPECT_EQ(config_a->games[g].teams, config_b->games[g].teams);
    EXPECT_EQ(config_a->games[g].params, config_b->games[g].params);
  }

  auto entrants_a = from.ListEntrants();
  auto entrants_b = to.ListEntrants();
  ASSERT_TRUE(entrants_a.ok() && entrants_b.ok());
  ASSERT_EQ(entrants_a->size(), entrants_b->size());
  for (size_t i = 0; i < entrants_a->size(); ++i) {
    EXPECT_EQ((*entrants_a)[i].id, (*entrants_b)[i].id);
    EXPECT_EQ((*entrants_a)[i].name, (*entrants_b)[i].name);
    EXPECT_EQ((*entrants_a)[i].created_micros,
              (*entrants_b)[i].created_micros);
  }

  auto versions_a = from.ListVersions(std::nullopt);
  auto versions_b = to.ListVersions(std::nullopt);
  ASSERT_TRUE(versions_a.ok() && versions_b.ok());
  ASSERT_EQ(versions_a->size(), versions_b->size());
  for (size_t i = 0; i < versions_a->size(); ++i) {
    ExpectSameVersion((*versions_a)[i], (*versions_b)[i]);
  }

  auto matches_a = from.ListMatches(std::nullopt);
  auto matches_b = to.ListMatches(std::nullopt);
  ASSERT_TRUE(matches_a.ok() && matches_b.ok());
  ASSERT_EQ(matches_a->size(), matches_b->size());
  for (size_t i = 0; i < matches_a->size(); ++i) {
    ExpectSameMatch((*matches_a)[i], (*matches_b)[i]);
  }

  for (const std::string& hash : hashes) {
    auto a = from.GetResult(hash);
    auto b = to.GetResult(hash);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_TRUE(a->has_value() && b->has_value()) << hash;
    EXPECT_EQ((*a)->match_id, (*b)->match_id);
    EXPECT_EQ((*a)->worker, (*b)->worker);
    ASSERT_EQ((*a)->seats.size(), (*b)->seats.size());
    for (size_t s = 0; s < (*a)->seats.size(); ++s) {
      EXPECT_EQ((*a)->seats[s].seat, (*b)->seats[s].seat);
      EXPECT_EQ((*a)->seats[s].version_id, (*b)->seats[s].version_id);
      EXPECT_EQ((*a)->seats[s].rank, (*b)->seats[s].rank);
      EXPECT_EQ((*a)->seats[s].score, (*b)->seats[s].score);  // every bit
    }
  }

  for (const LadderGame& game : config_a->games) {
    auto ratings_a = from.Ratings(game.id);
    auto ratings_b = to.Ratings(game.id);
    ASSERT_TRUE(ratings_a.ok() && ratings_b.ok());
    ASSERT_EQ(ratings_a->size(), ratings_b->size());
    EXPECT_FALSE(ratings_a->empty()) << game.game;
    for (size_t i = 0; i < ratings_a->size(); ++i) {
      EXPECT_EQ((*ratings_a)[i].version_id, (*ratings_b)[i].version_id);
      EXPECT_EQ((*ratings_a)[i].mu, (*ratings_b)[i].mu);
      EXPECT_EQ((*ratings_a)[i].sigma, (*ratings_b)[i].sigma);
      EXPECT_EQ((*ratings_a)[i].games, (*ratings_b)[i].games);
    }
    for (const Version& version : *versions_a) {
      auto history_a = from.RatingHistory(version.id, game.id);
      auto history_b = to.RatingHistory(version.id, game.id);
      ASSERT_TRUE(history_a.ok() && history_b.ok());
      ASSERT_EQ(history_a->size(), history_b->size());
      for (size_t h = 0; h < history_a->size(); ++h) {
        EXPECT_EQ((*history_a)[h].log_hash, (*history_b)[h].log_hash);
        EXPECT_EQ((*history_a)[h].mu_before, (*history_b)[h].mu_before);
        EXPECT_EQ((*history_a)[h].sigma_before,
                  (*history_b)[h].sigma_before);
        EXPECT_EQ((*history_a)[h].mu_after, (*history_b)[h].mu_after);
        EXPECT_EQ((*history_a)[h].sigma_after, (*history_b)[h].sigma_after);
      }
    }
    auto state_a = from.MatchmakingState(game.id);
    auto state_b = to.MatchmakingState(game.id);
    ASSERT_TRUE(state_a.ok() && state_b.ok());
    ASSERT_EQ(state_a->size(), state_b->size());
    for (size_t i = 0; i < state_a->size(); ++i) {
      EXPECT_EQ((*state_a)[i].version_id, (*state_b)[i].version_id);
      EXPECT_EQ((*state_a)[i].mu, (*state_b)[i].mu);
      EXPECT_EQ((*state_a)[i].games, (*state_b)[i].games);
      EXPECT_EQ((*state_a)[i].rounds_waited, (*state_b)[i].rounds_waited);
      EXPECT_EQ((*state_a)[i].seat_counts, (*state_b)[i].seat_counts);
    }
    EXPECT_EQ(*from.NextRound(game.id), *to.NextRound(game.id));
  }
}

class CopyToPostgresTest : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_POSTGRES(); }

  std::string NewDatabase(const std::string& name) {
    auto url = SharedPostgresServer()->CreateDatabase(name);
    EXPECT_TRUE(url.ok()) << url.status();
    return url.value_or("");
  }
};

TEST_F(CopyToPostgresTest, ASqliteLadderMovedToPostgresKeepsEverything) {
  const std::string file = FreshPath("ladder.db");
  std::unique_ptr<LadderStore> sqlite = MustOpen(file);
  ASSERT_NE(sqlite, nullptr);
  const std::vector<std::string> hashes = FillLadder(*sqlite);
  ASSERT_EQ(hashes.size(), 8u);

  const std::string url = NewDatabase("copy_everything");
  auto report = CopySqliteToPostgres(file, url, 500);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->rows.size(), LadderTablesInCopyOrder().size());
  EXPECT_EQ(report->rows[0], (std::pair<std::string, int64_t>("ladder", 1)));
  EXPECT_EQ(report->rows[2], (std::pair<std::string, int64_t>("entrants", 5)));
  EXPECT_EQ(report->rows[4], (std::pair<std::string, int64_t>("matches", 11)));

  std::unique_ptr<LadderStore> pg = MustOpen(url);
  ASSERT_NE(pg, nullptr);
  ExpectSameLadder(*sqlite, *pg, hashes);

  // The ladder goes on where it stopped, on both alike: the claimed match
  // is still held until its lease ends, then taken with its attempts
  // counted on; a retried log is a duplicate; new rows get the next ids.
  for (LadderStore* store : {sqlite.get(), pg.get()}) {
    auto next = store->ClaimNext({"host-c:1", 71, 30'000'000, 3});
    ASSERT_TRUE(next.ok() && next->has_value());
    EXPECT_EQ((*next)->id, 10);  // the scheduled one; 9 is still held
    auto taken = store->ClaimNext({"host-c:1", 30'000'070, 30'000'000, 3});
    ASSERT_TRUE(taken.ok() && taken->has_value());
    EXPECT_EQ((*taken)->id, 9);
    EXPECT_EQ((*taken)->attempts, 2);
    auto finished = store->GetMatch(1);
    ASSERT_TRUE(finished.ok());
    EXPECT_EQ(*store->RecordResult(
                  ResultInSeatOrder(*finished, 5001, "host-a:1"), 900,
                  RatePlackettLuce),
              RecordOutcome::kDuplicate);
    EXPECT_EQ(*store->RecordResult(ResultInSeatOrder(**taken, 7777, "c"), 901,
                                   RatePlackettLuce),
              RecordOutcome::kRecorded);
    auto entrant = store->AddEntrant("newcomer", 902);
    ASSERT_TRUE(entrant.ok()) << entrant.status();
    EXPECT_EQ(entrant->id, 6);
  }
  ExpectSameLadder(*sqlite, *pg, hashes);
}

TEST_F(CopyToPostgresTest, TheCopyRefusesWhatItCannotMove) {
  const std::string file = FreshPath("ladder.db");
  {
    std::unique_ptr<LadderStore> sqlite = MustOpen(file);
    ASSERT_NE(sqlite, nullptr);
    FillLadder(*sqlite);
  }
  const std::string url = NewDatabase("copy_refusals");
  ASSERT_TRUE(CopySqliteToPostgres(file, url, 1).ok());
  // Not over a ladder.
  absl::Status again = CopySqliteToPostgres(file, url, 2).status();
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists) << again;
  // Not from a file that is missing or holds no ladder.
  EXPECT_EQ(CopySqliteToPostgres(FreshPath("absent.db"),
                                 NewDatabase("copy_absent"), 1)
                .status()
                .code(),
            absl::StatusCode::kNotFound);
  const std::string empty = FreshPath("empty.db");
  ASSERT_NE(MustOpen(empty), nullptr);
  absl::Status no_ladder =
      CopySqliteToPostgres(empty, NewDatabase("copy_empty"), 1).status();
  EXPECT_EQ(no_ladder.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(no_ladder.message(), "no ladder"))
      << no_ladder;
  // A failed copy leaves the database without a ladder (all or nothing).
  auto store = MustOpen(SharedPostgresServer()->Url("copy_empty"));
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->GetConfig().status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace cardref::ladder
