#include "ladder/rating/plackett_luce.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "ladder/testing/simulate.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

using Teams = std::vector<std::vector<Skill>>;
constexpr double kDefaultSigma = 25.0 / 3.0;

struct Case {
  const char* name;
  Teams teams;
  std::vector<int> ranks;
  double tau;
  std::vector<Skill> expected;  // every player, team by team
};

// Expected values: Weng & Lin (2011) Algorithm 4 with OpenSkill's
// defaults (beta 25/6, kappa 1e-4, gamma = sigma_team / c), computed by
// plackett_luce_reference.py, written from the formulas in plackett_luce.h,
// and
// checked against the openskill.js 5.0.1 package's `rate` (largest
// difference 3.6e-15). The first case is OpenSkill's documented example: a
// win between two new players moves them to 27.635 and 22.365, sigma
// 8.066.
std::vector<Case> PublishedCases() {
  const double d = kDefaultSigma;
  return {
      {"two_players_default_tau",
       {{{25, d}}, {{25, d}}},
       {1, 2},
       25.0 / 300.0,
       {{27.635389493140, 8.065901413544}, {22.364610506860, 8.065901413544}}},
      {"two_players_no_tau",
       {{{25, d}}, {{25, d}}},
       {1, 2},
       0,
       {{27.635231383474, 8.065506316324}, {22.364768616526, 8.065506316324}}},
      {"upset_no_tau",
       {{{20, 3}}, {{30, 2}}},
       {1, 2},
       0,
       {{21.054789196794, 2.981004692633}, {29.531204801425, 1.996256215443}}},
      {"four_free_for_all",
       {{{27, 5}}, {{22, 7}}, {{31, 3}}, {{25, d}}},
       {2, 1, 4, 3},
       0,
       {{27.720299233621, 4.961442591063},
        {24.686105858192, 6.945384574599},
        {30.186750462917, 2.991346598700},
        {25.467403015916, 7.873128254003}}},
      {"three_with_tie",
       {{{25, d}}, {{28, 4}}, {{20, 6}}},
       {1, 1, 2},
       0,
       {{25.842708297091, 8.093113040866},
        {28.088495714405, 3.986274725162},
        {19.364024661376, 5.949167118214}}},
      {"two_teams",
       {{{26, 4}, {24, 6}}, {{30, 3}, {18, 8}}},
       {1, 2},
       25.0 / 300.0,
       {{26.583229230280, 3.972350831873},
        {25.311949483297, 5.903932744410},
        {29.671822858276, 2.986913125062},
        {15.667842162478, 7.726545025857}}},
      {"five_with_ties",
       {{{25, 6}}, {{27, 5}}, {{23, 7}}, {{30, 3}}, {{20, 8}}},
       {3, 1, 2, 3, 2},
       0,
       {{24.185613307802, 5.913116930675},
        {28.185469072003, 4.987841283221},
        {23.310710297565, 6.913791511061},
        {29.626483339106, 2.993926639304},
        {20.663290522269, 7.872101819879}}},
  };
}

TEST(PlackettLuceTest, MatchesTheReferenceImplementation) {
  for (const Case& c : PublishedCases()) {
    PlackettLuceParams params;
    params.tau = c.tau;
    auto after = UpdatePlackettLuce(params, c.teams, c.ranks);
    ASSERT_TRUE(after.ok()) << c.name << ": " << after.status();
    size_t k = 0;
    for (const auto& team : *after) {
      for (const Skill& player : team) {
        ASSERT_LT(k, c.expected.size()) << c.name;
        EXPECT_NEAR(player.mu, c.expected[k].mu, 1e-9) << c.name << " " << k;
        EXPECT_NEAR(player.sigma, c.expected[k].sigma, 1e-9)
            << c.name << " " << k;
        ++k;
      }
    }
    EXPECT_EQ(k, c.expected.size()) << c.name;
  }
}

