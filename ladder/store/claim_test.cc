// Claims across connections: two stores on one file claiming at once, a
// worker process killed while holding a claim, leases and attempts.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::FakeRate;
using testing::FreshPath;
using testing::ResultInSeatOrder;
using testing::SmallLadder;

constexpr int64_t kCraits = 1;
constexpr int64_t kLease = 30'000'000;  // 30 s

// A ladder file with `matches` scheduled Craits matches among 5 versions.
// Commits skip fsync: claims are atomic either way, and the tests stay fast.
SqliteStoreOptions Fast() {
  SqliteStoreOptions options;
  options.open.sync_every_commit = false;
  return options;
}

std::string LadderWithMatches(int matches) {
  std::string path = FreshPath("ladder.db");
  auto store = SqliteStore::Open(path, Fast());
  EXPECT_TRUE(store.ok());
  EXPECT_TRUE((*store)->Initialize(SmallLadder(), 1).ok());
  std::vector<int64_t> versions;
  for (int i = 0; i < 5; ++i) {
    const std::string name = "bot" + std::to_string(i);
    EXPECT_TRUE((*store)->AddEntrant(name, 1).ok());
    auto v = (*store)->AddVersion(name, "cmd", "h", 1);
    EXPECT_TRUE(v.ok());
    EXPECT_TRUE(
        (*store)->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1).ok());
    versions.push_back(v->id);
  }
  for (int m = 0; m < matches; ++m) {
    NewMatch match;
    match.game_id = kCraits;
    match.round = m + 1;
    match.deal_set = "d" + std::to_string(m);
    match.seed = FakeHash(m);
    for (int s = 0; s < 3; ++s) {
      match.seat_versions.push_back(versions[(m + s) % 5]);
    }
    EXPECT_TRUE((*store)->ScheduleMatch(match, 2).ok());
  }
  return path;
}

// Two connections (one per thread) claim and record until nothing is left:
// every match is claimed exactly once and counted exactly once.
TEST(ClaimTest, ConcurrentWorkersNeverClaimTheSameMatch) {
  constexpr int kMatches = 120;
  const std::string path = LadderWithMatches(kMatches);
  std::vector<int64_t> claimed[2];
  absl::Status errors[2];
  std::atomic<int> ready{0};
  auto worker = [&](int w) {
    auto store = SqliteStore::Open(path, Fast());
    ready.fetch_add(1);
    while (ready.load() < 2) std::this_thread::yield();  // start together
    if (!store.ok()) {
      errors[w] = store.status();
      return;
    }
    const std::string owner = "worker" + std::to_string(w);
    while (true) {
      auto match = (*store)->ClaimNext({owner, 1000, kLease, 3});
      if (!match.ok()) {
        errors[w] = match.status();
        return;
      }
      if (!match->has_value()) return;
      claimed[w].push_back((*match)->id);
      // Playing the match: the other worker claims meanwhile.
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      auto outcome = (*store)->RecordResult(
          ResultInSeatOrder(**match, static_cast<uint64_t>((*match)->id),
                            owner),
          2000, FakeRate);
      if (!outcome.ok()) {
        errors[w] = outcome.status();
        return;
      }
    }
  };
  std::thread first(worker, 0), second(worker, 1);
  first.join();
  second.join();
  ASSERT_TRUE(errors[0].ok()) << errors[0];
  ASSERT_TRUE(errors[1].ok()) << errors[1];
  std::set<int64_t> all(claimed[0].begin(), claimed[0].end());
  for (int64_t id : claimed[1]) {
    EXPECT_TRUE(all.insert(id).second) << "match " << id << " claimed twice";
  }
  EXPECT_EQ(all.size(), static_cast<size_t>(kMatches));
  // Both took part (the test would prove nothing otherwise).
  EXPECT_FALSE(claimed[0].empty());
  EXPECT_FALSE(claimed[1].empty());

  auto store = SqliteStore::Open(path, Fast());
  ASSERT_TRUE(store.ok());
  EXPECT_EQ((*store)->ListMatches(MatchState::kFinished)->size(),
            static_cast<size_t>(kMatches));
  int64_t games = 0;
  auto ratings = (*store)->Ratings(kCraits);
  ASSERT_TRUE(ratings.ok());
  for (const Rating& r : *ratings) games += r.games;
  EXPECT_EQ(games, 3 * kMatches);  // no update lost between connections
}

