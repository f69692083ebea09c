// Claims across connections, on every backend of the test binary: two
// workers with their own connections claiming at once, a worker process
// killed while it holds claims, leases and attempts.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/open_store.h"
#include "ladder/store/testing/store_backends.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

using testing::FakeHash;
using testing::FakeRate;
using testing::FastOptions;
using testing::ResultInSeatOrder;
using testing::SmallLadder;
using testing::kCraits;

constexpr int64_t kLease = 30'000'000;  // 30 s

class ClaimTest : public testing::BackendTest {
 protected:
  // A new database with `matches` scheduled Craits matches among 5
  // versions; returns its locator. Commits skip waiting for the disk:
  // claims are atomic either way, and the tests stay fast.
  std::string LadderWithMatches(int matches) {
    std::string db = NewDatabase();
    std::unique_ptr<LadderStore> store = Open(db, FastOptions());
    if (store == nullptr) return db;
    EXPECT_TRUE(store->Initialize(SmallLadder(), 1).ok());
    std::vector<int64_t> versions;
    for (int i = 0; i < 5; ++i) {
      const std::string name = "bot" + std::to_string(i);
      EXPECT_TRUE(store->AddEntrant(name, 1).ok());
      auto v = store->AddVersion(name, "cmd", "h", 1);
      EXPECT_TRUE(v.ok());
      EXPECT_TRUE(
          store->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1).ok());
      versions.push_back(v->id);
    }
    std::vector<NewMatch> all;
    for (int m = 0; m < matches; ++m) {
      NewMatch match;
      match.game_id = kCraits;
      match.round = m + 1;
      match.deal_set = "d" + std::to_string(m);
      match.seed = FakeHash(m);
      for (int s = 0; s < 3; ++s) {
        match.seat_versions.push_back(versions[(m + s) % 5]);
      }
      all.push_back(std::move(match));
    }
    EXPECT_TRUE(store->ScheduleMatches(all, 2).ok());
    return db;
  }

  std::unique_ptr<LadderStore> OpenFast(const std::string& db) {
    return Open(db, FastOptions());
  }
};

INSTANTIATE_TEST_SUITE_P(Store, ClaimTest,
                         ::testing::ValuesIn(testing::LinkedBackends()),
                         testing::BackendName);

// A result that differs from match to match: seat s of match m ranks
// ((s + m) mod 3) + 1.
MatchResult MixedResult(const Match& match, const std::string& worker) {
  MatchResult result = ResultInSeatOrder(
      match, static_cast<uint64_t>(match.id), worker);
  for (SeatResult& seat : result.seats) {
    seat.rank = static_cast<int>((seat.seat + match.id) % 3) + 1;
  }
  return result;
}

