#include "ladder/matchmaking/matchmaker.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

using testing::UniformDouble;

std::vector<Candidate> Population(int n, double mu_step = 0) {
  std::vector<Candidate> out;
  for (int i = 0; i < n; ++i) {
    Candidate c;
    c.id = i + 1;
    c.mu = 25 + mu_step * i;
    out.push_back(c);
  }
  return out;
}

// A long run with entrants joining and retiring, ratings spread into far
// clusters (closeness alone would never pair them) and fresh entrants the
// seed rule prefers: no entrant ever waits more than 3 x (active entrants /
// seats) rounds, with N the most entrants active while it waited.
void CheckStarvationBound(int seats, bool duplicate, uint64_t seed) {
  MatchmakingOptions options;
  options.seats = seats;
  options.duplicate = duplicate;
  Matchmaker matchmaker(options, seed);
  Rng world(seed * 31 + 7);
  std::vector<Candidate> active = Population(3 * seats);
  int64_t next_id = static_cast<int64_t>(active.size()) + 1;
  // Per entrant: the most entrants active since its last round.
  std::map<int64_t, int> max_active;
  double worst_ratio = 0;
  constexpr int kRounds = 3000;
  for (int r = 0; r < kRounds; ++r) {
    // Churn: now and then one joins or one retires (never below seats + 1).
    const uint32_t event = world.Uniform(20);
    if (event == 0 && active.size() < 24) {
      Candidate c;
      c.id = next_id++;
      c.mu = world.Uniform(2) == 0 ? 0 : 100;  // far from everyone
      active.push_back(c);
    } else if (event == 1 && static_cast<int>(active.size()) > seats + 1) {
      active.erase(active.begin() + world.Uniform(
                                        static_cast<uint32_t>(active.size())));
    }
    const int n = static_cast<int>(active.size());
    for (const Candidate& c : active) {
      max_active[c.id] = std::max(max_active[c.id], n);
    }
    auto round = matchmaker.Next(active, r);
    ASSERT_TRUE(round.ok()) << round.status();
    ASSERT_EQ(round->group.size(), static_cast<size_t>(seats));
    for (int64_t id : round->group) {
      const auto it = std::find_if(active.begin(), active.end(),
                                   [&](const Candidate& c) { return c.id == id; });
      ASSERT_NE(it, active.end());
      const double bound = 3.0 * max_active[id] / seats;
      EXPECT_LE(it->rounds_waited, bound)
          << "entrant " << id << " at round " << r << " with " << n
          << " active, " << seats << " seats";
      worst_ratio = std::max(worst_ratio, it->rounds_waited / bound);
      max_active[id] = 0;
    }
    ApplyRound(*round, &active);
    // Ratings drift apart: the first entrants settle at spread values.
    for (Candidate& c : active) {
      c.sigma = std::max(1.0, 25.0 / 3.0 / std::sqrt(1.0 + c.games));
      if (c.id <= 6) c.mu = 25 + 20 * static_cast<double>(c.id);
    }
  }
  // The rule's own bound is 2 N / seats; report how close the run came.
  EXPECT_LT(worst_ratio, 2.0 / 3.0 + 1e-9) << "seats " << seats;
}

TEST(MatchmakerTest, NoEntrantStarvesTwoSeats) { CheckStarvationBound(2, false, 1); }
TEST(MatchmakerTest, NoEntrantStarvesThreeSeats) { CheckStarvationBound(3, false, 2); }
TEST(MatchmakerTest, NoEntrantStarvesFourSeats) { CheckStarvationBound(4, false, 3); }
TEST(MatchmakerTest, NoEntrantStarvesFiveSeats) { CheckStarvationBound(5, false, 4); }
TEST(MatchmakerTest, NoEntrantStarvesWithDuplicateDeals) {
  CheckStarvationBound(3, true, 5);
  CheckStarvationBound(5, true, 6);
}

TEST(MatchmakerTest, EveryEntrantSitsInEverySeatAboutEquallyOften) {
  for (int seats = 2; seats <= 5; ++seats) {
    MatchmakingOptions options;
    options.seats = seats;
    Matchmaker matchmaker(options, 11);
    std::vector<Candidate> active = Population(seats + 4, 3.0);
    for (int r = 0; r < 3000; ++r) {
      auto round = matchmaker.Next(active, r);
      ASSERT_TRUE(round.ok());
      ApplyRound(*round, &active);
    }
    for (const Candidate& c : active) {
      ASSERT_EQ(c.seat_counts.size(), static_cast<size_t>(seats));
      const auto [low, high] =
          std::minmax_element(c.seat_counts.begin(), c.seat_counts.end());
      EXPECT_LE(*high - *low, 2) << "entrant " << c.id << " seats " << seats;
      EXPECT_GT(c.games, 3000 * seats / static_cast<int>(active.size()) / 3);
    }
  }
}

