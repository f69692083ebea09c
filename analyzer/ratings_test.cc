// Ratings and the SPRT: a Bradley-Terry fit known in closed form and
// against an independent fit (Hunter's MM algorithm), comparisons of each
// game, a synthetic population with known strengths recovered within the
// bootstrap intervals at about the stated rate, and the SPRT's error rates
// on simulated paired results.
#include "analyzer/ratings.h"

#include "analyzer/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"

namespace cardref::analyzer {
namespace {

double Uniform01(Rng& rng) {
  return (static_cast<double>(rng.Next() >> 11) + 0.5) / 9007199254740992.0;
}

TEST(BradleyTerryTest, TwoPlayersThreeWinsToOne) {
  // The MLE of theta_a - theta_b is ln(3): 400 log10(3) = 190.85 points.
  const std::vector<Comparison> games = {{{0}, {1}, 1, 3}, {{0}, {1}, 0, 1}};
  const std::vector<double> theta = FitBradleyTerry(2, games);
  EXPECT_NEAR(theta[0] - theta[1], std::log(3.0), 1e-3);
  EXPECT_NEAR(ToRating(theta[0]), 1500 + 200 * std::log10(3.0), 0.05);
  EXPECT_NEAR(ToRating(theta[1]), 1500 - 200 * std::log10(3.0), 0.05);
  EXPECT_NEAR(ExpectedScore(ToRating(theta[0]) - ToRating(theta[1])), 0.75,
              1e-4);
}

// Hunter (2004): p_i <- W_i / sum_j n_ij / (p_i + p_j), an independent
// algorithm for the same maximum.
std::vector<double> MinorizeMaximize(
    int n, const std::vector<std::vector<double>>& wins) {
  std::vector<double> p(n, 1.0);
  for (int it = 0; it < 20000; ++it) {
    std::vector<double> next(n);
    for (int i = 0; i < n; ++i) {
      double w = 0, d = 0;
      for (int j = 0; j < n; ++j) {
        if (i == j) continue;
        w += wins[i][j];
        d += (wins[i][j] + wins[j][i]) / (p[i] + p[j]);
      }
      next[i] = w / d;
    }
    double g = 0;
    for (double x : next) g += std::log(x);
    for (double& x : next) x /= std::exp(g / n);
    p = next;
  }
  std::vector<double> theta;
  theta.reserve(p.size());
  for (double x : p) theta.push_back(std::log(x));
  return theta;
}

TEST(BradleyTerryTest, AgreesWithMinorizeMaximizeIncludingTies) {
  // wins[i][j]: i ahead of j; a level counts half to each.
  std::vector<std::vector<double>> wins = {
      {0, 5, 3, 6}, {2, 0, 4, 3}, {2, 3, 0, 5}, {1, 2, 2, 0}};
  wins[0][1] += 0.5;  // one level game between 0 and 1
  wins[1][0] += 0.5;
  std::vector<Comparison> comparisons;
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 4; ++j) {
      const double whole_i = std::floor(wins[i][j]);
      const double whole_j = std::floor(wins[j][i]);
      comparisons.push_back({{i}, {j}, 1, whole_i});
      comparisons.push_back({{i}, {j}, 0, whole_j});
      if (wins[i][j] != whole_i) comparisons.push_back({{i}, {j}, 0.5, 1});
    }
  }
  const std::vector<double> fit = FitBradleyTerry(4, comparisons);
  const std::vector<double> mm = MinorizeMaximize(4, wins);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(fit[i], mm[i], 1e-3) << i;
}

TEST(BradleyTerryTest, TeamStrengthIsTheSumOfItsPlayers) {
  // Team {0, 2} beats {1, 3} three times in four; the split within a team
  // is fixed by the other pairing (0+1 vs 2+3, even).
  const std::vector<Comparison> games = {
      {{0, 2}, {1, 3}, 1, 3}, {{0, 2}, {1, 3}, 0, 1}, {{0, 1}, {2, 3}, 1, 2},
      {{0, 1}, {2, 3}, 0, 2}, {{0, 3}, {1, 2}, 1, 2}, {{0, 3}, {1, 2}, 0, 2}};
  const std::vector<double> t = FitBradleyTerry(4, games);
  const double team = t[0] + t[2] - t[1] - t[3];
  const double p = 1 / (1 + std::exp(-team));
  EXPECT_GT(p, 0.6);
  EXPECT_LT(p, 0.75);
  EXPECT_NEAR(t[0] + t[1], t[2] + t[3], 1e-6);
  EXPECT_NEAR(t[0] + t[3], t[1] + t[2], 1e-6);
}

