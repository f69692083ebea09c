// What only the PostgreSQL store has: connections that fail or are cut,
// several ladders in one database, and SKIP LOCKED claims.
#include "ladder/store/pg_store.h"

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ladder/store/open_store.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/testing/postgres_testing.h"
#include "ladder/store/testing/store_testing.h"
#include "pqxx/pqxx"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::SharedPostgresServer;
using testing::SmallLadder;

TEST(PgUrlTest, PasswordsNeverReachMessages) {
  EXPECT_EQ(RedactPostgresUrl("postgresql://ladder:s3cret@db.example:5432/l"),
            "postgresql://ladder:***@db.example:5432/l");
  EXPECT_EQ(RedactPostgresUrl("postgresql://db/l?user=x&password=s3cret&a=b"),
            "postgresql://db/l?user=x&password=***&a=b");
  EXPECT_EQ(RedactPostgresUrl("postgresql://ladder@db/l"),
            "postgresql://ladder@db/l");
  EXPECT_EQ(RedactPostgresUrl("postgresql:///l?host=/tmp/x"),
            "postgresql:///l?host=/tmp/x");
  EXPECT_TRUE(IsPostgresUrl("postgres://h/d"));
  EXPECT_TRUE(IsPostgresUrl("postgresql:///d"));
  EXPECT_FALSE(IsPostgresUrl("ladder.db"));
  EXPECT_FALSE(IsPostgresUrl("/srv/postgresql/ladder.db"));
}

class PgStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_POSTGRES(); }

  std::string NewDatabase(const std::string& name) {
    auto url = SharedPostgresServer()->CreateDatabase(name);
    EXPECT_TRUE(url.ok()) << url.status();
    return url.value_or("");
  }

  // A statement on its own connection (as the database's owner).
  static void Run(const std::string& url, const std::string& sql) {
    pqxx::connection conn(url);
    pqxx::nontransaction work(conn);
    work.exec(sql);
  }
};

TEST_F(PgStoreTest, UnreachableServersAndMissingDatabasesSayWhich) {
  auto unreachable = OpenStore(
      "postgresql://ladder:s3cret@/ladder?host=/nonexistent/socket/dir");
  ASSERT_FALSE(unreachable.ok());
  EXPECT_EQ(unreachable.status().code(), absl::StatusCode::kUnavailable)
      << unreachable.status();
  EXPECT_FALSE(absl::StrContains(unreachable.status().message(), "s3cret"));
  EXPECT_TRUE(absl::StrContains(unreachable.status().message(), "***"));

  auto missing = OpenStore(SharedPostgresServer()->Url("no_such_ladder"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound)
      << missing.status();
}

// Two ladders in one database, each in its own schema (search_path).
TEST_F(PgStoreTest, SchemasHoldSeparateLadders) {
  const std::string url = NewDatabase("two_ladders");
  Run(url, "CREATE SCHEMA spring; CREATE SCHEMA autumn");
  for (const char* season : {"spring", "autumn"}) {
    auto store = OpenStore(
        absl::StrCat(url, "&options=-csearch_path%3D", season));
    ASSERT_TRUE(store.ok()) << store.status();
    LadderConfig config = SmallLadder();
    config.name = season;
    ASSERT_TRUE((*store)->Initialize(config, 1).ok());
    ASSERT_TRUE((*store)->AddEntrant(absl::StrCat(season, "-bot"), 1).ok());
  }
  for (const char* season : {"spring", "autumn"}) {
    auto store = OpenStore(
        absl::StrCat(url, "&options=-csearch_path%3D", season));
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ((*store)->GetConfig()->name, season);
    auto entrants = (*store)->ListEntrants();
    ASSERT_TRUE(entrants.ok());
    ASSERT_EQ(entrants->size(), 1u);
    EXPECT_EQ((*entrants)[0].name, absl::StrCat(season, "-bot"));
  }
  // public holds none.
  auto plain = OpenStore(url);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)->GetConfig().status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// The server ends the store's session (a restart, a proxy's timeout, an
// administrator): the next call reconnects and works.
TEST_F(PgStoreTest, AStoreReconnectsAfterItsSessionIsCut) {
  const std::string url = NewDatabase("cut_session");
  auto store = OpenStore(url);
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->Initialize(SmallLadder(), 1).ok());
  ASSERT_TRUE((*store)->AddEntrant("before", 1).ok());
  Run(url,
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname "
      "= current_database() AND pid <> pg_backend_pid()");
  auto entrant = (*store)->AddEntrant("after", 2);
  ASSERT_TRUE(entrant.ok()) << entrant.status();
  EXPECT_EQ(entrant->id, 2);
  EXPECT_EQ((*store)->ListEntrants()->size(), 2u);
}

// A match being claimed in another transaction (here: a worker that locked
// it and hangs) is skipped, not waited for; once that worker's connection
// dies its lock goes with it and the match is claimable again.
TEST_F(PgStoreTest, ClaimsSkipAMatchLockedElsewhere) {
  const std::string url = NewDatabase("skip_locked");
  auto store = OpenStore(url);
  ASSERT_TRUE(store.ok()) << store.status();
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
  for (int m = 0; m < 2; ++m) {
    NewMatch match;
    match.game_id = 1;
    match.seed = FakeHash(m);
    match.seat_versions = versions;
    ASSERT_TRUE((*store)->ScheduleMatch(match, 1).ok());
  }
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    try {
      pqxx::connection conn(url);
      pqxx::work work(conn);
      work.exec("SELECT id FROM matches WHERE id = 1 FOR UPDATE");
      if (write(ready[1], "x", 1) != 1) _exit(3);
      while (true) pause();
    } catch (...) {
      _exit(2);
    }
  }
  close(ready[1]);
  char byte = 0;
  const bool locked = read(ready[0], &byte, 1) == 1;
  close(ready[0]);
  if (!locked) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    FAIL() << "the locking worker did not start";
  }
  auto claimed = (*store)->ClaimNext({"w", 10, 1000, 3});
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  ASSERT_TRUE(claimed->has_value());
  EXPECT_EQ((*claimed)->id, 2);  // 1 is locked: skipped at once
  EXPECT_FALSE((*store)->ClaimNext({"w", 10, 1000, 3})->has_value());

  ASSERT_EQ(kill(child, SIGKILL), 0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  // The server notices the dead connection and ends its transaction.
  std::optional<Match> freed;
  for (int i = 0; i < 500 && !freed.has_value(); ++i) {
    auto next = (*store)->ClaimNext({"w", 10, 1000, 3});
    ASSERT_TRUE(next.ok()) << next.status();
    freed = *next;
    if (!freed.has_value()) usleep(10'000);
  }
  ASSERT_TRUE(freed.has_value()) << "match 1 stayed locked after its worker "
                                    "died";
  EXPECT_EQ(freed->id, 1);
  EXPECT_EQ(freed->attempts, 1);
}

}  // namespace
}  // namespace cardref::ladder