TEST(ClaimTest, AnExpiredLeaseIsReclaimedAndTheLateWorkerLosesIt) {
  const std::string path = LadderWithMatches(1);
  auto a = SqliteStore::Open(path, Fast());
  auto b = SqliteStore::Open(path, Fast());
  ASSERT_TRUE(a.ok() && b.ok());
  auto first = (*a)->ClaimNext({"a", 0, kLease, 3});
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->attempts, 1);
  // Before the lease ends there is nothing to claim.
  EXPECT_FALSE((*b)->ClaimNext({"b", kLease - 1, kLease, 3})->has_value());
  // A live worker renews.
  ASSERT_TRUE((*a)->RenewLease((*first)->id, "a", kLease - 1, kLease).ok());
  EXPECT_FALSE((*b)->ClaimNext({"b", kLease, kLease, 3})->has_value());
  // Silent past the renewed lease: b takes over.
  const int64_t expired = 2 * kLease - 1;
  auto second = (*b)->ClaimNext({"b", expired, kLease, 3});
  ASSERT_TRUE(second.ok() && second->has_value());
  EXPECT_EQ((*second)->id, (*first)->id);
  EXPECT_EQ((*second)->claim_owner, "b");
  EXPECT_EQ((*second)->attempts, 2);
  EXPECT_EQ((*a)->RenewLease((*first)->id, "a", expired, kLease).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ((*a)->ReleaseClaim((*first)->id, "a").code(),
            absl::StatusCode::kAborted);
  // b finishes; a's late log of the same match is not counted.
  ASSERT_EQ(*(*b)->RecordResult(ResultInSeatOrder(**second, 2, "b"), expired,
                                FakeRate),
            RecordOutcome::kRecorded);
  auto late = (*a)->RecordResult(ResultInSeatOrder(**first, 1, "a"), expired,
                                 FakeRate);
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ((*a)->Ratings(kCraits)->at(0).games, 1);
}

TEST(ClaimTest, AReleasedClaimIsHandedOutAgain) {
  const std::string path = LadderWithMatches(1);
  auto store = SqliteStore::Open(path, Fast());
  ASSERT_TRUE(store.ok());
  auto first = (*store)->ClaimNext({"a", 0, kLease, 3});
  ASSERT_TRUE(first.ok() && first->has_value());
  ASSERT_TRUE((*store)->ReleaseClaim((*first)->id, "a").ok());
  auto again = (*store)->ClaimNext({"b", 1, kLease, 3});
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->id, (*first)->id);
  EXPECT_EQ((*again)->attempts, 2);
}

TEST(ClaimTest, AMatchAbandonedMaxAttemptsTimesIsVoided) {
  const std::string path = LadderWithMatches(2);
  auto store = SqliteStore::Open(path, Fast());
  ASSERT_TRUE(store.ok());
  int64_t now = 0;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    auto match = (*store)->ClaimNext({"w", now, kLease, 2});
    ASSERT_TRUE(match.ok() && match->has_value());
    EXPECT_EQ((*match)->id, 1);
    now += kLease;  // the worker dies
  }
  // The third try voids match 1 and hands out match 2.
  auto next = (*store)->ClaimNext({"w", now, kLease, 2});
  ASSERT_TRUE(next.ok() && next->has_value());
  EXPECT_EQ((*next)->id, 2);
  auto voided = (*store)->GetMatch(1);
  ASSERT_TRUE(voided.ok());
  EXPECT_EQ(voided->state, MatchState::kVoided);
  EXPECT_TRUE(absl::StrContains(voided->reason, "abandoned after 2 claims"))
      << voided->reason;
}

// A worker process killed with SIGKILL while it holds a claim (no cleanup
// of any kind): the claim stays until its lease ends, then another worker
// takes the match, and the store is intact.
TEST(ClaimTest, AKilledWorkersClaimIsReclaimedAfterItsLease) {
  const std::string path = LadderWithMatches(3);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = SqliteStore::Open(path, Fast());
    if (!store.ok()) _exit(2);
    auto match = (*store)->ClaimNext({"doomed", 0, kLease, 3});
    if (!match.ok() || !match->has_value()) _exit(3);
    raise(SIGKILL);
    _exit(4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with "
                                   << WEXITSTATUS(status);
  ASSERT_EQ(WTERMSIG(status), SIGKILL);

  auto store = SqliteStore::Open(path, Fast());
  ASSERT_TRUE(store.ok());
  auto held = (*store)->GetMatch(1);
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(held->state, MatchState::kClaimed);
  EXPECT_EQ(held->claim_owner, "doomed");
  // Within the lease the next worker gets the next match...
  auto other = (*store)->ClaimNext({"w", kLease - 1, kLease, 3});
  ASSERT_TRUE(other.ok() && other->has_value());
  EXPECT_EQ((*other)->id, 2);
  // ...and once it has expired, the dead worker's.
  auto reclaimed = (*store)->ClaimNext({"w", kLease, kLease, 3});
  ASSERT_TRUE(reclaimed.ok() && reclaimed->has_value());
  EXPECT_EQ((*reclaimed)->id, 1);
  EXPECT_EQ((*reclaimed)->attempts, 2);
  EXPECT_EQ(*(*store)->RecordResult(ResultInSeatOrder(**reclaimed, 1, "w"),
                                    kLease, FakeRate),
            RecordOutcome::kRecorded);
}

}  // namespace
}  // namespace cardref::ladder