v1::GameSummary Summary(const std::string& game, const std::string& file,
                        const std::vector<std::pair<std::string, int>>& ranks,
                        int winner_team = -1) {
  v1::GameSummary s;
  s.mutable_audit()->set_file(file);
  s.mutable_audit()->set_verdict("OK");
  s.set_game(game);
  s.set_winner_team(winner_team);
  int seat = 0;
  for (const auto& [name, rank] : ranks) {
    v1::SeatSummary* x = s.add_seats();
    x->set_seat(seat++);
    x->set_player_name(name);
    x->set_rank(rank);
    x->set_score(rank);
    x->set_winner(rank == 1);
  }
  return s;
}

TEST(GameComparisonsTest, SharedRanksHalfKrassKariertLosersNone) {
  const std::vector<std::string> players = {"a", "b", "c"};
  const std::vector<Comparison> craits = GameComparisons(
      Summary("craits", "f", {{"a", 1}, {"b", 2}, {"c", 2}}), players);
  ASSERT_EQ(craits.size(), 3u);
  EXPECT_EQ(craits[0].score, 1);    // a ahead of b
  EXPECT_EQ(craits[1].score, 1);    // a ahead of c
  EXPECT_EQ(craits[2].score, 0.5);  // b level with c
  const std::vector<Comparison> kk = GameComparisons(
      Summary("krass_kariert", "f", {{"a", 1}, {"b", 2}, {"c", 2}}), players);
  EXPECT_EQ(kk.size(), 2u);  // b and c, both losers, are no comparison
  const std::vector<Comparison> kraken = GameComparisons(
      Summary("kraken", "f", {{"a", 2}, {"b", 1}, {"c", 2}, {"a", 1}}, 1),
      players);
  ASSERT_EQ(kraken.size(), 1u);
  EXPECT_EQ(kraken[0].a, (std::vector<int>{0, 2}));
  EXPECT_EQ(kraken[0].b, (std::vector<int>{1, 0}));
  EXPECT_EQ(kraken[0].score, 0);
}

// Six players of known strength play 4-player games; each finishing order
// is drawn from Plackett-Luce (Gumbel-perturbed strengths).
std::vector<v1::GameSummary> Population(const std::vector<double>& ratings,
                                        int games, uint64_t seed) {
  Rng rng(seed);
  std::vector<v1::GameSummary> out;
  const int n = static_cast<int>(ratings.size());
  for (int g = 0; g < games; ++g) {
    std::vector<int> who(n);
    for (int i = 0; i < n; ++i) who[i] = i;
    rng.Shuffle(absl::MakeSpan(who));
    who.resize(4);
    std::vector<std::pair<double, int>> perf;
    perf.reserve(who.size());
    for (int p : who) {
      const double theta = (ratings[p] - 1500) / (400 / std::log(10.0));
      perf.emplace_back(theta - std::log(-std::log(Uniform01(rng))), p);
    }
    std::sort(perf.rbegin(), perf.rend());
    std::vector<std::pair<std::string, int>> ranks;
    ranks.reserve(4);
    for (int place = 0; place < 4; ++place) {
      ranks.emplace_back(absl::StrCat("p", perf[place].second), place + 1);
    }
    out.push_back(Summary("craits", absl::StrCat("g", 100000 + g), ranks));
  }
  SortSummaries(&out);
  return out;
}

