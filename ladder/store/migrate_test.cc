#include "ladder/store/migrate.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ladder/store/schema.h"
#include "ladder/store/sqlite_db.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FreshPath;

absl::StatusOr<int> VersionOf(const std::string& path) {
  SqliteOpenOptions options;
  options.create = false;
  auto db = SqliteDb::Open(path, options);
  if (!db.ok()) return db.status();
  return SchemaVersion(db->get());
}

bool HasTable(const std::string& path, const std::string& table) {
  auto db = SqliteDb::Open(path, {});
  if (!db.ok()) return false;
  auto query = (*db)->Prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!query.ok()) return false;
  auto row = query->BindAll(table).Step();
  return row.ok() && *row && query->Int(0) == 1;
}

// A second migration for the tests to stand for a future schema.
std::vector<Migration> WithFutureMigration() {
  std::vector<Migration> migrations = LadderMigrations();
  migrations.push_back(
      {static_cast<int>(migrations.size()) + 1, "entrant notes",
       "ALTER TABLE entrants ADD COLUMN note TEXT NOT NULL DEFAULT '';"});
  return migrations;
}

TEST(MigrateTest, EmptyFileMigratesToTheNewestVersion) {
  const std::string path = FreshPath("ladder.db");
  SqliteStoreOptions options;
  options.now_micros = 1234;
  ASSERT_TRUE(SqliteStore::Open(path, options).ok());
  EXPECT_EQ(*VersionOf(path), static_cast<int>(LadderMigrations().size()));
  for (const char* table :
       {"schema_migrations", "ladder", "games", "entrants", "versions",
        "matches", "match_seats", "results", "result_seats", "ratings",
        "rating_history"}) {
    EXPECT_TRUE(HasTable(path, table)) << table;
  }
  // WAL mode persists in the file.
  auto db = SqliteDb::Open(path, {});
  ASSERT_TRUE(db.ok());
  auto mode = (*db)->Prepare("PRAGMA journal_mode");
  ASSERT_TRUE(mode.ok());
  ASSERT_TRUE(*mode->Step());
  EXPECT_EQ(mode->Text(0), "wal");
  auto applied = (*db)->Prepare(
      "SELECT version, applied_micros FROM schema_migrations ORDER BY version");
  ASSERT_TRUE(applied.ok());
  ASSERT_TRUE(*applied->Step());
  EXPECT_EQ(applied->Int(0), 1);
  EXPECT_EQ(applied->Int(1), 1234);
}

TEST(MigrateTest, ReopeningAppliesNothingTwice) {
  const std::string path = FreshPath("ladder.db");
  ASSERT_TRUE(SqliteStore::Open(path).ok());
  ASSERT_TRUE(SqliteStore::Open(path).ok());
  auto db = SqliteDb::Open(path, {});
  ASSERT_TRUE(db.ok());
  auto count = (*db)->Prepare("SELECT count(*) FROM schema_migrations");
  ASSERT_TRUE(count.ok());
  ASSERT_TRUE(*count->Step());
  EXPECT_EQ(count->Int(0), static_cast<int>(LadderMigrations().size()));
}

TEST(MigrateTest, AnOlderStoreIsUpgradedKeepingItsData) {
  const std::string path = FreshPath("ladder.db");
  {
    auto store = SqliteStore::Open(path);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->AddEntrant("alice", 1).ok());
  }
  const std::vector<Migration> newer = WithFutureMigration();
  SqliteStoreOptions options;
  options.migrations = &newer;
  auto store = SqliteStore::Open(path, options);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(*VersionOf(path), static_cast<int>(newer.size()));
  auto entrants = (*store)->ListEntrants();
  ASSERT_TRUE(entrants.ok());
  ASSERT_EQ(entrants->size(), 1u);
  EXPECT_EQ((*entrants)[0].name, "alice");
  auto db = SqliteDb::Open(path, {});
  ASSERT_TRUE(db.ok());
  EXPECT_TRUE((*db)->Prepare("SELECT note FROM entrants").ok());
}