// Two workers that claim matches until none is left must both take part, or
// a test of their interleaving proves nothing. SQLite's busy handler is not
// fair: on a loaded machine one connection can take every match while the
// other sleeps. So each worker holds its first claim until the other has
// one too, or has ended.
class BothTakePart {
 public:
  // Worker `w` (0 or 1) has claimed a match.
  void Claimed(int w) {
    if (claims_[w].fetch_add(1) > 0) return;
    const absl::Time limit = absl::Now() + absl::Seconds(60);
    while (claims_[1 - w].load() == 0 && !ended_[1 - w].load() &&
           absl::Now() < limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  void Ended(int w) { ended_[w].store(true); }

 private:
  std::atomic<int> claims_[2] = {0, 0};
  std::atomic<bool> ended_[2] = {false, false};
};

// Two connections (one per thread) claim and record until nothing is left:
// every match is claimed exactly once and counted exactly once.
TEST_P(ClaimTest, ConcurrentWorkersNeverClaimTheSameMatch) {
  constexpr int kMatches = 120;
  const std::string db = LadderWithMatches(kMatches);
  std::vector<int64_t> claimed[2];
  absl::Status errors[2];
  std::atomic<int> ready{0};
  BothTakePart both;
  auto worker = [&](int w) {
    absl::Cleanup ended = [&] { both.Ended(w); };
    absl::StatusOr<std::unique_ptr<LadderStore>> store =
        OpenStore(db, FastOptions());
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
      both.Claimed(w);
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

  std::unique_ptr<LadderStore> store = OpenFast(db);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->ListMatches(MatchState::kFinished)->size(),
            static_cast<size_t>(kMatches));
  int64_t games = 0;
  auto ratings = store->Ratings(kCraits);
  ASSERT_TRUE(ratings.ok());
  for (const Rating& r : *ratings) games += r.games;
  EXPECT_EQ(games, 3 * kMatches);  // no update lost between connections
}

// Two workers with their own connections record results rated by the
// Plackett-Luce model, whose update depends on what came before: the
// ratings they reach are exactly those one worker reaches recording the
// same results in the order the store rated them. A lost or interleaved
// update (two results rated from the same ratings) would show.
TEST_P(ClaimTest, TwoWorkersReachTheRatingsOfOneWorker) {
  constexpr int kMatches = 60;
  const std::string shared = LadderWithMatches(kMatches);
  std::mutex order_mu;
  std::vector<int64_t> rated_order;  // match ids, as the store rated them
  RateResultFn logging_rate = [&](const LadderConfig& config,
                                  const LadderGame& game,
                                  const MatchResult& result,
                                  const std::vector<Rating>& before) {
    std::lock_guard<std::mutex> lock(order_mu);
    rated_order.push_back(result.match_id);
    return RatePlackettLuce(config, game, result, before);
  };
  absl::Status errors[2];
  int recorded[2] = {0, 0};
  std::atomic<int> ready{0};
  BothTakePart both;
  auto worker = [&](int w) {
    absl::Cleanup ended = [&] { both.Ended(w); };
    absl::StatusOr<std::unique_ptr<LadderStore>> store =
        OpenStore(shared, FastOptions());
    ready.fetch_add(1);
    while (ready.load() < 2) std::this_thread::yield();
    if (!store.ok()) {
      errors[w] = store.status();
      return;
    }
    const std::string owner = "worker" + std::to_string(w);
    while (true) {
      auto match = (*store)->ClaimNext({owner, 1000, kLease, 3});
      if (!match.ok() || !match->has_value()) {
        if (!match.ok()) errors[w] = match.status();
        return;
      }
      both.Claimed(w);
      // Playing: the other worker claims and records meanwhile.
      std::this_thread::sleep_for(std::chrono::microseconds(300));
      auto outcome =
          (*store)->RecordResult(MixedResult(**match, owner), 2000,
                                 logging_rate);
      if (!outcome.ok()) {
        errors[w] = outcome.status();
        return;
      }
      ++recorded[w];
    }
  };
  std::thread first(worker, 0), second(worker, 1);
  first.join();
  second.join();
  ASSERT_TRUE(errors[0].ok()) << errors[0];
  ASSERT_TRUE(errors[1].ok()) << errors[1];
  EXPECT_EQ(recorded[0] + recorded[1], kMatches);
  EXPECT_GT(recorded[0], 0);
  EXPECT_GT(recorded[1], 0);

  // A transaction rerun after a conflict rates again: its last rating is
  // the one that counted.
  std::vector<int64_t> order;
  std::set<int64_t> seen;
  for (auto it = rated_order.rbegin(); it != rated_order.rend(); ++it) {
    if (seen.insert(*it).second) order.insert(order.begin(), *it);
  }
  ASSERT_EQ(order.size(), static_cast<size_t>(kMatches));

  // One worker, the same schedule and results, in that order.
  const std::string alone = LadderWithMatches(kMatches);
  std::unique_ptr<LadderStore> one = OpenFast(alone);
  ASSERT_NE(one, nullptr);
  for (int64_t id : order) {
    auto match = one->GetMatch(id);
    ASSERT_TRUE(match.ok()) << match.status();
    auto outcome = one->RecordResult(MixedResult(*match, "solo"), 2000,
                                     RatePlackettLuce);
    ASSERT_TRUE(outcome.ok()) << outcome.status();
  }

  std::unique_ptr<LadderStore> two = OpenFast(shared);
  ASSERT_NE(two, nullptr);
  auto together = two->Ratings(kCraits);
  auto solo = one->Ratings(kCraits);
  ASSERT_TRUE(together.ok() && solo.ok());
  ASSERT_EQ(together->size(), 5u);
  ASSERT_EQ(solo->size(), 5u);
  for (size_t i = 0; i < solo->size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "version " << (*solo)[i].version_id);
    EXPECT_EQ((*together)[i].version_id, (*solo)[i].version_id);
    EXPECT_EQ((*together)[i].mu, (*solo)[i].mu);  // bit for bit
    EXPECT_EQ((*together)[i].sigma, (*solo)[i].sigma);
    EXPECT_EQ((*together)[i].games, (*solo)[i].games);
    EXPECT_EQ((*together)[i].games, 3 * kMatches / 5);
    auto history = two->RatingHistory((*solo)[i].version_id, kCraits);
    ASSERT_TRUE(history.ok());
    EXPECT_EQ(history->size(), static_cast<size_t>(3 * kMatches / 5));
  }
}

TEST_P(ClaimTest, AnExpiredLeaseIsReclaimedAndTheLateWorkerLosesIt) {
  const std::string db = LadderWithMatches(1);
  std::unique_ptr<LadderStore> a = OpenFast(db);
  std::unique_ptr<LadderStore> b = OpenFast(db);
  ASSERT_TRUE(a != nullptr && b != nullptr);
  auto first = a->ClaimNext({"a", 0, kLease, 3});
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ((*first)->attempts, 1);
  // Before the lease ends there is nothing to claim.
  EXPECT_FALSE(b->ClaimNext({"b", kLease - 1, kLease, 3})->has_value());
  // A live worker renews.
  ASSERT_TRUE(a->RenewLease((*first)->id, "a", kLease - 1, kLease).ok());
  EXPECT_FALSE(b->ClaimNext({"b", kLease, kLease, 3})->has_value());
  // Silent past the renewed lease: b takes over.
  const int64_t expired = 2 * kLease - 1;
  auto second = b->ClaimNext({"b", expired, kLease, 3});
  ASSERT_TRUE(second.ok() && second->has_value());
  EXPECT_EQ((*second)->id, (*first)->id);
  EXPECT_EQ((*second)->claim_owner, "b");
  EXPECT_EQ((*second)->attempts, 2);
  EXPECT_EQ(a->RenewLease((*first)->id, "a", expired, kLease).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(a->ReleaseClaim((*first)->id, "a").code(),
            absl::StatusCode::kAborted);
  // b finishes; a's late log of the same match is not counted.
  ASSERT_EQ(*b->RecordResult(ResultInSeatOrder(**second, 2, "b"), expired,
                             FakeRate),
            RecordOutcome::kRecorded);
  auto late =
      a->RecordResult(ResultInSeatOrder(**first, 1, "a"), expired, FakeRate);
  EXPECT_EQ(late.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(a->Ratings(kCraits)->at(0).games, 1);
}

TEST_P(ClaimTest, AReleasedClaimIsHandedOutAgain) {
  const std::string db = LadderWithMatches(1);
  std::unique_ptr<LadderStore> store = OpenFast(db);
  ASSERT_NE(store, nullptr);
  auto first = store->ClaimNext({"a", 0, kLease, 3});
  ASSERT_TRUE(first.ok() && first->has_value());
  ASSERT_TRUE(store->ReleaseClaim((*first)->id, "a").ok());
  auto again = store->ClaimNext({"b", 1, kLease, 3});
  ASSERT_TRUE(again.ok() && again->has_value());
  EXPECT_EQ((*again)->id, (*first)->id);
  EXPECT_EQ((*again)->attempts, 2);
}

TEST_P(ClaimTest, AMatchAbandonedMaxAttemptsTimesIsVoided) {
  const std::string db = LadderWithMatches(2);
  std::unique_ptr<LadderStore> store = OpenFast(db);
  ASSERT_NE(store, nullptr);
  int64_t now = 0;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    auto match = store->ClaimNext({"w", now, kLease, 2});
    ASSERT_TRUE(match.ok() && match->has_value());
    EXPECT_EQ((*match)->id, 1);
    now += kLease;  // the worker dies
  }
  // The third try voids match 1 and hands out match 2.
  auto next = store->ClaimNext({"w", now, kLease, 2});
  ASSERT_TRUE(next.ok() && next->has_value());
  EXPECT_EQ((*next)->id, 2);
  auto voided = store->GetMatch(1);
  ASSERT_TRUE(voided.ok());
  EXPECT_EQ(voided->state, MatchState::kVoided);
  EXPECT_TRUE(absl::StrContains(voided->reason, "abandoned after 2 claims"))
      << voided->reason;
}

// A worker process killed with SIGKILL (no cleanup of any kind) while it
// holds two claims, after recording one result: its claims stay until
// their lease ends while another worker plays everything else, then that
// worker takes them over; every match ends with exactly one result, the
// dead worker's recorded one included, and every rating update counted
// once.
TEST_P(ClaimTest, AWorkerKilledMidMatchLosesNothingAndDoublesNothing) {
  constexpr int kMatches = 6;
  const std::string db = LadderWithMatches(kMatches);
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    absl::StatusOr<std::unique_ptr<LadderStore>> store =
        OpenStore(db, FastOptions());
    if (!store.ok()) _exit(2);
    auto first = (*store)->ClaimNext({"doomed", 0, kLease, 3});
    if (!first.ok() || !first->has_value()) _exit(3);
    if (!(*store)
             ->RecordResult(ResultInSeatOrder(**first, 1000, "doomed"), 0,
                            FakeRate)
             .ok()) {
      _exit(4);
    }
    for (int held = 0; held < 2; ++held) {
      auto match = (*store)->ClaimNext({"doomed", 0, kLease, 3});
      if (!match.ok() || !match->has_value()) _exit(5);
    }
    // Playing its two matches when the kill comes.
    if (write(ready[1], "x", 1) != 1) _exit(6);
    while (true) pause();
  }
  close(ready[1]);
  char byte = 0;
  const bool holding = read(ready[0], &byte, 1) == 1;
  close(ready[0]);
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(holding) << "the worker failed before holding its claims: "
                       << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_EQ(WTERMSIG(status), SIGKILL);

  std::unique_ptr<LadderStore> store = OpenFast(db);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->GetMatch(1)->state, MatchState::kFinished);
  for (int64_t held : {2, 3}) {
    auto match = store->GetMatch(held);
    ASSERT_TRUE(match.ok());
    EXPECT_EQ(match->state, MatchState::kClaimed);
    EXPECT_EQ(match->claim_owner, "doomed");
  }
  // Within the lease the next worker plays everything else...
  std::vector<int64_t> played;
  auto play_all = [&](int64_t now) {
    while (true) {
      auto match = store->ClaimNext({"w", now, kLease, 3});
      ASSERT_TRUE(match.ok()) << match.status();
      if (!match->has_value()) return;
      played.push_back((*match)->id);
      ASSERT_EQ(*store->RecordResult(
                    ResultInSeatOrder(**match, (*match)->id, "w"), now,
                    FakeRate),
                RecordOutcome::kRecorded);
    }
  };
  play_all(kLease - 1);
  EXPECT_EQ(played, (std::vector<int64_t>{4, 5, 6}));
  // ...and once the lease has ended, the dead worker's two.
  play_all(kLease);
  EXPECT_EQ(played, (std::vector<int64_t>{4, 5, 6, 2, 3}));
  EXPECT_EQ(store->GetMatch(2)->attempts, 2);

