// The ladder's core end to end without games: entrants of known strengths,
// results drawn from a Plackett-Luce model of those strengths, matchmaking
// feeding on the online ratings it produces. The ratings must find the
// known order, and no interval may exclude it.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/rating/plackett_luce.h"
#include "ladder/rating/refit_check.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

struct Simulation {
  int seats = 3;
  bool partnerships = false;  // 4 seats: seats s and s + 2 are partners
  bool duplicate = false;
  double tau = 25.0 / 300.0;
  int rounds = 1500;
  uint64_t seed = 1;
};

using testing::kTheta;

std::vector<Skill> Simulate(const Simulation& sim) {
  MatchmakingOptions options;
  options.seats = sim.seats;
  options.duplicate = sim.duplicate;
  Matchmaker matchmaker(options, sim.seed);
  Rng results(sim.seed ^ 0x5eed);
  PlackettLuceParams params;
  params.tau = sim.tau;
  std::vector<Skill> skill(kTheta.size());
  std::vector<Candidate> active;
  for (size_t i = 0; i < kTheta.size(); ++i) {
    Candidate c;
    c.id = static_cast<int64_t>(i) + 1;
    active.push_back(c);
  }
  for (int r = 0; r < sim.rounds; ++r) {
    auto round = matchmaker.Next(active, r);
    EXPECT_TRUE(round.ok()) << round.status();
    if (!round.ok()) return skill;
    for (const std::vector<int64_t>& seating : round->seatings) {
      // Teams: one per seat, or the two partnerships.
      std::vector<std::vector<size_t>> teams;
      if (sim.partnerships) {
        teams = {{static_cast<size_t>(seating[0] - 1),
                  static_cast<size_t>(seating[2] - 1)},
                 {static_cast<size_t>(seating[1] - 1),
                  static_cast<size_t>(seating[3] - 1)}};
      } else {
        for (int64_t id : seating) teams.push_back({static_cast<size_t>(id - 1)});
      }
      std::vector<double> team_theta;
      std::vector<std::vector<Skill>> team_skills;
      for (const auto& team : teams) {
        double theta = 0;
        std::vector<Skill> members;
        for (size_t i : team) {
          theta += kTheta[i];
          members.push_back(skill[i]);
        }
        team_theta.push_back(theta);
        team_skills.push_back(members);
      }
      const std::vector<int> ranks =
          testing::SamplePlackettLuceRanks(team_theta, results);
      auto updated = UpdatePlackettLuce(params, team_skills, ranks);
      EXPECT_TRUE(updated.ok());
      for (size_t t = 0; t < teams.size(); ++t) {
        for (size_t m = 0; m < teams[t].size(); ++m) {
          skill[teams[t][m]] = (*updated)[t][m];
        }
      }
    }
    ApplyRound(*round, &active);
    for (Candidate& c : active) {
      c.mu = skill[c.id - 1].mu;
      c.sigma = skill[c.id - 1].sigma;
    }
  }
  return skill;
}

// The known order, with the 95% online intervals.
void ExpectKnownOrder(const std::vector<Skill>& skill, const char* what) {
  std::vector<OnlineStanding> online;
  std::vector<BatchStanding> truth;
  for (size_t i = 0; i < skill.size(); ++i) {
    const std::string key = "e" + std::to_string(i + 1);
    online.push_back({key, skill[i].mu, skill[i].sigma});
    truth.push_back({key, kTheta[i], kTheta[i], kTheta[i]});  // known exactly
  }
  auto comparison = CompareWithBatch(online, truth, 1.96);
  ASSERT_TRUE(comparison.ok());
  // No pair the online model is sure of is in the wrong order: the
  // intervals cover the known order.
  EXPECT_TRUE(comparison->agree) << what << ": " << comparison->summary;
  // And the ratings find the order: at most one swap of neighbours.
  EXPECT_LE(comparison->swaps.size(), 1u) << what << ": "
                                          << comparison->summary;
  for (const OrderSwap& swap : comparison->swaps) {
    const int a = std::stoi(swap.ahead_online.substr(1));
    const int b = std::stoi(swap.ahead_batch.substr(1));
    EXPECT_EQ(std::abs(a - b), 1) << what << ": " << comparison->summary;
  }
  // Uncertainty came down from the prior.
  for (const Skill& s : skill) EXPECT_LT(s.sigma, 25.0 / 3.0 / 2) << what;
}

TEST(ConvergenceTest, FreeForAllOfThreeFindsTheKnownOrder) {
  Simulation sim;
  ExpectKnownOrder(Simulate(sim), "3 seats");
}

TEST(ConvergenceTest, FrozenLadderOfFiveFindsTheKnownOrder) {
  Simulation sim;
  sim.seats = 5;
  sim.tau = 0;
  sim.rounds = 800;
  sim.seed = 2;
  ExpectKnownOrder(Simulate(sim), "5 seats, tau 0");
}

TEST(ConvergenceTest, HeadToHeadFindsTheKnownOrder) {
  Simulation sim;
  sim.seats = 2;
  sim.rounds = 3000;
  sim.seed = 3;
  ExpectKnownOrder(Simulate(sim), "2 seats");
}

TEST(ConvergenceTest, PartnershipsWithDuplicateDealsFindTheKnownOrder) {
  Simulation sim;
  sim.seats = 4;
  sim.partnerships = true;
  sim.duplicate = true;  // 24 seatings a round: partners rotate
  sim.rounds = 150;
  sim.seed = 4;
  ExpectKnownOrder(Simulate(sim), "partnerships");
}

}  // namespace
}  // namespace cardref::ladder