TEST(RatingsReportTest, KnownStrengthsAreRecoveredWithinTheIntervals) {
  const std::vector<double> truth = {1200, 1350, 1450, 1550, 1650, 1800};
  int covered = 0, total = 0;
  // 30 populations of 300 games; the reports' own default resampling.
  for (uint64_t replicate = 1; replicate <= 30; ++replicate) {
    RatingOptions options;
    options.bootstrap = 200;
    options.seed = replicate;
    const v1::RatingsReportProto report =
        BuildRatingsReport(Population(truth, 300, 77 * replicate), options);
    ASSERT_EQ(report.games_size(), 1);
    const v1::GameRatings& g = report.games(0);
    ASSERT_EQ(g.players_size(), 6);
    EXPECT_EQ(g.resampled_by(), "match");
    for (int i = 0; i < 6; ++i) {
      const v1::PlayerRating& p = g.players(i);
      EXPECT_EQ(p.player(), absl::StrCat("p", i));
      EXPECT_LE(p.ci_low(), p.rating());
      EXPECT_GE(p.ci_high(), p.rating());
      EXPECT_NEAR(p.rating(), truth[i], 120) << p.player();
      ++total;
      if (p.ci_low() <= truth[i] && truth[i] <= p.ci_high()) ++covered;
    }
  }
  // 95% intervals: about 171 of 180. Below 90% they are too narrow; above
  // 99% too wide. (The coverage of the cluster bootstrap on duplicate
  // events is inference_coverage_test's.)
  EXPECT_GE(covered, total * 90 / 100) << covered << " of " << total;
  EXPECT_LE(covered, total * 99 / 100) << covered << " of " << total;
  RecordProperty("covered", covered);
}

TEST(RatingsReportTest, KrakenTeamsAreTheSumOfTheirPartners) {
  // a+c beat b+d in 3 of 4; a+b and c+d play even, as do a+d and b+c.
  std::vector<v1::GameSummary> games;
  int file = 0;
  auto play = [&](const char* s0, const char* s1, const char* s2,
                  const char* s3, int winner_team) {
    const int r0 = winner_team == 0 ? 1 : 2, r1 = winner_team == 1 ? 1 : 2;
    games.push_back(Summary("kraken", absl::StrCat("k", file++),
                            {{s0, r0}, {s1, r1}, {s2, r0}, {s3, r1}},
                            winner_team));
  };
  for (int i = 0; i < 3; ++i) play("a", "b", "c", "d", 0);
  play("a", "b", "c", "d", 1);
  for (int w : {0, 1}) play("a", "c", "b", "d", w);
  for (int w : {0, 1}) play("a", "b", "d", "c", w);
  SortSummaries(&games);
  RatingOptions options;
  options.bootstrap = 50;
  const v1::RatingsReportProto report = BuildRatingsReport(games, options);
  ASSERT_EQ(report.games_size(), 1);
  const v1::GameRatings& g = report.games(0);
  ASSERT_EQ(g.players_size(), 4);
  std::map<std::string, const v1::PlayerRating*> teams;
  for (const v1::PlayerRating& t : g.teams()) teams[t.player()] = &t;
  ASSERT_EQ(teams.size(), 6u);
  const v1::PlayerRating& ac = *teams.at("a+c");
  const v1::PlayerRating& bd = *teams.at("b+d");
  EXPECT_EQ(ac.games(), 4);
  // A team's rating is the sum of its players' offsets from 1500.
  EXPECT_NEAR(ac.rating() - 1500,
              (g.players(0).rating() - 1500) + (g.players(2).rating() - 1500),
              1e-9);
  EXPECT_GT(ac.rating(), bd.rating());
  EXPECT_NEAR(ac.rating() - 1500, 1500 - bd.rating(), 1e-6);
  EXPECT_LE(ac.ci_low(), ac.rating());
  EXPECT_GE(ac.ci_high(), ac.rating());
}

// A partner that never lost has no finite rating, so neither has its team:
// no point where there is no information.
TEST(RatingsReportTest, ATeamWithAnUndefeatedPartnerHasNoPointRating) {
  std::vector<v1::GameSummary> games;
  games.reserve(8);
  for (int i = 0; i < 8; ++i) {
    games.push_back(Summary("kraken", absl::StrCat("k", i),
                            {{"h", 1}, {"r", 2}, {"h", 1}, {"r", 2}}, 0));
  }
  SortSummaries(&games);
  RatingOptions options;
  options.bootstrap = 50;
  const v1::RatingsReportProto report = BuildRatingsReport(games, options);
  ASSERT_EQ(report.games_size(), 1);
  const v1::GameRatings& g = report.games(0);
  ASSERT_EQ(g.teams_size(), 2);
  for (const v1::PlayerRating& t : g.teams()) {
    EXPECT_FALSE(t.has_rating()) << t.DebugString();
    EXPECT_FALSE(t.has_ci_low() || t.has_ci_high()) << t.DebugString();
    EXPECT_EQ(t.separation(), t.player() == "h+h" ? "undefeated" : "winless");
  }
  const std::string text = RenderRatings(report, Format::kText);
  EXPECT_NE(text.find("h+h: a partner is undefeated"), std::string::npos)
      << text;
}