TEST(MatchmakerTest, OpponentsAreCloseInRating) {
  MatchmakingOptions options;
  options.seats = 2;
  Matchmaker matchmaker(options, 3);
  // Twelve entrants 5 mu apart, otherwise alike.
  std::vector<Candidate> active = Population(12, 5.0);
  std::map<int64_t, std::map<int64_t, int>> met;
  double distance = 0;
  constexpr int kRounds = 6000;
  for (int r = 0; r < kRounds; ++r) {
    auto round = matchmaker.Next(active, r);
    ASSERT_TRUE(round.ok());
    const int64_t a = round->group[0], b = round->group[1];
    distance += std::abs(active[a - 1].mu - active[b - 1].mu);
    ++met[a][b];
    ++met[b][a];
    ApplyRound(*round, &active);
    for (Candidate& c : active) c.games = 0;  // only closeness decides
  }
  // Random pairs of 12 evenly spaced ratings average 5 * 143 / 33 = 21.7
  // apart.
  EXPECT_LT(distance / kRounds, 0.6 * 21.7);
  // The middle entrant meets its neighbours far more than the extremes.
  EXPECT_GT(met[6][5] + met[6][7], 3 * (met[6][1] + met[6][12]));
}

TEST(MatchmakerTest, NewAndUncertainEntrantsPlayMore) {
  MatchmakingOptions options;
  options.seats = 2;
  int newcomer_played = 0;
  constexpr int kTrials = 400;
  for (int trial = 0; trial < kTrials; ++trial) {
    Matchmaker matchmaker(options, 1000 + trial);
    std::vector<Candidate> active = Population(10);
    for (Candidate& c : active) {
      c.games = 100;
      c.sigma = 1.5;
    }
    active[9].games = 0;
    active[9].sigma = 25.0 / 3.0;
    auto round = matchmaker.Next(active, 0);
    ASSERT_TRUE(round.ok());
    if (std::count(round->group.begin(), round->group.end(), 10) > 0) {
      ++newcomer_played;
    }
  }
  // Uniform choice would seat it in 20% of rounds.
  EXPECT_GT(newcomer_played, kTrials * 8 / 10);
}

TEST(MatchmakerTest, UrgentEntrantsComeFirst) {
  MatchmakingOptions options;
  options.seats = 3;
  Matchmaker matchmaker(options, 5);
  std::vector<Candidate> active = Population(9);
  active[4].rounds_waited = 3;  // urgent from ceil(9 / 3) = 3
  active[7].rounds_waited = 8;
  EXPECT_EQ(Matchmaker::UrgentAfter(9, 3), 3);
  auto round = matchmaker.Next(active, 0);
  ASSERT_TRUE(round.ok());
  EXPECT_EQ(round->group[0], 8);
  EXPECT_EQ(round->group[1], 5);
}