  // Every match once, the dead worker's result among them.
  auto finished = store->ListMatches(MatchState::kFinished);
  ASSERT_TRUE(finished.ok());
  EXPECT_EQ(finished->size(), static_cast<size_t>(kMatches));
  auto kept = store->GetResult(FakeHash(1000));
  ASSERT_TRUE(kept.ok() && kept->has_value());
  EXPECT_EQ((*kept)->worker, "doomed");
  EXPECT_EQ((*kept)->match_id, 1);
  auto match1 = store->GetMatch(1);
  ASSERT_TRUE(match1.ok());
  EXPECT_EQ(*store->RecordResult(ResultInSeatOrder(*match1, 1000, "doomed"),
                                 kLease, FakeRate),
            RecordOutcome::kDuplicate);
  auto ratings = store->Ratings(kCraits);
  ASSERT_TRUE(ratings.ok());
  int64_t games = 0;
  for (const Rating& r : *ratings) games += r.games;
  EXPECT_EQ(games, 3 * kMatches);
}

// Matchmaking in one place at a time: turns taken through several
// connections never overlap.
TEST_P(ClaimTest, ExclusiveTurnsNeverOverlap) {
  const std::string db = LadderWithMatches(0);
  constexpr int kWorkers = 3;
  constexpr int kTurns = 5;
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::atomic<int> turns{0};
  absl::Status errors[kWorkers];
  std::vector<std::thread> workers;
  workers.reserve(kWorkers);
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      std::unique_ptr<LadderStore> store = OpenFast(db);
      if (store == nullptr) return;
      for (int t = 0; t < kTurns && errors[w].ok(); ++t) {
        errors[w] = store->RunExclusively([&] {
          const int now = inside.fetch_add(1) + 1;
          int seen = most.load();
          while (now > seen && !most.compare_exchange_weak(seen, now)) {
          }
          // The store is usable inside the turn.
          absl::Status status = store->NextRound(kCraits).status();
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
          inside.fetch_sub(1);
          turns.fetch_add(1);
          return status;
        });
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  for (const absl::Status& error : errors) EXPECT_TRUE(error.ok()) << error;
  EXPECT_EQ(turns.load(), kWorkers * kTurns);
  EXPECT_EQ(most.load(), 1);
  // The body's status is RunExclusively's.
  std::unique_ptr<LadderStore> store = OpenFast(db);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->RunExclusively([] { return absl::DataLossError("x"); })
                .code(),
            absl::StatusCode::kDataLoss);
}

