// Test support: duplicate events simulated at the level of results (no
// game is played), with known strengths, for the coverage tests
// (coverage_test.cc, docs/analyzer.md "Inference").
//
// Model. Players have strengths beta_i (natural log scale). A deal set
// draws one hand quality h_s ~ N(0, hand_sd^2) per seat, shared by every
// seating of the deal set (the seat's cards are the same whoever holds
// them). In a seating, the utility of seat s is beta(player at s) + h_s;
// the finishing order is drawn Plackett-Luce from the utilities (Gumbel
// keys). Team game: 4 seats, seats 0+2 against 1+3; the side whose summed
// utility is u wins with probability sigmoid(u - u_other). Seatings per
// deal set as the tournament's duplicate schedule (tournament/
// schedule.h): every permutation for 3 and 4 players, the 4 rotations for
// the team game. With duplicate = false every seating gets fresh hands
// (independent deals, the same schedule).
//
// Everything is drawn from the project's Rng: reproducible everywhere.
#ifndef CARDREF_ANALYZER_INFERENCE_TESTING_DUPLICATE_SIMULATOR_H_
#define CARDREF_ANALYZER_INFERENCE_TESTING_DUPLICATE_SIMULATOR_H_

#include <vector>

#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/paired.h"
#include "referee/base/rng.h"

namespace cardref::inference::testing {

enum class SimGame { kThreePlayers, kFourPlayers, kTwoTeams };

struct SimConfig {
  SimGame game = SimGame::kFourPlayers;
  std::vector<double> strengths;  // one per player = per seat
  double hand_sd = 1.0;
  int deal_sets = 20;
  bool duplicate = true;
  // A seat advantage added to the utility of seat s (empty: none), for the
  // seat-effect tests; the truths below assume none.
  std::vector<double> seat_bonus;
};

int Seats(SimGame game);

// Uniform in (0, 1) and standard normal (Box-Muller), from `rng`.
double Uniform01(Rng& rng);
double Gaussian(Rng& rng);

// One event: config.deal_sets units of matches.
std::vector<UnitResults> SimulateEvent(const SimConfig& config, Rng& rng);

// The comparisons of one unit, as the ratings make them: every pair of
// seats (full rank breaking), or the two sides of the team game.
std::vector<Comparison> UnitComparisons(const UnitResults& unit);

// E[sigmoid(mean + sd Z)], Z standard normal (numerical integration to
// about 1e-12).
double LogisticNormalMean(double mean, double sd);

// The truth of the paired statistic: A's expected outcome against B over a
// deal set (a and b opponents; in the team game a's partner is a + 2).
double TrueDealSetScore(const SimConfig& config, int a, int b);

// The large-sample limit of the Bradley-Terry fit of UnitComparisons:
// the fit on the exact probabilities pi_ij that i finishes ahead of j (for
// the team game, that a side wins), each pair weighted as often as the
// schedule compares it. In the team game only the sides' difference
// (theta_0 + theta_2 - theta_1 - theta_3) is determined.
std::vector<double> BradleyTerryLimit(const SimConfig& config);

}  // namespace cardref::inference::testing

#endif  // CARDREF_ANALYZER_INFERENCE_TESTING_DUPLICATE_SIMULATOR_H_