TEST(MatchmakerTest, TheSameSeedGivesTheSameRounds) {
  MatchmakingOptions options;
  options.seats = 3;
  auto run = [&](uint64_t seed) {
    Matchmaker matchmaker(options, seed);
    std::vector<Candidate> active = Population(8, 2.0);
    std::vector<std::vector<int64_t>> seatings;
    for (int r = 0; r < 200; ++r) {
      auto round = matchmaker.Next(active, r);
      EXPECT_TRUE(round.ok());
      seatings.push_back(round->seatings[0]);
      ApplyRound(*round, &active);
    }
    return seatings;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
  // The input order of the candidates does not matter.
  Matchmaker forward(options, 9), backward(options, 9);
  std::vector<Candidate> active = Population(8, 2.0);
  std::vector<Candidate> reversed(active.rbegin(), active.rend());
  EXPECT_EQ(forward.Next(active, 0)->seatings,
            backward.Next(reversed, 0)->seatings);
}

TEST(MatchmakerTest, BadInputsAreRefused) {
  MatchmakingOptions options;
  options.seats = 4;
  Matchmaker matchmaker(options, 1);
  EXPECT_EQ(matchmaker.Next(Population(3)).status().code(),
            absl::StatusCode::kFailedPrecondition);
  std::vector<Candidate> twice = Population(4);
  twice[1].id = 1;
  EXPECT_EQ(matchmaker.Next(twice).status().code(),
            absl::StatusCode::kInvalidArgument);
  std::vector<Candidate> counts = Population(4);
  counts[0].seat_counts = {1, 2};
  EXPECT_EQ(matchmaker.Next(counts).status().code(),
            absl::StatusCode::kInvalidArgument);
  options.seats = 6;
  Matchmaker six(options, 1);
  EXPECT_EQ(six.Next(Population(8)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Each entrant's count per seat over `seatings`.
std::map<int64_t, std::vector<int>> SeatCounts(
    const std::vector<std::vector<int64_t>>& seatings) {
  std::map<int64_t, std::vector<int>> counts;
  for (const auto& seating : seatings) {
    for (size_t s = 0; s < seating.size(); ++s) {
      counts[seating[s]].resize(seating.size(), 0);
      ++counts[seating[s]][s];
    }
  }
  return counts;
}

TEST(DuplicateSeatingsTest, UpToFourSeatsEveryPermutation) {
  EXPECT_EQ(DuplicateSeatings({7, 3}, 0),
            (std::vector<std::vector<int64_t>>{{3, 7}, {7, 3}}));
  for (int seats = 2; seats <= 4; ++seats) {
    std::vector<int64_t> group(seats);
    for (int i = 0; i < seats; ++i) group[i] = 10 * (int64_t{i} + 1);
    const auto seatings = DuplicateSeatings(group, 0);
    const int factorial = seats == 2 ? 2 : seats == 3 ? 6 : 24;
    ASSERT_EQ(seatings.size(), static_cast<size_t>(factorial));
    EXPECT_EQ(std::set<std::vector<int64_t>>(seatings.begin(), seatings.end())
                  .size(),
              seatings.size());
    for (const auto& [id, counts] : SeatCounts(seatings)) {
      for (int count : counts) EXPECT_EQ(count, factorial / seats) << id;
    }
  }
  // A multiset (a version playing itself in validation): distinct seatings.
  EXPECT_EQ(DuplicateSeatings({1, 1, 2}, 0).size(), 3u);
  // Kraken: 4 seats give every partnership (seats 0 + 2) 8 times.
  std::map<std::set<int64_t>, int> partners;
  for (const auto& s : DuplicateSeatings({1, 2, 3, 4}, 0)) {
    ++partners[{s[0], s[2]}];
  }
  EXPECT_EQ(partners.size(), 6u);  // each pair, on either side
  for (const auto& [pair, count] : partners) EXPECT_EQ(count, 4);
}

TEST(DuplicateSeatingsTest, FiveSeatsALatinSquareBalancedOverFourRounds) {
  const std::vector<int64_t> group = {1, 2, 3, 4, 5};
  std::map<std::pair<int64_t, int64_t>, int> follows;
  for (int64_t round = 0; round < 4; ++round) {
    const auto seatings = DuplicateSeatings(group, round);
    ASSERT_EQ(seatings.size(), 5u);
    for (const auto& [id, counts] : SeatCounts(seatings)) {
      EXPECT_THAT(counts, ::testing::Each(1)) << id;
    }
    // Who sits right after whom (seat 4 is followed by seat 0).
    for (int s = 0; s < 5; ++s) {
      ++follows[{seatings[0][s], seatings[0][(s + 1) % 5]}];
    }
  }
  EXPECT_EQ(follows.size(), 20u);  // every ordered pair...
  for (const auto& [pair, count] : follows) EXPECT_EQ(count, 1);  // ...once
}

TEST(MatchmakerTest, DuplicateRoundsCarryEverySeating) {
  MatchmakingOptions options;
  options.seats = 3;
  options.duplicate = true;
  Matchmaker matchmaker(options, 8);
  std::vector<Candidate> active = Population(5);
  auto round = matchmaker.Next(active, 0);
  ASSERT_TRUE(round.ok());
  EXPECT_EQ(round->seatings.size(), 6u);
  ApplyRound(*round, &active);
  for (const Candidate& c : active) {
    const bool played = std::count(round->group.begin(), round->group.end(),
                                   c.id) > 0;
    EXPECT_EQ(c.games, played ? 6 : 0);
    EXPECT_EQ(c.rounds_waited, played ? 0 : 1);
  }
}

}  // namespace
}  // namespace cardref::ladder
