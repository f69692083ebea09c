// SQLite's side of the migrations; what both backends do alike is in
// migrate_contract_test.cc.
#include "ladder/store/migrate.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
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

TEST(MigrateTest, AnEmptyFileIsInWalModeWithItsMigrationsTimed) {
  const std::string path = FreshPath("ladder.db");
  SqliteStoreOptions options;
  options.now_micros = 1234;
  ASSERT_TRUE(SqliteStore::Open(path, options).ok());
  EXPECT_EQ(*VersionOf(path), static_cast<int>(LadderMigrations().size()));
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
