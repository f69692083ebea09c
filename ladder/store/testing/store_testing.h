// Helpers for the ladder store's tests: fresh file paths, a small ladder,
// fake log hashes and a rating update that needs no model.
#ifndef CARDREF_LADDER_STORE_TESTING_STORE_TESTING_H_
#define CARDREF_LADDER_STORE_TESTING_STORE_TESTING_H_

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "ladder/store/store.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::ladder::testing {

// A path in a fresh folder of the test's temporary directory, removed when
// the test passes.
inline std::string FreshPath(const std::string& name) {
  static std::atomic<int> counter{0};
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      absl::StrCat("ladder_", getpid(), "_", counter++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  testing_util::RemoveWhenTheTestPasses(dir);
  return (dir / name).string();
}

// 64 hex digits that differ for each `n` (stands for a log's SHA-256).
inline std::string FakeHash(uint64_t n) {
  return absl::StrFormat("%064x", n);
}

// The ids SmallLadder's games get in a fresh store.
constexpr int64_t kCraits = 1;
constexpr int64_t kKraken = 2;

// Craits for 3 (id 1) and Kraken (id 2, partnerships).
inline LadderConfig SmallLadder() {
  LadderConfig config;
  config.name = "test";
  config.games.push_back({0, "craits", 3, {}, ""});
  config.games.push_back({0, "kraken", 4, {0, 1, 0, 1}, ""});
  return config;
}

// Moves each seat's mu by (players + 1 - 2 * rank) and shrinks sigma by
// 1%: enough to check the store keeps what the update returns.
inline absl::StatusOr<std::vector<Rating>> FakeRate(
    const LadderConfig&, const LadderGame& game, const MatchResult& result,
    const std::vector<Rating>& before) {
  std::vector<Rating> after = before;
  for (size_t i = 0; i < after.size(); ++i) {
    after[i].mu += game.players + 1 - 2 * result.seats[i].rank;
    after[i].sigma *= 0.99;
  }
  return after;
}

// The result of `match` with seat s ranked s + 1.
inline MatchResult ResultInSeatOrder(const Match& match, uint64_t hash,
                                     const std::string& worker) {
  MatchResult result;
  result.match_id = match.id;
  result.log_hash = FakeHash(hash);
  result.worker = worker;
  for (size_t s = 0; s < match.seat_versions.size(); ++s) {
    result.seats.push_back({static_cast<int>(s), match.seat_versions[s],
                            static_cast<int>(s) + 1,
                            static_cast<double>(10 - s)});
  }
  return result;
}

}  // namespace cardref::ladder::testing

#endif  // CARDREF_LADDER_STORE_TESTING_STORE_TESTING_H_
