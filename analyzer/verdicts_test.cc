// The verdicts the reports print, on summaries written out by hand:
// compare and stats agree on every head-to-head count; a degenerate sample
// gets "cannot decide"; intervals below the minimum of independent units
// are null with a note; an undefeated player is a bound; the seat test is
// wired to the right outcome per game.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/compare.h"
#include "analyzer/ratings.h"
#include "analyzer/render.h"
#include "analyzer/report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace cardref::analyzer {
namespace {

using ::testing::HasSubstr;

// One seat: the player's name and its rank (1 first); winner when rank 1.
using Seats = std::vector<std::pair<std::string, int>>;

v1::GameSummary Game(const std::string& game, const std::string& file,
                     const Seats& seats, const std::string& deal_set = "") {
  v1::GameSummary s;
  s.mutable_audit()->set_file(file);
  s.mutable_audit()->set_verdict("OK");
  s.set_game(game);
  s.set_deal_set_id(deal_set);
  s.set_game_digest(absl::StrCat("digest of ", file));
  s.set_higher_score_is_better(true);
  int seat = 0;
  for (const auto& [name, rank] : seats) {
    v1::SeatSummary* x = s.add_seats();
    x->set_seat(seat++);
    x->set_player_name(name);
    x->set_rank(rank);
    x->set_score(10 - rank);
    x->set_winner(rank == 1);
  }
  return s;
}

std::vector<v1::GameSummary> Sorted(std::vector<v1::GameSummary> games) {
  SortSummaries(&games);
  return games;
}

// Games of three kinds of result: shared ranks and a player holding two
// seats (craits), winners and one loser (krass_kariert), and partners
// (kraken, including an old log with one bot on both teams).
std::vector<v1::GameSummary> MixedEvent() {
  return Sorted({
      Game("craits", "c1", {{"a", 1}, {"b", 2}, {"c", 2}}, "cd1"),
      Game("craits", "c2", {{"b", 1}, {"a", 3}, {"c", 2}}, "cd1"),
      Game("craits", "c3", {{"a", 2}, {"a", 1}, {"b", 3}}, "cd2"),
      Game("craits", "c4", {{"c", 1}, {"b", 1}, {"a", 3}}, "cd2"),
      Game("krass_kariert", "k1", {{"a", 1}, {"b", 1}, {"c", 2}}),
      Game("krass_kariert", "k2", {{"a", 2}, {"b", 1}, {"c", 1}}),
      Game("krass_kariert", "k3", {{"b", 1}, {"a", 1}, {"c", 2}}),
      Game("kraken", "r1", {{"a", 1}, {"b", 2}, {"c", 1}, {"d", 2}}),
      Game("kraken", "r2", {{"b", 1}, {"a", 2}, {"d", 1}, {"c", 2}}),
      Game("kraken", "r3", {{"a", 2}, {"b", 1}, {"c", 2}, {"a", 1}}),
  });
}

TEST(VerdictsTest, CompareAndStatsAgreeOnEveryHeadToHeadCount) {
  const std::vector<v1::GameSummary> games = MixedEvent();
  const v1::StatsReportProto stats = BuildStatsReport(games);
  int pairs = 0;
  for (const v1::GameStatsProto& g : stats.games()) {
    ASSERT_FALSE(g.head_to_head().empty()) << g.game();
    for (const v1::HeadToHead& h : g.head_to_head()) {
      SCOPED_TRACE(absl::StrCat(g.game(), ": ", h.player(), " vs ",
                                h.opponent()));
      CompareOptions options;
      options.player_a = h.player();
      options.player_b = h.opponent();
      options.game = g.game();
      absl::StatusOr<v1::CompareReportProto> c =
          BuildCompareReport(games, options);
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_EQ(c->a_ahead(), h.ahead());
      EXPECT_EQ(c->b_ahead(), h.behind());
      EXPECT_EQ(c->level(), h.level());
      ++pairs;
    }
  }
  EXPECT_GE(pairs, 14);
  // Krass Kariert's two winners are level, as stats counts them: a and b
  // were both winners in k1 and k3.
  CompareOptions options;
  options.player_a = "a";
  options.player_b = "b";
  options.game = "krass_kariert";
  absl::StatusOr<v1::CompareReportProto> kk =
      BuildCompareReport(games, options);
  ASSERT_TRUE(kk.ok());
  EXPECT_EQ(kk->level(), 2);
  EXPECT_EQ(kk->b_ahead(), 1);
  EXPECT_EQ(kk->a_ahead(), 0);
}

// A beats B in every match of `deal_sets` deal sets of two matches each.
std::vector<v1::GameSummary> OneSided(int deal_sets) {
  std::vector<v1::GameSummary> games;
  for (int d = 0; d < deal_sets; ++d) {
    const std::string set = absl::StrCat("d", d);
    games.push_back(
        Game("craits", absl::StrCat(set, "a"), {{"A", 1}, {"B", 2}}, set));
    games.push_back(
        Game("craits", absl::StrCat(set, "b"), {{"B", 2}, {"A", 1}}, set));
  }
  return Sorted(games);
}

TEST(VerdictsTest, SprtOnADegenerateSampleCannotDecide) {
  CompareOptions options;
  options.player_a = "A";
  options.player_b = "B";
  // Eight deal sets, A ahead in all: no variance, no verdict.
  absl::StatusOr<v1::CompareReportProto> r =
      BuildCompareReport(OneSided(8), options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->units(), 8);
  EXPECT_THAT(r->verdict(), ::testing::StartsWith("cannot decide: "));
  EXPECT_THAT(r->verdict(), HasSubstr("variance"));
  EXPECT_EQ(r->paired_score(), 1);
  EXPECT_FALSE(r->paired_score_ci().has_low());
  EXPECT_THAT(r->paired_score_ci().note(), HasSubstr("no variance"));
  EXPECT_FALSE(r->has_paired_elo());  // a score of 1 has no finite Elo
  // Three deal sets: too few.
  r = BuildCompareReport(OneSided(3), options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->verdict(), "cannot decide: fewer than 5 deal sets (3)");
  // Straight from the scores: a sample that never varies.
  EXPECT_EQ(Sprt({0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 0, 10, 0.05, 0.05).decision,
            inference::SprtDecision::kCannotDecide);
  const std::string text = RenderCompare(*r, Format::kText);
  EXPECT_THAT(text, HasSubstr("cannot decide: fewer than 5 deal sets (3)"));
  EXPECT_THAT(text, HasSubstr("95% interval \u2014 (fewer than 5 deal sets"));
}

TEST(VerdictsTest, IntervalsBelowTheMinimumAreNullWithANote) {
  const std::vector<v1::GameSummary> games = Sorted(
      {Game("craits", "m1", {{"A", 1}, {"B", 2}, {"C", 3}}),
       Game("craits", "m2", {{"B", 1}, {"C", 2}, {"A", 3}}),
       Game("craits", "m3", {{"C", 1}, {"A", 2}, {"B", 3}})});
  const nlohmann::json ratings = nlohmann::json::parse(
      RenderRatings(BuildRatingsReport(games, {}), Format::kJson));
  const nlohmann::json& a = ratings["games"][0]["players"][0];
  EXPECT_TRUE(a["ci_low"].is_null());
  EXPECT_TRUE(a["ci_high"].is_null());
  EXPECT_EQ(a["ci_note"], "fewer than 5 matches (3)");
  EXPECT_FALSE(a["rating"].is_null());
  const nlohmann::json stats = nlohmann::json::parse(
      RenderStats(BuildStatsReport(games), Format::kJson));
  const nlohmann::json& ci = stats["games"][0]["players"][0]["win_rate_ci"];
  EXPECT_TRUE(ci["low"].is_null());
  EXPECT_TRUE(ci["high"].is_null());
  EXPECT_EQ(ci["note"], "fewer than 5 matches (3)");
  // The text never prints a point for an interval.
  const std::string text =
      RenderRatings(BuildRatingsReport(games, {}), Format::kText);
  EXPECT_THAT(text, HasSubstr("\u2014 (fewer than 5 matches (3))"));
}

TEST(VerdictsTest, AnUndefeatedPlayerIsABoundNotAPoint) {
  // Six deal sets of two matches, A ahead of B in all twelve.
  const v1::RatingsReportProto report = BuildRatingsReport(OneSided(6), {});
  ASSERT_EQ(report.games(0).players_size(), 2);
  const v1::PlayerRating& a = report.games(0).players(0);
  const v1::PlayerRating& b = report.games(0).players(1);
  EXPECT_EQ(a.separation(), "undefeated");
  EXPECT_EQ(b.separation(), "winless");
  EXPECT_FALSE(a.has_rating());
  EXPECT_FALSE(a.has_ci_high());
  ASSERT_TRUE(a.has_ci_low());
  // 12 decisive results: P(A ahead) >= 0.05^(1/12), the difference at
  // least 400 log10(p / (1 - p)), the two centred on 1500.
  const double p = std::pow(0.05, 1.0 / 12);
  const double difference = 400 * std::log10(p / (1 - p));
  EXPECT_NEAR(a.ci_low(), 1500 + difference / 2, 1e-6);
  EXPECT_NEAR(b.ci_high(), 1500 - difference / 2, 1e-6);
  EXPECT_THAT(a.ci_note(), HasSubstr("undefeated in 12 decisive results"));
  const std::string text = RenderRatings(report, Format::kText);
  EXPECT_THAT(text, HasSubstr(absl::StrFormat(">= %.1f", a.ci_low())));
  EXPECT_THAT(text, HasSubstr("its fitted rating would be arbitrary"));
}

TEST(VerdictsTest, TheSeatTestReadsEachGamesOutcome) {
  // Ten deal sets of the three rotations of a, b, c: seat 0 always wins.
  std::vector<v1::GameSummary> games;
  const std::vector<std::vector<std::string>> rotations = {
      {"a", "b", "c"}, {"b", "c", "a"}, {"c", "a", "b"}};
  for (int d = 0; d < 10; ++d) {
    for (int r = 0; r < 3; ++r) {
      const auto& who = rotations[r];
      // Which of the other two comes second varies, so the units vary.
      const int second = (d + r) % 2 == 0 ? 2 : 3;
      games.push_back(Game("craits", absl::StrCat("f", d, r),
                           {{who[0], 1}, {who[1], second}, {who[2], 5 - second}},
                           absl::StrCat("d", d)));
    }
  }
  const v1::StatsReportProto report = BuildStatsReport(Sorted(games));
  const v1::SeatTest& test = report.games(0).seat_test();
  EXPECT_EQ(test.positions(), "seat");
  EXPECT_EQ(test.outcome(), "the winner's seat");
  EXPECT_EQ(test.units(), 10);
  ASSERT_EQ(test.rows_size(), 3);
  EXPECT_EQ(test.rows(0).chosen(), 30);
  EXPECT_NEAR(test.rows(0).expected(), 10, 1e-6);  // balanced: a third
  // Every deal set picks seat 0 alike: the test has no spread to use and
  // says so rather than inventing a p-value.
  EXPECT_FALSE(test.has_p_value());
  EXPECT_THAT(test.note(), HasSubstr("no test"));

  // Seat 0 wins in 8 deal sets, seat 1 in the rest: significant.
  for (v1::GameSummary& g : games) {
    const bool flip = g.deal_set_id() == "d3" || g.deal_set_id() == "d7";
    if (!flip) continue;
    std::swap(*g.mutable_seats(0)->mutable_player_name(),
              *g.mutable_seats(1)->mutable_player_name());
    g.mutable_seats(0)->set_rank(2);
    g.mutable_seats(0)->set_winner(false);
    g.mutable_seats(1)->set_rank(1);
    g.mutable_seats(1)->set_winner(true);
  }
  const v1::StatsReportProto biased = BuildStatsReport(Sorted(games));
  const v1::SeatTest& t = biased.games(0).seat_test();
  ASSERT_TRUE(t.has_p_value()) << t.note();
  EXPECT_LT(t.p_value(), 0.05);
  EXPECT_TRUE(t.significant());
  EXPECT_THAT(RenderStats(biased, Format::kText),
              HasSubstr("SEAT ADVANTAGE (p < 0.05): chi-square "));

  // Krass Kariert's result is who lost: the test reads the loser's seat,
  // and the report says what a "win" is there. Kraken's sides.
  const v1::StatsReportProto mixed = BuildStatsReport(MixedEvent());
  for (const v1::GameStatsProto& g : mixed.games()) {
    if (g.game() == "krass_kariert") {
      EXPECT_EQ(g.seat_test().outcome(), "the loser's seat");
      EXPECT_THAT(g.result_note(), HasSubstr("only who lost"));
    } else if (g.game() == "kraken") {
      EXPECT_EQ(g.seat_test().positions(), "side");
      EXPECT_EQ(g.seat_test().outcome(), "the winning side");
    }
  }
}

}  // namespace
}  // namespace cardref::analyzer