// A worker killed during its turn does not keep the others out.
TEST_P(ClaimTest, AnExclusiveTurnEndsWhenItsHolderIsKilled) {
  const std::string db = LadderWithMatches(0);
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(ready[0]);
    absl::StatusOr<std::unique_ptr<LadderStore>> store =
        OpenStore(db, FastOptions());
    if (!store.ok()) _exit(2);
    (void)(*store)->RunExclusively([&] {
      if (write(ready[1], "x", 1) != 1) _exit(3);
      while (true) pause();
      return absl::OkStatus();
    });
    _exit(4);
  }
  close(ready[1]);
  char byte = 0;
  const bool holding = read(ready[0], &byte, 1) == 1;
  close(ready[0]);
  if (!holding) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    FAIL() << "the worker did not take its turn";
  }
  std::atomic<bool> entered{false};
  std::thread waiter([&] {
    std::unique_ptr<LadderStore> store = OpenFast(db);
    if (store == nullptr) return;
    EXPECT_TRUE(store
                    ->RunExclusively([&] {
                      entered = true;
                      return absl::OkStatus();
                    })
                    .ok());
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(entered.load()) << "a turn was given while another was held";
  ASSERT_EQ(kill(child, SIGKILL), 0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  waiter.join();
  EXPECT_TRUE(entered.load());
}

}  // namespace
}  // namespace cardref::ladder