TEST(PlackettLuceTest, TheOrderOfTheTeamsDoesNotMatter) {
  PlackettLuceParams params;
  const Teams teams = {{{27, 5}}, {{22, 7}}, {{31, 3}}, {{25, 8}}};
  const std::vector<int> ranks = {2, 1, 4, 3};
  auto forward = UpdatePlackettLuce(params, teams, ranks);
  auto backward = UpdatePlackettLuce(params, {teams[3], teams[2], teams[1],
                                              teams[0]},
                                     {ranks[3], ranks[2], ranks[1], ranks[0]});
  ASSERT_TRUE(forward.ok() && backward.ok());
  for (int t = 0; t < 4; ++t) {
    EXPECT_DOUBLE_EQ((*forward)[t][0].mu, (*backward)[3 - t][0].mu);
    EXPECT_DOUBLE_EQ((*forward)[t][0].sigma, (*backward)[3 - t][0].sigma);
  }
}

// Random two-player games: the winner's mu never goes down, the loser's
// never up, and with no drift neither sigma goes up.
TEST(PlackettLuceTest, TwoPlayerGamesMoveWinnersUpAndLosersDown) {
  Rng rng(20261206);
  PlackettLuceParams params;
  params.tau = 0;
  for (int trial = 0; trial < 5000; ++trial) {
    const Skill a{testing::UniformDouble(rng) * 60 - 10,
                  0.05 + testing::UniformDouble(rng) * 12};
    const Skill b{testing::UniformDouble(rng) * 60 - 10,
                  0.05 + testing::UniformDouble(rng) * 12};
    auto after = UpdatePlackettLuce(params, {{a}, {b}}, {1, 2});
    ASSERT_TRUE(after.ok());
    const Skill& winner = (*after)[0][0];
    const Skill& loser = (*after)[1][0];
    EXPECT_GE(winner.mu, a.mu) << trial;
    EXPECT_LE(loser.mu, b.mu) << trial;
    EXPECT_LE(winner.sigma, a.sigma) << trial;
    EXPECT_LE(loser.sigma, b.sigma) << trial;
    EXPECT_GT(winner.sigma, 0);
  }
}

// Random free-for-all games of 2-5 players with ties, and two-team games:
// without tau no sigma ever grows; with tau it may, by at most the drift.
TEST(PlackettLuceTest, SigmaNeverGrowsWithoutDrift) {
  Rng rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    const int k = 2 + static_cast<int>(rng.Uniform(4));
    const bool pairs = trial % 3 == 0;
    Teams teams(pairs ? 2 : k);
    std::vector<int> ranks;
    for (auto& team : teams) {
      for (int p = 0; p < (pairs ? 2 : 1); ++p) {
        team.push_back({testing::UniformDouble(rng) * 50,
                        0.1 + testing::UniformDouble(rng) * 10});
      }
      ranks.push_back(1 + static_cast<int>(rng.Uniform(3)));
    }
    for (double tau : {0.0, 25.0 / 300.0}) {
      PlackettLuceParams params;
      params.tau = tau;
      auto after = UpdatePlackettLuce(params, teams, ranks);
      ASSERT_TRUE(after.ok());
      for (size_t t = 0; t < teams.size(); ++t) {
        for (size_t p = 0; p < teams[t].size(); ++p) {
          const double before = teams[t][p].sigma;
          const double now = (*after)[t][p].sigma;
          EXPECT_LE(now, std::sqrt(before * before + tau * tau) + 1e-12);
          if (tau == 0) {
            EXPECT_LE(now, before) << trial;
          }
        }
      }
    }
  }
}

