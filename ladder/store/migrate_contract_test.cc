// Schema migrations on every backend of the test binary: the same
// migrations, applied the same way (schema.h, migrate.h, pg_migrate.h).
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ladder/store/open_store.h"
#include "ladder/store/schema.h"
#include "ladder/store/testing/store_backends.h"

namespace cardref::ladder {
namespace {

class MigrateContractTest : public testing::BackendTest {
 protected:
  // Opens `db` as a binary that knows `migrations` would.
  absl::StatusOr<std::unique_ptr<LadderStore>> OpenWith(
      const std::string& db, const std::vector<Migration>& migrations) {
    OpenStoreOptions options;
    options.migrations = &migrations;
    return OpenStore(db, options);
  }
};

INSTANTIATE_TEST_SUITE_P(Store, MigrateContractTest,
                         ::testing::ValuesIn(testing::LinkedBackends()),
                         testing::BackendName);

const int kKnown = static_cast<int>(LadderMigrations().size());

// A second migration for the tests to stand for a future schema.
std::vector<Migration> WithFutureMigration() {
  std::vector<Migration> migrations = LadderMigrations();
  migrations.push_back(
      {static_cast<int>(migrations.size()) + 1, "entrant notes",
       "ALTER TABLE entrants ADD COLUMN note TEXT NOT NULL DEFAULT '';"});
  return migrations;
}

TEST_P(MigrateContractTest, AnEmptyDatabaseMigratesToTheNewestVersion) {
  const std::string db = NewDatabase();
  ASSERT_NE(Open(db), nullptr);
  EXPECT_EQ(*backend().SchemaVersionOf(db), kKnown);
  for (const char* table :
       {"schema_migrations", "ladder", "games", "entrants", "versions",
        "matches", "match_seats", "results", "result_seats", "ratings",
        "rating_history", "entrant_credentials"}) {
    EXPECT_TRUE(*backend().HasColumn(db, table, "")) << table;
  }
}

TEST_P(MigrateContractTest, ReopeningAppliesNothingTwice) {
  const std::string db = NewDatabase();
  ASSERT_NE(Open(db), nullptr);
  ASSERT_NE(Open(db), nullptr);
  EXPECT_EQ(*backend().CountRows(db, "schema_migrations"), kKnown);
}

// Workers starting at once on a new database: one migrates, the others
// find the work done.
TEST_P(MigrateContractTest, StoresOpenedAtOnceMigrateOnce) {
  const std::string db = NewDatabase();
  constexpr int kOpeners = 4;
  std::atomic<int> ready{0};
  absl::Status errors[kOpeners];
  std::vector<std::thread> openers;
  openers.reserve(kOpeners);
  for (int i = 0; i < kOpeners; ++i) {
    openers.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < kOpeners) std::this_thread::yield();
      errors[i] = OpenStore(db).status();
    });
  }
  for (std::thread& opener : openers) opener.join();
  for (const absl::Status& error : errors) EXPECT_TRUE(error.ok()) << error;
  EXPECT_EQ(*backend().CountRows(db, "schema_migrations"), kKnown);
  EXPECT_EQ(*backend().SchemaVersionOf(db), kKnown);
}

TEST_P(MigrateContractTest, AnOlderStoreIsUpgradedKeepingItsData) {
  const std::string db = NewDatabase();
  {
    std::unique_ptr<LadderStore> store = Open(db);
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->AddEntrant("alice", 1).ok());
  }
  EXPECT_FALSE(*backend().HasColumn(db, "entrants", "note"));
  const std::vector<Migration> newer = WithFutureMigration();
  auto store = OpenWith(db, newer);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(*backend().SchemaVersionOf(db), static_cast<int>(newer.size()));
  auto entrants = (*store)->ListEntrants();
  ASSERT_TRUE(entrants.ok());
  ASSERT_EQ(entrants->size(), 1u);
  EXPECT_EQ((*entrants)[0].name, "alice");
  EXPECT_TRUE(*backend().HasColumn(db, "entrants", "note"));
}

TEST_P(MigrateContractTest, ANewerStoreIsRefusedByAnOlderBinaryAndLeftAlone) {
  const std::string db = NewDatabase();
  ASSERT_TRUE(OpenWith(db, WithFutureMigration()).ok());

  auto old = OpenStore(db);  // this binary's migrations only
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(
      old.status().message(),
      absl::StrCat("schema version ", kKnown + 1,
                   ", newer than this binary knows (", kKnown, ")")))
      << old.status();
  EXPECT_TRUE(absl::StrContains(old.status().message(), db));
  EXPECT_EQ(*backend().SchemaVersionOf(db), kKnown + 1);
}

TEST_P(MigrateContractTest,
       AFailingMigrationLeavesTheStoreAtTheLastWholeVersion) {
  const std::string db = NewDatabase();
  ASSERT_NE(Open(db), nullptr);
  std::vector<Migration> broken = LadderMigrations();
  broken.push_back({kKnown + 1, "broken",
                    "CREATE TABLE half_done (a INTEGER); CREATE TABLEX nope;"});
  auto store = OpenWith(db, broken);
  ASSERT_FALSE(store.ok());
  EXPECT_TRUE(absl::StrContains(
      store.status().message(),
      absl::StrCat("migration ", kKnown + 1, " (broken) failed")))
      << store.status();
  EXPECT_EQ(*backend().SchemaVersionOf(db), kKnown);
  EXPECT_FALSE(*backend().HasColumn(db, "half_done", ""));
}

TEST_P(MigrateContractTest, MigrationsMustBeNumberedInOrder) {
  std::vector<Migration> gap = LadderMigrations();
  gap.push_back({kKnown + 2, "gap", "SELECT 1;"});
  auto store = OpenWith(NewDatabase(), gap);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::ladder
