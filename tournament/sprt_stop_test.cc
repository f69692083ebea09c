// The stop rule of --sprt on simulated results (no game is played): two
// bots in a 2-seat duplicate event, each deal set played in both seatings.
// A deal gives each seat a hand quality; the seat's utility is its bot's
// strength plus its hand's, and it wins with the logistic probability of
// the difference. A strong bot against a weak one stops with H1 well before
// the schedule ends; equal bots stop with H0 or run to the end; the
// decision does not depend on the order matches end in, nor on a resume.
#include "tournament/sprt_stop.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

double Uniform01(Rng& rng) {
  return (static_cast<double>(rng.Next() >> 11) + 0.5) / 9007199254740992.0;
}

double Gaussian(Rng& rng) {
  return std::sqrt(-2 * std::log(Uniform01(rng))) *
         std::cos(6.283185307179586 * Uniform01(rng));
}

// A two-bot duplicate event of `deal_sets` deal sets, as BuildSchedule
// makes it, with each match's ranks drawn from the model.
struct SimEvent {
  ScheduleConfig config;
  std::vector<ScheduledMatch> schedule;
  std::vector<std::vector<int>> ranks;  // by match, by seat
};

SimEvent Simulate(int deal_sets, double strength_a, double strength_b,
                  uint64_t seed) {
  SimEvent e;
  e.config.bots = {{"a", {"bot_a"}}, {"b", {"bot_b"}}};
  e.config.games = {{"craits", 2}};
  e.config.duplicate = true;
  e.config.matches = deal_sets;
  absl::StatusOr<std::vector<ScheduledMatch>> schedule =
      BuildSchedule(e.config);
  EXPECT_TRUE(schedule.ok()) << schedule.status();
  e.schedule = *schedule;
  Rng rng(seed);
  std::map<std::string, std::vector<double>> hands;  // by deal set
  for (const ScheduledMatch& m : e.schedule) {
    std::vector<double>& h = hands[m.deal_set];
    if (h.empty()) h = {Gaussian(rng), Gaussian(rng)};
    const double strength[] = {strength_a, strength_b};
    const double u0 = strength[m.seats[0]] + h[0];
    const double u1 = strength[m.seats[1]] + h[1];
    const bool seat0_wins = Uniform01(rng) < 1 / (1 + std::exp(u1 - u0));
    e.ranks.push_back(seat0_wins ? std::vector<int>{1, 2}
                                 : std::vector<int>{2, 1});
  }
  return e;
}

inference::SprtOptions Options(double elo0, double elo1) {
  inference::SprtOptions o;
  o.elo0 = elo0;
  o.elo1 = elo1;
  return o;
}

// Feeds the matches in `order`; the state once every match is done, and
// how many matches were done when it decided (-1: never).
std::pair<SprtState, int> Feed(const SimEvent& e,
                              const inference::SprtOptions& options,
                              const std::vector<size_t>& order) {
  SprtStop stop(e.config, e.schedule, options, {{}});
  int decided_after = -1;
  for (size_t i = 0; i < order.size(); ++i) {
    const SprtState s = stop.Done(e.schedule[order[i]].key, e.ranks[order[i]]);
    if (s.decision.has_value() && decided_after < 0) {
      decided_after = static_cast<int>(i) + 1;
    }
  }
  return {stop.state(), decided_after};
}

std::vector<size_t> InOrder(size_t n) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  return order;
}

TEST(SprtStopTest, AStrongBotAgainstAWeakOneAcceptsH1LongBeforeTheEnd) {
  int h1 = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    // About 150 Elo apart (a strength gap of 0.9 with hand_sd 1).
    const SimEvent e = Simulate(200, 0.9, 0, seed);
    const auto [state, after] =
        Feed(e, Options(0, 50), InOrder(e.schedule.size()));
    ASSERT_TRUE(state.decision.has_value()) << seed;
    if (state.decision->decision != inference::SprtDecision::kH1Accepted) {
      continue;
    }
    ++h1;
    // Well before the 400 games of the fixed-length event.
    EXPECT_LT(state.games, 150) << seed;
    EXPECT_GE(state.last.llr, state.last.upper);
    EXPECT_LT(after, 200);
  }
  EXPECT_GE(h1, 19);  // beta = 0.05 against a far larger difference
}

