// Helpers shared by the Krass Kariert tests: games, positions built from
// card values, and actions applied by their notation.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_TEST_UTIL_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_TEST_UTIL_H_

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "games/krass_kariert/krass_kariert.h"

namespace cardref::krass_kariert::testing {

inline std::unique_ptr<KrassKariertGame> MakeGame(
    int num_players = 4, int chips = 2, int hand_size = -1,
    const std::string& fallback = "CCW") {
  GameParams p;
  p.Set("num_players", int64_t{num_players});
  p.Set("chips_per_player", int64_t{chips});
  if (hand_size > 0) p.Set("hand_size", int64_t{hand_size});
  p.Set("fallback_direction", fallback);
  absl::StatusOr<std::unique_ptr<KrassKariertGame>> game =
      NewKrassKariertGame(p);
  EXPECT_TRUE(game.ok()) << game.status();
  return std::move(game).value();
}

inline std::unique_ptr<KrassKariertState> NewState(const KrassKariertGame& g) {
  return std::unique_ptr<KrassKariertState>(
      static_cast<KrassKariertState*>(g.NewInitialState().release()));
}

// The deck order 0, 1, ..., 53 (card ids ascending).
inline std::vector<Card> Identity() {
  std::vector<Card> d(kNumCards);
  std::iota(d.begin(), d.end(), 0);
  return d;
}

// Hands out distinct card ids by value, so a position never uses a card
// twice: Num(5) is the next unused copy of 5; "X", "S" (STOP), "D" (DRAW).
class CardPicker {
 public:
  Card Num(int value) {
    for (int copy = 0; copy < 4; ++copy) {
      const Card c = NumberCard(value, copy);
      if (!used_[c]) return Use(c);
    }
    ADD_FAILURE() << "no copy of " << value << " left";
    return 0;
  }
  Card X() { return Special(kFirstX); }
  Card Stop() { return Special(kFirstStop); }
  Card Draw() { return Special(kFirstDraw); }
  // Values as written in the spec: 1..12, 'X', 'S'(TOP), 'D'(RAW) via
  // negative codes: kX, kS, kD.
  std::vector<Card> Hand(std::initializer_list<int> values) {
    std::vector<Card> out;
    for (int v : values) {
      out.push_back(v == kX ? X() : v == kS ? Stop() : v == kD ? Draw() : Num(v));
    }
    return out;
  }
  static constexpr int kX = -1, kS = -2, kD = -3;

 private:
  Card Use(Card c) {
    used_[c] = true;
    return c;
  }
  Card Special(Card first) {
    for (Card c = first; c < first + 2; ++c) {
      if (!used_[c]) return Use(c);
    }
    ADD_FAILURE() << "no copy of " << CardName(first) << " left";
    return first;
  }
  bool used_[kNumCards] = {};
};

inline constexpr int X = CardPicker::kX;
inline constexpr int STOP = CardPicker::kS;
inline constexpr int DRAW = CardPicker::kD;

// Applies the action written in notation, through the validating path.
inline absl::Status Do(KrassKariertState& s, const std::string& text) {
  absl::StatusOr<Action> a = s.ParseAction(text);
  if (!a.ok()) return a.status();
  return s.ApplyAction(*a);
}

#define KK_DO(state, text)                                                \
  do {                                                                    \
    const int kk_seat_ = (state).current_seat();                          \
    absl::Status kk_st_ = ::cardref::krass_kariert::testing::Do(state, text); \
    ASSERT_TRUE(kk_st_.ok()) << "S" << kk_seat_ << " " << (text) << ": "  \
                             << kk_st_ << "\n" << (state).DebugString();  \
  } while (0)

// Hand values as written in the spec ("X", "STOP", "DRAW" for the others).
inline std::vector<std::string> Names(absl::Span<const Card> cards) {
  std::vector<std::string> out;
  for (Card c : cards) out.push_back(CardName(c));
  return out;
}
inline std::string HandString(const KrassKariertState& s, int seat) {
  return absl::StrJoin(Names(s.hand(seat)), ",");
}

// The legal actions in notation, in engine order.
inline std::vector<std::string> LegalStrings(const KrassKariertState& s) {
  ActionList legal;
  s.LegalActions(legal);
  std::vector<std::string> out;
  for (Action a : legal) out.push_back(s.ActionToString(a));
  return out;
}

inline int LegalCount(const KrassKariertState& s) {
  ActionList legal;
  s.LegalActions(legal);
  return legal.size();
}

// The rejection of `text` (expected to be illegal now).
inline std::string Rejection(KrassKariertState& s, const std::string& text) {
  absl::Status st = Do(s, text);
  return st.ok() ? std::string("accepted") : std::string(st.message());
}

}  // namespace cardref::krass_kariert::testing

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_TEST_UTIL_H_