TEST(PlackettLuceTest, SymmetricInputsGiveSymmetricOutputs) {
  PlackettLuceParams params;
  // Three equal players, the last two tied: the tied pair moves alike.
  auto tie = UpdatePlackettLuce(params, {{{25, 5}}, {{25, 5}}, {{25, 5}}},
                                {1, 2, 2});
  ASSERT_TRUE(tie.ok());
  EXPECT_DOUBLE_EQ((*tie)[1][0].mu, (*tie)[2][0].mu);
  EXPECT_DOUBLE_EQ((*tie)[1][0].sigma, (*tie)[2][0].sigma);
  EXPECT_GT((*tie)[0][0].mu, 25);
  EXPECT_LT((*tie)[1][0].mu, 25);
  // A draw between equals moves neither mu.
  auto draw = UpdatePlackettLuce(params, {{{25, 5}}, {{25, 5}}}, {1, 1});
  ASSERT_TRUE(draw.ok());
  EXPECT_NEAR((*draw)[0][0].mu, 25, 1e-12);
  EXPECT_NEAR((*draw)[1][0].mu, 25, 1e-12);
  // Mirror: equal players, one wins; the changes are equal and opposite.
  auto win = UpdatePlackettLuce(params, {{{25, 5}}, {{25, 5}}}, {1, 2});
  ASSERT_TRUE(win.ok());
  EXPECT_NEAR((*win)[0][0].mu - 25, 25 - (*win)[1][0].mu, 1e-12);
  EXPECT_DOUBLE_EQ((*win)[0][0].sigma, (*win)[1][0].sigma);
}

TEST(PlackettLuceTest, PartnersShareTheTeamsChangeByTheirUncertainty) {
  PlackettLuceParams params;
  params.tau = 0;
  // A sure and an unsure partner win together: both go up, the unsure one
  // more, in the ratio of their variances.
  auto after = UpdatePlackettLuce(
      params, {{{25, 2}, {25, 6}}, {{25, 4}, {25, 4}}}, {1, 2});
  ASSERT_TRUE(after.ok());
  const double sure = (*after)[0][0].mu - 25;
  const double unsure = (*after)[0][1].mu - 25;
  EXPECT_GT(sure, 0);
  EXPECT_NEAR(unsure / sure, 36.0 / 4.0, 1e-9);
  // Identical partners on the losing side move alike.
  EXPECT_DOUBLE_EQ((*after)[1][0].mu, (*after)[1][1].mu);
  EXPECT_LT((*after)[1][0].mu, 25);
  // A team game where both sides are the same players' skills but swapped
  // partners mirrors exactly.
  auto mirror = UpdatePlackettLuce(
      params, {{{25, 4}, {25, 4}}, {{25, 2}, {25, 6}}}, {2, 1});
  ASSERT_TRUE(mirror.ok());
  EXPECT_DOUBLE_EQ((*mirror)[1][1].mu, (*after)[0][1].mu);
}

TEST(PlackettLuceTest, FarApartRatingsStayFinite) {
  PlackettLuceParams params;
  auto after =
      UpdatePlackettLuce(params, {{{5000, 1}}, {{-5000, 1}}}, {2, 1});
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(std::isfinite((*after)[0][0].mu));
  EXPECT_LT((*after)[0][0].mu, 5000);
  EXPECT_GT((*after)[1][0].mu, -5000);
}

TEST(PlackettLuceTest, BadInputsAreRefused) {
  PlackettLuceParams params;
  EXPECT_FALSE(UpdatePlackettLuce(params, {{{25, 5}}}, {1}).ok());
  EXPECT_FALSE(UpdatePlackettLuce(params, {{{25, 5}}, {}}, {1, 2}).ok());
  EXPECT_FALSE(UpdatePlackettLuce(params, {{{25, 5}}, {{25, 5}}}, {1}).ok());
  EXPECT_FALSE(UpdatePlackettLuce(params, {{{25, 0}}, {{25, 5}}}, {1, 2}).ok());
  params.beta = 0;
  EXPECT_FALSE(UpdatePlackettLuce(params, {{{25, 5}}, {{25, 5}}}, {1, 2}).ok());
}

TEST(PlackettLuceTest, ConservativeRatingIsMuLessThreeSigma) {
  EXPECT_DOUBLE_EQ(ConservativeRating({25, kDefaultSigma}), 0);
  EXPECT_DOUBLE_EQ(ConservativeRating({30, 2}), 24);
}

}  // namespace
}  // namespace cardref::ladder