TEST(SprtStopTest, EqualBotsAcceptH0OrRunToTheEnd) {
  int h1 = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const SimEvent e = Simulate(150, 0.3, 0.3, 100 + seed);
    const auto [state, after] =
        Feed(e, Options(0, 50), InOrder(e.schedule.size()));
    if (state.decision.has_value() &&
        state.decision->decision == inference::SprtDecision::kH1Accepted) {
      ++h1;
    }
  }
  // alpha = 0.05: H1 wrongly accepted in about one event in twenty.
  EXPECT_LE(h1, 3);
}

TEST(SprtStopTest, TheDecisionIsTheSameWhateverOrderMatchesEndIn) {
  const SimEvent e = Simulate(120, 0.9, 0, 7);
  const auto [in_order, unused] =
      Feed(e, Options(0, 50), InOrder(e.schedule.size()));
  ASSERT_TRUE(in_order.decision.has_value());
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::vector<size_t> order = InOrder(e.schedule.size());
    Rng rng(seed);
    rng.Shuffle(absl::MakeSpan(order));
    const auto [shuffled, after] = Feed(e, Options(0, 50), order);
    ASSERT_TRUE(shuffled.decision.has_value());
    EXPECT_EQ(shuffled.decision->decision, in_order.decision->decision);
    EXPECT_EQ(shuffled.deal_sets, in_order.deal_sets);
    EXPECT_EQ(shuffled.games, in_order.games);
    EXPECT_DOUBLE_EQ(shuffled.last.llr, in_order.last.llr);
  }
}

TEST(SprtStopTest, DealSetsCountOnlyWhenWholeAndInScheduleOrder) {
  const SimEvent e = Simulate(10, 0, 0, 3);
  SprtStop stop(e.config, e.schedule, Options(0, 50), {{}});
  // The second deal set whole, the first not: nothing tested yet.
  stop.Done(e.schedule[2].key, e.ranks[2]);
  stop.Done(e.schedule[3].key, e.ranks[3]);
  stop.Done(e.schedule[0].key, e.ranks[0]);
  EXPECT_EQ(stop.state().deal_sets, 0);
  // A match that did not finish completes its deal set with no result.
  stop.Done(e.schedule[1].key, {});
  EXPECT_EQ(stop.state().deal_sets, 2);
  EXPECT_EQ(stop.state().games, 3);
  // A key given twice, or unknown, changes nothing.
  stop.Done(e.schedule[1].key, e.ranks[1]);
  stop.Done("nonsense", {1, 2});
  EXPECT_EQ(stop.state().games, 3);
  // Fewer than 5 deal sets: the SPRT cannot decide.
  EXPECT_THAT(stop.state().last.verdict, StartsWith("cannot decide"));
  EXPECT_THAT(DescribeSprt(stop.state(), e.config),
              StartsWith("SPRT: no decision (cannot decide"));
}

TEST(SprtStopTest, TheVerdictLineNamesTheHypothesisTheLlrAndTheGames) {
  const SimEvent e = Simulate(200, 1.5, 0, 9);
  const auto [state, after] =
      Feed(e, Options(0, 50), InOrder(e.schedule.size()));
  ASSERT_TRUE(state.decision.has_value());
  const std::string line = DescribeSprt(state, e.config);
  EXPECT_THAT(line, StartsWith("SPRT: H1 accepted: LLR "));
  EXPECT_THAT(line, HasSubstr(absl::StrCat(state.games, " games")));
  EXPECT_THAT(line, HasSubstr("a against b"));
}

TEST(SprtStopTest, TheSpecAndTheEventAreChecked) {
  EXPECT_TRUE(ParseSprtSpec("0,10").ok());
  absl::StatusOr<inference::SprtOptions> full =
      ParseSprtSpec("-5,5,0.01,0.1");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->alpha, 0.01);
  EXPECT_EQ(full->beta, 0.1);
  EXPECT_EQ(ParseSprtSpec("10").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSprtSpec("5,5").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSprtSpec("0,10,0.6,0.6").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseSprtSpec("0,x").status().code(),
            absl::StatusCode::kInvalidArgument);
  ScheduleConfig three;
  three.bots = {{"a", {"x"}}, {"b", {"x"}}, {"c", {"x"}}};
  EXPECT_EQ(CheckSprtEvent(three).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::tournament
