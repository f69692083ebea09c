#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/store/sqlite_db.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::FakeRate;
using testing::FreshPath;
using testing::ResultInSeatOrder;
using testing::SmallLadder;
using testing::kCraits;

// A store with three ranked versions; returns their ids.
std::vector<int64_t> Populate(SqliteStore* store) {
  EXPECT_TRUE(store->Initialize(SmallLadder(), 1).ok());
  std::vector<int64_t> versions;
  for (const char* name : {"a", "b", "c"}) {
    EXPECT_TRUE(store->AddEntrant(name, 1).ok());
    auto v = store->AddVersion(name, "cmd", "h", 1);
    EXPECT_TRUE(v.ok());
    EXPECT_TRUE(
        store->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1).ok());
    versions.push_back(v->id);
  }
  return versions;
}

// Schedules, claims and records one match with log hash `n`.
void PlayOne(SqliteStore* store, const std::vector<int64_t>& versions,
             uint64_t n) {
  NewMatch match;
  match.game_id = kCraits;
  match.round = static_cast<int64_t>(n);
  match.deal_set = "d";
  match.seed = FakeHash(n);
  match.seat_versions = {versions[n % 3], versions[(n + 1) % 3],
                         versions[(n + 2) % 3]};
  ASSERT_TRUE(store->ScheduleMatch(match, 2).ok());
  auto claimed = store->ClaimNext({"w", 3, 1000, 3});
  ASSERT_TRUE(claimed.ok() && claimed->has_value());
  ASSERT_TRUE(store
                  ->RecordResult(ResultInSeatOrder(**claimed, n, "w"), 4,
                                 FakeRate)
                  .ok());
}

TEST(BackupTest, ARestoredBackupHoldsEverything) {
  const std::string path = FreshPath("ladder.db");
  auto store = SqliteStore::Open(path);
  ASSERT_TRUE(store.ok());
  const std::vector<int64_t> versions = Populate(store->get());
  for (uint64_t n = 1; n <= 5; ++n) PlayOne(store->get(), versions, n);

  const std::string backup = FreshPath("backup.db");
  ASSERT_TRUE((*store)->Backup(backup).ok());
  EXPECT_EQ((*store)->Backup(backup).code(), absl::StatusCode::kAlreadyExists);
  const std::string restored_path = FreshPath("restored.db");
  ASSERT_TRUE(RestoreSqliteBackup(backup, restored_path).ok());
  EXPECT_EQ(RestoreSqliteBackup(backup, restored_path).code(),
            absl::StatusCode::kAlreadyExists);

  auto restored = SqliteStore::Open(restored_path);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ((*restored)->GetConfig()->name, "test");
  EXPECT_EQ((*restored)->ListEntrants()->size(), 3u);
  EXPECT_EQ((*restored)->ListMatches(MatchState::kFinished)->size(), 5u);
  auto before = (*store)->Ratings(kCraits);
  auto after = (*restored)->Ratings(kCraits);
  ASSERT_TRUE(before.ok() && after.ok());
  ASSERT_EQ(before->size(), after->size());
  for (size_t i = 0; i < before->size(); ++i) {
    EXPECT_EQ((*before)[i].mu, (*after)[i].mu);
    EXPECT_EQ((*before)[i].sigma, (*after)[i].sigma);
    EXPECT_EQ((*before)[i].games, (*after)[i].games);
  }
  EXPECT_TRUE((*restored)->GetResult(FakeHash(5))->has_value());
  // The restored store works on: a retried log is still a duplicate.
  auto match = (*restored)->GetMatch(5);
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(*(*restored)->RecordResult(ResultInSeatOrder(*match, 5, "w"), 9,
                                       FakeRate),
            RecordOutcome::kDuplicate);
  PlayOne(restored->get(), versions, 6);
}

// A backup taken while another connection records results is one
// consistent snapshot: every result it holds is rated, none half-way.
TEST(BackupTest, ABackupDuringWritesIsConsistent) {
  const std::string path = FreshPath("ladder.db");
  auto store = SqliteStore::Open(path);
  ASSERT_TRUE(store.ok());
  const std::vector<int64_t> versions = Populate(store->get());
  constexpr uint64_t kGames = 40;
  std::thread writer([&] {
    SqliteStoreOptions fast;
    fast.open.sync_every_commit = false;
    auto other = SqliteStore::Open(path, fast);
    ASSERT_TRUE(other.ok());
    for (uint64_t n = 1; n <= kGames; ++n) PlayOne(other->get(), versions, n);
  });
  std::vector<std::string> backups;
  for (int i = 0; i < 4; ++i) {
    backups.push_back(FreshPath("backup.db"));
    ASSERT_TRUE((*store)->Backup(backups.back()).ok());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  writer.join();
  for (const std::string& backup : backups) {
    const std::string restored_path = FreshPath("restored.db");
    ASSERT_TRUE(RestoreSqliteBackup(backup, restored_path).ok());
    auto restored = SqliteStore::Open(restored_path);
    ASSERT_TRUE(restored.ok());
    const size_t finished =
        (*restored)->ListMatches(MatchState::kFinished)->size();
    int64_t games = 0;
    auto ratings = (*restored)->Ratings(kCraits);
    ASSERT_TRUE(ratings.ok());
    for (const Rating& r : *ratings) games += r.games;
    EXPECT_EQ(games, static_cast<int64_t>(3 * finished));
    EXPECT_LE(finished, kGames);
  }
}

TEST(BackupTest, RestoreRefusesDamagedOrForeignFiles) {
  const std::string path = FreshPath("ladder.db");
  auto store = SqliteStore::Open(path);
  ASSERT_TRUE(store.ok());
  const std::vector<int64_t> versions = Populate(store->get());
  for (uint64_t n = 1; n <= 20; ++n) PlayOne(store->get(), versions, n);
  const std::string backup = FreshPath("backup.db");
  ASSERT_TRUE((*store)->Backup(backup).ok());

  // Break the b-tree page header of the second page.
  const std::string damaged = FreshPath("damaged.db");
  std::filesystem::copy_file(backup, damaged);
  {
    std::fstream file(damaged, std::ios::in | std::ios::out |
                                   std::ios::binary);
    char header[100];
    file.read(header, sizeof header);
    const int page_size =
        (static_cast<unsigned char>(header[16]) << 8) |
        static_cast<unsigned char>(header[17]);
    file.seekp(page_size);
    const char garbage[8] = {'\x7f', '\x7f', '\x7f', '\x7f',
                             '\x7f', '\x7f', '\x7f', '\x7f'};
    file.write(garbage, sizeof garbage);
  }
  absl::Status status = RestoreSqliteBackup(damaged, FreshPath("r.db"));
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;

  // An SQLite file that is not a ladder.
  const std::string foreign = FreshPath("foreign.db");
  {
    auto db = SqliteDb::Open(foreign, {});
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)->Exec("CREATE TABLE t (a INTEGER);").ok());
  }
  status = RestoreSqliteBackup(foreign, FreshPath("r.db"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << status;

  status = RestoreSqliteBackup(FreshPath("absent.db"), FreshPath("r.db"));
  EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
}

}  // namespace
}  // namespace cardref::ladder
