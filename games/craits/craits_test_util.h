// Helpers for the Craits tests: games from parameter strings, positions
// from card lists, and assertions on actions by their notation.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_TEST_UTIL_H_
#define CARDREF_GAMES_CRAITS_CRAITS_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/craits/craits.h"

namespace cardref::craits::testing {

// "num_players=3" plus `extra` ("fool_mode=CALL,nines_wild=true").
inline std::unique_ptr<CraitsGame> NewGame(int num_players,
                                           absl::string_view extra = "") {
  std::string text = absl::StrCat("num_players=", num_players);
  if (!extra.empty()) absl::StrAppend(&text, ",", extra);
  absl::StatusOr<GameParams> params =
      ParseParams(text, MakeGameInfo().params);
  EXPECT_TRUE(params.ok()) << params.status();
  absl::StatusOr<std::unique_ptr<CraitsGame>> game =
      CraitsGame::Create(*params);
  EXPECT_TRUE(game.ok()) << game.status();
  return std::move(game).value();
}

inline Card C(absl::string_view text) { return ParseCard(text).value(); }

// "2H 7C 8S" -> cards in that order.
inline std::vector<Card> Cards(absl::string_view text) {
  std::vector<Card> out;
  for (absl::string_view t : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    out.push_back(C(t));
  }
  return out;
}

// Seat `seat`'s hand as text ("2C 8H").
inline std::string HandOf(const CraitsState& s, int seat) {
  return CardsToString(s.hand(seat));
}

// The set "{...}" as CardsToString prints it, for readable comparisons.
inline std::string Set(absl::string_view text) {
  CardMask m = 0;
  for (Card c : Cards(text)) m |= Bit(c);
  return CardsToString(m);
}

// Puts every card the position does not list at the bottom of the stock
// (ascending), or into the hand of `seat` if seat >= 0.
inline void FillRest(CraitsPosition& p, int seat = -1) {
  CardMask used = 0;
  for (const auto& h : p.hands) {
    for (Card c : h) used |= Bit(c);
  }
  for (Card c : p.stock) used |= Bit(c);
  for (Card c : p.discard) used |= Bit(c);
  for (int c = 0; c < kNumCards; ++c) {
    if (used & Bit(static_cast<Card>(c))) continue;
    if (seat >= 0) {
      p.hands[seat].push_back(static_cast<Card>(c));
    } else {
      p.stock.push_back(static_cast<Card>(c));
    }
  }
}

// A position with every unlisted card at the bottom of the stock.
inline std::unique_ptr<CraitsState> Build(const CraitsGame& game,
                                          CraitsPosition p, bool fill = true) {
  if (fill) FillRest(p);
  absl::StatusOr<std::unique_ptr<CraitsState>> s =
      CraitsState::FromPosition(game, p);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(s).value();
}

// The legal actions in notation, ascending Action order, ", "-joined.
inline std::string Legal(const State& s) {
  ActionList legal;
  s.LegalActions(legal);
  std::vector<std::string> out;
  for (Action a : legal) out.push_back(s.ActionToString(a));
  return absl::StrJoin(out, ", ");
}

inline Action Parse(const State& s, absl::string_view text) {
  absl::StatusOr<Action> a = s.ParseAction(text);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.value_or(0);
}

// Applies an action given in notation through the validated path.
inline ::testing::AssertionResult Apply(State& s, absl::string_view text) {
  absl::StatusOr<Action> a = s.ParseAction(text);
  if (!a.ok()) return ::testing::AssertionFailure() << a.status();
  absl::Status st = s.ApplyAction(*a);
  if (!st.ok()) {
    return ::testing::AssertionFailure()
           << text << " rejected: " << st << "\n"
           << s.DebugString();
  }
  return ::testing::AssertionSuccess();
}

// Checks that `action` is rejected, that the message starts with `rule`
// (e.g. "CR-4.1: ") and that the state is unchanged.
inline ::testing::AssertionResult Rejected(State& s, Action action,
                                           absl::string_view rule) {
  const std::string before = s.DebugString();
  absl::Status st = s.ApplyAction(action);
  if (st.ok()) {
    return ::testing::AssertionFailure()
           << s.ActionToString(action) << " was accepted";
  }
  if (!absl::StartsWith(st.message(), absl::StrCat(rule, ": "))) {
    return ::testing::AssertionFailure()
           << "message does not start with " << rule << ": " << st.message();
  }
  if (s.DebugString() != before) {
    return ::testing::AssertionFailure() << "state changed by a rejection";
  }
  return ::testing::AssertionSuccess() << st.message();
}
inline ::testing::AssertionResult Rejected(State& s, absl::string_view text,
                                           absl::string_view rule) {
  absl::StatusOr<Action> a = s.ParseAction(text);
  if (!a.ok()) return ::testing::AssertionFailure() << a.status();
  return Rejected(s, *a, rule);
}

// The message of the rejection of `text` (state unchanged is checked by
// Rejected; this one is for HasSubstr checks).
inline std::string WhyRejected(State& s, absl::string_view text) {
  return std::string(s.ApplyAction(Parse(s, text)).message());
}

// Applies a deck order at a deal chance node.
inline ::testing::AssertionResult Deal(State& s,
                                       const std::vector<Card>& order) {
  if (!s.IsChance() || s.chance_kind() != ChanceKind::kDeal) {
    return ::testing::AssertionFailure() << "not at a deal";
  }
  absl::Status st = s.ApplyChance(ChanceKind::kDeal, order);
  if (!st.ok()) return ::testing::AssertionFailure() << st;
  return ::testing::AssertionSuccess();
}

// The deck order 0, 1, ..., 51 with `starter` moved to index `at`.
inline std::vector<Card> DeckWithCardAt(Card starter, int at) {
  std::vector<Card> order;
  for (int c = 0; c < kNumCards; ++c) {
    if (c != starter) order.push_back(static_cast<Card>(c));
  }
  order.insert(order.begin() + at, starter);
  return order;
}

// Plays uniformly at random (validated path) until a deal chance node of
// round `round` is reached.
inline void PlayRandomlyToDeal(State& s, int round, uint64_t seed) {
  Rng rng(seed);
  Card cards[64];
  ActionList legal;
  while (!s.IsTerminal()) {
    if (s.IsChance()) {
      if (s.chance_kind() == ChanceKind::kDeal && s.round() == round) return;
      const int n = s.ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards, n));
      ASSERT_TRUE(s.ApplyChance(s.chance_kind(), absl::MakeConstSpan(cards, n))
                      .ok());
      continue;
    }
    s.LegalActions(legal);
    ASSERT_TRUE(s.ApplyAction(legal[rng.Uniform(legal.size())]).ok());
  }
}

}  // namespace cardref::craits::testing

#endif  // CARDREF_GAMES_CRAITS_CRAITS_TEST_UTIL_H_
