// 10,000 seeded random Craits games over 2-5 seats and every combination of
// the CR-0.4 options, checking at every step: card conservation, legal
// actions (non-empty, ascending, accepted by the validated path), notation
// round trips, rejections that leave the state unchanged, clone equality,
// observations that hide every hidden card (CR-15.3), reshuffles made of
// exactly the discard pile minus its top (CR-9.2), round scores recomputed
// independently from the revealed hands (CR-13.2), the action limit (CR-12)
// and the final outcome (CR-14).
#include <algorithm>
#include <bitset>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/base/rng.h"
#include "games/craits/craits.h"
#include "games/craits/craits_test_util.h"

namespace cardref::craits {
namespace {

// 500 under a sanitizer, not a tenth: each step checks every seat's
// observation, which makes a Craits game the dearest of the three there
// (about 0.1 s under ASan, as much as all the other random suites together).
constexpr int kGames = testing_util::GamesForThisBuild(10000, 500);

// CR-13.2 written out again from the spec text (not calling RoundScore).
int ReferenceScore(CardMask hand, bool minus_50) {
  static constexpr int kPoints[13] = {1, 20, 0, 15, 30, 30, 20,
                                      50, 30, 25, 10, 10, 10};
  int threes = 0;
  std::vector<int> others;
  for (int c = 0; c < 52; ++c) {
    if (!((hand >> c) & 1)) continue;
    if (c % 13 == 2) {
      ++threes;
    } else {
      others.push_back(kPoints[c % 13]);
    }
  }
  std::sort(others.begin(), others.end(), std::greater<int>());
  int sum = 0;
  for (int p : others) sum += p;
  if (threes == 0) return sum;
  if (others.empty()) return -50 * threes;
  const int k = std::min<int>(threes, others.size());
  if (threes - k == 0) {
    int rest = 0;
    for (size_t i = k; i < others.size(); ++i) rest += others[i];
    return rest;
  }
  return minus_50 ? -50 * (threes - k) : 0;
}

struct Config {
  std::string params;
  int num_players = 0;
  int limit = 0;
  bool minus_50 = true;
};

Config ConfigFor(int i, Rng& rng) {
  Config c;
  c.num_players = 2 + i % 4;
  const int bits = (i / 4) % 128;  // every option combination, per N
  const bool short_game = bits & 1;
  const bool call = bits & 2;
  const bool voluntary = bits & 4;
  c.minus_50 = !(bits & 64);
  // Random play with voluntary_draw hits the limit often: keep it small
  // there to bound the run time; elsewhere mostly the default.
  static constexpr int kVoluntaryLimits[] = {50, 100, 200, 400};
  static constexpr int kLimits[] = {50, 300, 1000, 1000};
  c.limit = voluntary ? kVoluntaryLimits[rng.Uniform(4)] : kLimits[rng.Uniform(4)];
  c.params = absl::StrCat(
      "num_players=", c.num_players,
      ",game_length=", short_game ? "SHORT" : "FULL",
      ",first_dealer=", (i / 512) % c.num_players,
      ",fool_mode=", call ? "CALL" : "AUTO",
      ",voluntary_draw=", voluntary ? "true" : "false",
      ",nines_wild=", bits & 8 ? "true" : "false",
      ",seven_skips=", bits & 16 ? "true" : "false",
      ",two_player_ten_skips=", bits & 32 ? "true" : "false",
      ",surplus_threes=", c.minus_50 ? "MINUS_50" : "ZERO",
      ",round_action_limit=", c.limit);
  return c;
}

// Every card field of seat's observation, compared with its public source.
void CheckObservation(const CraitsState& s, int seat) {
  const CraitsObservation o = s.Observe(seat);
  const int n = s.game().num_seats();
  CardMask own = 0;
  for (Card c : o.hand) own |= Bit(c);
  ASSERT_EQ(own, s.hand(seat));
  ASSERT_TRUE(std::is_sorted(o.hand.begin(), o.hand.end()));
  const absl::Span<const Card> discard = s.discard_pile();
  ASSERT_EQ(o.discard_pile, std::vector<Card>(discard.begin(), discard.end()));
  if (o.top_card >= 0) {
    ASSERT_FALSE(discard.empty());
    ASSERT_EQ(o.top_card, discard.back());
  } else {
    ASSERT_TRUE(discard.empty());
  }  // no other card field but the ones below
  for (Action a : o.legal_actions) {
    ASSERT_EQ(o.seat_to_act, seat);
    if (ActionType(a) == kTypePlay) {
      ASSERT_NE(own & Bit(ActionCard(a)), 0u);
    }
  }
  ASSERT_EQ(static_cast<int>(o.seats.size()), n);
  for (int p = 0; p < n; ++p) {
    ASSERT_EQ(o.seats[p].hand_size, s.hand_size(p));
    ASSERT_EQ(o.seats[p].missed_turn, s.missed_turn(p));
  }
  ASSERT_EQ(o.stock_size, s.stock_size());
  if (s.rounds_completed() == 0) {
    ASSERT_TRUE(o.last_round_hands.empty());
  } else {
    const CraitsRoundResult& last = s.round_results().back();
    ASSERT_EQ(static_cast<int>(o.last_round_hands.size()), n);
    for (int p = 0; p < n; ++p) {
      CardMask m = 0;
      for (Card c : o.last_round_hands[p]) m |= Bit(c);
      ASSERT_EQ(m, last.hands[p]);
    }
  }
  ASSERT_EQ(static_cast<int>(o.completed_rounds.size()), s.rounds_completed());
}

struct Stats {
  int64_t decisions = 0;
  int64_t reshuffles = 0;
  int64_t exhausted = 0;
  int64_t calls = 0;
  int64_t post_out = 0;
};

std::bitset<1 << 15> round_tripped;  // actions whose notation was checked

void PlayOne(int index, Stats& stats) {
  Rng rng(0x9e3779b9ull * (index + 1));
  const Config cfg = ConfigFor(index, rng);
  SCOPED_TRACE(absl::StrCat("game ", index, ": ", cfg.params));
  auto game = testing::NewGame(cfg.num_players,
                               cfg.params.substr(cfg.params.find(',') + 1));
  auto s = game->NewCraitsState();
  const int n = cfg.num_players;
  ActionList legal;
  Card cards[64];
  int actions_in_round = 0;
  int rounds_seen = 0;
  int step = 0;
  // Called after every event: checks a round that has just ended (by an
  // action, or by the chance event that completed its effects).
  auto check_round_end = [&]() {
    if (s->rounds_completed() == rounds_seen) {
      ASSERT_LT(actions_in_round, cfg.limit + 2 * kNumCards);
      return;
    }
    ASSERT_EQ(s->rounds_completed(), rounds_seen + 1);
    ++rounds_seen;
    const CraitsRoundResult& r = s->round_results().back();
    bool someone_out = false;
    for (int p = 0; p < n; ++p) {
      ASSERT_EQ(r.scores[p], ReferenceScore(r.hands[p], cfg.minus_50))
          << "seat " << p << " hand " << CardsToString(r.hands[p]);
      someone_out |= r.hands[p] == 0;
    }
    if (r.exhausted) {  // CR-12.1
      ++stats.exhausted;
      ASSERT_FALSE(someone_out);
      ASSERT_EQ(actions_in_round, cfg.limit);
    } else {
      ASSERT_TRUE(someone_out);
      ASSERT_LE(actions_in_round, cfg.limit + 2 * kNumCards);
    }
    actions_in_round = 0;
  };
  while (!s->IsTerminal()) {
    ++step;
    const bool in_play = s->phase() != Phase::kRoundOver;
    if (in_play) {
      ASSERT_EQ(s->CardsInPlay(), kNumCards) << s->DebugString();
    }
    if (s->IsChance()) {
      ASSERT_EQ(s->current_seat(), -1);
      s->LegalActions(legal);
      ASSERT_TRUE(legal.empty());
      const int count = s->ChanceCards(absl::MakeSpan(cards));
      if (s->chance_kind() == ChanceKind::kReshuffle) {
        ++stats.reshuffles;
        ASSERT_EQ(s->stock_size(), 0);  // CR-9.2: only from an empty stock
        const auto pile = s->discard_pile();
        ASSERT_GE(pile.size(), 2u);
        std::vector<Card> want(pile.begin(), pile.end() - 1);
        std::sort(want.begin(), want.end());
        ASSERT_EQ(std::vector<Card>(cards, cards + count), want);
      } else {
        ASSERT_EQ(count, kNumCards);
        ASSERT_EQ(s->round(), s->rounds_completed() + 1);
        ASSERT_EQ(actions_in_round, 0);
      }
      rng.Shuffle(absl::MakeSpan(cards, count));
      ASSERT_TRUE(s->ApplyChance(s->chance_kind(),
                                 absl::MakeConstSpan(cards, count)).ok());
      check_round_end();
      if (::testing::Test::HasFatalFailure()) return;
      continue;
    }
    // A decision.
    const int seat = s->current_seat();
    ASSERT_GE(seat, 0);
    ASSERT_LT(seat, n);
    s->LegalActions(legal);
    ASSERT_FALSE(legal.empty()) << s->DebugString();
    for (int i = 1; i < legal.size(); ++i) ASSERT_LT(legal[i - 1], legal[i]);
    for (Action a : legal) {
      if (round_tripped[a]) continue;
      round_tripped[a] = true;
      absl::StatusOr<Action> back = s->ParseAction(s->ActionToString(a));
      ASSERT_TRUE(back.ok() && *back == a) << s->ActionToString(a);
    }
    // CR-2.2.
    const bool crank =
        s->phase() == Phase::kCrank || s->phase() == Phase::kPostOut;
    ASSERT_EQ(s->crank_count() > 0, crank) << s->DebugString();
    ASSERT_GT(s->hand_size(seat), 0);
    if (s->phase() == Phase::kPostOut) ++stats.post_out;
    CheckObservation(*s, seat);
    if (step % 3 == 0) {
      for (int p = 0; p < n; ++p) CheckObservation(*s, p);
    }
    if (::testing::Test::HasFatalFailure()) return;
    // A random illegal action is rejected naming a rule, state unchanged.
    if (step % 31 == 0) {
      Action bad;
      do {
        bad = rng.Uniform(1 << 15);
      } while (legal.contains(bad));
      const std::string before = s->DebugString();
      absl::Status st = s->ApplyAction(bad);
      ASSERT_FALSE(st.ok());
      ASSERT_TRUE(absl::StartsWith(st.message(), "CR-")) << st.message();
      ASSERT_EQ(s->DebugString(), before);
    }
    const Action a = legal[rng.Uniform(legal.size())];
    if (ActionType(a) == kTypeCallFool) ++stats.calls;
    if (step % 53 == 0) {  // clone equality, before and after the action
      std::unique_ptr<State> clone = s->Clone();
      ASSERT_EQ(clone->DebugString(), s->DebugString());
      ASSERT_TRUE(clone->ApplyAction(a).ok());
      ASSERT_TRUE(s->ApplyAction(a).ok());
      ASSERT_EQ(clone->DebugString(), s->DebugString());
    } else {
      absl::Status st = s->ApplyAction(a);
      ASSERT_TRUE(st.ok()) << st << "\n" << s->DebugString();
    }
    ++stats.decisions;
    ++actions_in_round;
    check_round_end();
    if (::testing::Test::HasFatalFailure()) return;
  }
  // CR-14.
  ASSERT_EQ(s->rounds_completed(), game->craits_params().num_rounds());
  std::vector<int> totals(n, 0);
  for (const CraitsRoundResult& r : s->round_results()) {
    for (int p = 0; p < n; ++p) totals[p] += r.scores[p];
  }
  ASSERT_EQ(std::vector<int>(s->totals().begin(), s->totals().end()), totals);
  const int best = *std::min_element(totals.begin(), totals.end());
  const GameOutcome o = s->Outcome();
  std::vector<int> winners;
  for (int p = 0; p < n; ++p) {
    if (totals[p] == best) winners.push_back(p);
    ASSERT_EQ(o.scores[p], totals[p]);
    ASSERT_EQ(o.ranks[p],
              1 + std::count_if(totals.begin(), totals.end(),
                                [&](int t) { return t < totals[p]; }));
  }
  ASSERT_EQ(o.winners, winners);
  ASSERT_FALSE(o.higher_score_is_better);
  CheckObservation(*s, 0);
}

// Split in shards so ctest can run them in parallel.
class CraitsRandomTest : public ::testing::TestWithParam<int> {};

TEST_P(CraitsRandomTest, RandomGamesKeepEveryInvariant) {
  constexpr int kShards = 4;
  Stats stats;
  for (int i = GetParam(); i < kGames; i += kShards) {
    PlayOne(i, stats);
    if (HasFatalFailure()) return;
  }
  // The games exercise what they claim to.
  EXPECT_GT(stats.reshuffles, 100);
  EXPECT_GT(stats.exhausted, 100);
  EXPECT_GT(stats.calls, 100);
  EXPECT_GT(stats.post_out, kGames / 20);  // about 0.7 a game
  std::cout << "decisions " << stats.decisions << " reshuffles "
            << stats.reshuffles << " exhausted rounds " << stats.exhausted
            << " calls " << stats.calls << " post-out decisions "
            << stats.post_out << "\n";
}

INSTANTIATE_TEST_SUITE_P(Shards, CraitsRandomTest, ::testing::Range(0, 4));

}  // namespace
}  // namespace cardref::craits