TEST(RatingsReportTest, ReproducibleAndResampledByDealSet) {
  std::vector<v1::GameSummary> games =
      Population({1400, 1500, 1600, 1700, 1550}, 60, 5);
  for (size_t i = 0; i < games.size(); ++i) {
    games[i].set_deal_set_id(absl::StrCat("d", i / 3));
  }
  const v1::RatingsReportProto a = BuildRatingsReport(games, {});
  const v1::RatingsReportProto b = BuildRatingsReport(games, {});
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
  EXPECT_EQ(a.games(0).resampled_by(), "deal_set");
  double mean = 0;
  for (const v1::PlayerRating& p : a.games(0).players()) mean += p.rating();
  EXPECT_NEAR(mean / a.games(0).players_size(), 1500, 1e-6);  // the anchor
}

// The shards of one event name their logs differently from a single run
// (deploy/slurm/cardref_task.sh): with deal sets, the report must not depend
// on the file names.
TEST(RatingsReportTest, DealSetReportDoesNotDependOnFileNames) {
  std::vector<v1::GameSummary> games =
      Population({1400, 1500, 1600, 1700, 1550}, 60, 9);
  for (size_t i = 0; i < games.size(); ++i) {
    games[i].set_deal_set_id(absl::StrCat("d", 10 + i / 3));
  }
  std::vector<v1::GameSummary> renamed = games;
  for (size_t i = 0; i < renamed.size(); ++i) {
    // Reversed, and the deal sets' matches interleaved, as shards do.
    renamed[i].mutable_audit()->set_file(
        absl::StrCat("shards/", i % 3, "/logs/", 1000 - i, ".cardlog"));
  }
  SortSummaries(&renamed);
  ASSERT_NE(renamed.front().audit().file(), games.front().audit().file());
  const v1::RatingsReportProto a = BuildRatingsReport(games, {});
  const v1::RatingsReportProto b = BuildRatingsReport(renamed, {});
  EXPECT_EQ(a.SerializeAsString(), b.SerializeAsString());
  EXPECT_GT(a.games(0).players(0).ci_high(), a.games(0).players(0).ci_low());
}

// Sequential test on simulated paired units (two games per deal set, seats
// swapped): the fraction of runs that accept H1.
double AcceptH1Rate(double true_difference, double elo1, int runs,
                    uint64_t seed) {
  Rng rng(seed);
  const double p = ExpectedScore(true_difference);
  int accepted = 0;
  for (int run = 0; run < runs; ++run) {
    std::vector<double> units;
    std::string verdict = "continue";
    while (verdict == "continue" && units.size() < 20000) {
      for (int k = 0; k < 10; ++k) {
        const double g1 = Uniform01(rng) < p ? 1 : 0;
        const double g2 = Uniform01(rng) < p ? 1 : 0;
        units.push_back((g1 + g2) / 2);
      }
      verdict = Sprt(units, 0, elo1, 0.05, 0.05).verdict;
    }
    if (verdict == "H1 accepted") ++accepted;
  }
  return static_cast<double>(accepted) / runs;
}

TEST(SprtTest, BoundsAndVerdicts) {
  const SprtResult r = Sprt({1, 1, 0.5, 1, 0}, 0, 10, 0.05, 0.05);
  EXPECT_NEAR(r.lower, std::log(0.05 / 0.95), 1e-12);
  EXPECT_NEAR(r.upper, std::log(0.95 / 0.05), 1e-12);
  EXPECT_GT(r.llr, 0);
  // Fewer units than the minimum: no verdict either way.
  EXPECT_EQ(Sprt({}, 0, 10, 0.05, 0.05).verdict,
            "cannot decide: fewer than 5 deal sets (0)");
  EXPECT_EQ(Sprt({1, 1, 1}, 0, 10, 0.05, 0.05, inference::UnitKind::kMatch)
                .verdict,
            "cannot decide: fewer than 5 matches (3)");
}