TEST(MigrateTest, ANewerStoreIsRefusedByAnOlderBinaryAndLeftAlone) {
  const std::string path = FreshPath("ladder.db");
  const std::vector<Migration> newer = WithFutureMigration();
  SqliteStoreOptions options;
  options.migrations = &newer;
  ASSERT_TRUE(SqliteStore::Open(path, options).ok());

  auto old = SqliteStore::Open(path);  // this binary's migrations only
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), absl::StatusCode::kFailedPrecondition);
  const int known = static_cast<int>(LadderMigrations().size());
  EXPECT_TRUE(absl::StrContains(
      old.status().message(),
      absl::StrCat("schema version ", known + 1,
                   ", newer than this binary knows (", known, ")")))
      << old.status();
  EXPECT_TRUE(absl::StrContains(old.status().message(), path));
  EXPECT_EQ(*VersionOf(path), known + 1);
}

TEST(MigrateTest, AFailingMigrationLeavesTheStoreAtTheLastWholeVersion) {
  const std::string path = FreshPath("ladder.db");
  ASSERT_TRUE(SqliteStore::Open(path).ok());
  std::vector<Migration> broken = LadderMigrations();
  const int known = static_cast<int>(broken.size());
  broken.push_back({known + 1, "broken",
                    "CREATE TABLE half_done (a INTEGER); CREATE TABLEX nope;"});
  SqliteStoreOptions options;
  options.migrations = &broken;
  auto store = SqliteStore::Open(path, options);
  ASSERT_FALSE(store.ok());
  EXPECT_TRUE(absl::StrContains(
      store.status().message(),
      absl::StrCat("migration ", known + 1, " (broken) failed")))
      << store.status();
  EXPECT_EQ(*VersionOf(path), known);
  EXPECT_FALSE(HasTable(path, "half_done"));
}

TEST(MigrateTest, MigrationsMustBeNumberedInOrder) {
  const std::string path = FreshPath("ladder.db");
  std::vector<Migration> gap = LadderMigrations();
  gap.push_back({static_cast<int>(gap.size()) + 2, "gap", "SELECT 1;"});
  SqliteStoreOptions options;
  options.migrations = &gap;
  auto store = SqliteStore::Open(path, options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MigrateTest, AFileThatIsNotADatabaseIsDataLoss) {
  const std::string path = FreshPath("ladder.db");
  std::ofstream(path) << std::string(4096, 'x');
  auto store = SqliteStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kDataLoss)
      << store.status();
}

TEST(MigrateTest, AMissingFileIsNotFoundWithoutCreate) {
  SqliteStoreOptions options;
  options.open.create = false;
  auto store = SqliteStore::Open(FreshPath("absent.db"), options);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kNotFound);
}

// The schema text must run unchanged on PostgreSQL: no SQLite-only words,
// and every id is a BIGINT the store assigns.
TEST(MigrateTest, TheSchemaKeepsToPortableSql) {
  std::string all = kMigrationsTableSql;
  for (const Migration& m : LadderMigrations()) all += m.sql;
  const std::string upper = absl::AsciiStrToUpper(all);
  for (const char* word :
       {"AUTOINCREMENT", "ROWID", "PRAGMA", "STRICT", "DATETIME", "BOOLEAN",
        "BLOB", " REAL", "SERIAL", "GLOB", "IFNULL", "INSERT OR", "REPLACE"}) {
    EXPECT_FALSE(absl::StrContains(upper, word)) << word;
  }
  EXPECT_FALSE(absl::StrContains(upper, "ID INTEGER PRIMARY KEY,"))
      << "ids are BIGINT (only the one-row ladder table has INTEGER id)";
  EXPECT_TRUE(absl::StrContains(upper, "ID BIGINT PRIMARY KEY"));
}

}  // namespace
}  // namespace cardref::ladder