TEST(SprtTest, ReachesTheRightVerdictAtAboutTheStatedErrorRates) {
  // alpha = beta = 0.05: H1 true is accepted about 95% of the time, H0
  // true rejected (H1 accepted) about 5%.
  const double power = AcceptH1Rate(40, 40, 200, 11);
  const double false_positive = AcceptH1Rate(0, 40, 200, 12);
  RecordProperty("power_percent", static_cast<int>(100 * power));
  RecordProperty("false_positive_percent",
                 static_cast<int>(100 * false_positive));
  EXPECT_GE(power, 0.88);
  EXPECT_LE(false_positive, 0.10);
  EXPECT_GE(AcceptH1Rate(80, 40, 100, 13), 0.98);  // well above: nearly always
}

TEST(CompareReportTest, PairedScoreDifferencePerDealSet) {
  // Deal set d1: A scores 10 and 20, B 14 and 12 (diff 15 - 13 = 2); d2: A
  // 5 and 7, B 9 and 9 (diff -3). Mean -0.5.
  auto game = [](const std::string& file, const std::string& deals, int64_t a,
                 int64_t b) {
    v1::GameSummary s =
        Summary("craits", file, {{"A", a < b ? 1 : 2}, {"B", a < b ? 2 : 1}});
    s.set_deal_set_id(deals);
    s.mutable_seats(0)->set_score(a);
    s.mutable_seats(1)->set_score(b);
    return s;
  };
  std::vector<v1::GameSummary> games = {
      game("f1", "d1", 10, 14), game("f2", "d1", 20, 12),
      game("f3", "d2", 5, 9), game("f4", "d2", 7, 9)};
  CompareOptions options;
  options.player_a = "A";
  options.player_b = "B";
  options.elo1 = 20;
  absl::StatusOr<v1::CompareReportProto> r = BuildCompareReport(games, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->paired_by(), "deal_set");
  EXPECT_EQ(r->units(), 2);
  EXPECT_NEAR(r->score_difference(), -0.5, 1e-12);
  // Two deal sets: too few for an interval (a normal 1.96 on 2 units would
  // be far too narrow), and the SPRT cannot decide.
  EXPECT_FALSE(r->score_difference_ci().has_low());
  EXPECT_FALSE(r->score_difference_ci().has_high());
  EXPECT_EQ(r->score_difference_ci().note(), "fewer than 5 deal sets (2)");
  EXPECT_EQ(r->a_ahead(), 3);  // lower rank: f1, f3, f4
  EXPECT_EQ(r->b_ahead(), 1);
  EXPECT_EQ(r->elo1(), 20);
  EXPECT_EQ(r->verdict(), "cannot decide: fewer than 5 deal sets (2)");
  // Six deal sets: the t interval, t(0.975, 5 df) = 2.5706 sd / sqrt(6).
  const std::vector<std::pair<int64_t, int64_t>> more = {
      {10, 14}, {20, 12}, {5, 9}, {7, 9}, {30, 20}, {8, 16},
      {12, 11}, {9, 15},  {4, 6}, {6, 3}, {11, 13}, {10, 10}};
  std::vector<v1::GameSummary> six;
  std::vector<double> diffs;
  for (size_t i = 0; i < more.size(); i += 2) {
    const std::string deals = absl::StrCat("d", i / 2);
    six.push_back(game(absl::StrCat("g", i), deals, more[i].first,
                       more[i].second));
    six.push_back(game(absl::StrCat("g", i + 1), deals, more[i + 1].first,
                       more[i + 1].second));
    diffs.push_back((more[i].first + more[i + 1].first) / 2.0 -
                    (more[i].second + more[i + 1].second) / 2.0);
  }
  SortSummaries(&six);
  r = BuildCompareReport(six, options);
  ASSERT_TRUE(r.ok()) << r.status();
  double mean = 0, ss = 0;
  for (double d : diffs) mean += d / diffs.size();
  for (double d : diffs) ss += (d - mean) * (d - mean);
  const double half = 2.570582 * std::sqrt(ss / 5) / std::sqrt(6.0);
  EXPECT_NEAR(r->score_difference(), mean, 1e-12);
  ASSERT_TRUE(r->score_difference_ci().has_low());
  EXPECT_NEAR(r->score_difference_ci().low(), mean - half, 1e-4);
  EXPECT_NEAR(r->score_difference_ci().high(), mean + half, 1e-4);
  EXPECT_EQ(r->score_difference_ci().units(), 6);
  options.player_b = "nobody";
  EXPECT_FALSE(BuildCompareReport(games, options).ok());
}

}  // namespace
}  // namespace cardref::analyzer
