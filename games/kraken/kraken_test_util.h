// Helpers shared by the Kraken tests: parameters, card lists from text, and
// applying actions written in the notation.
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_TEST_UTIL_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/kraken/kraken.h"
#include "games/kraken/kraken_notation.h"

namespace cardref::kraken::testing {

// Matchers on an absl::Status message (Debian's absl::string_view is not
// std::string_view, so gmock's string matchers do not take it).
MATCHER_P(MsgStartsWith, prefix, "") {
  *result_listener << "message: " << arg.message();
  return absl::StartsWith(arg.message(), prefix);
}
MATCHER_P(MsgHasSubstr, part, "") {
  *result_listener << "message: " << arg.message();
  return absl::StrContains(arg.message(), part);
}

// "8C QC 7D" -> ids in the given order.
inline std::vector<Card> CardList(absl::string_view text) {
  std::vector<Card> out;
  for (absl::string_view w : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    absl::StatusOr<Card> c = ParseCard(w);
    EXPECT_TRUE(c.ok()) << w;
    out.push_back(c.ok() ? *c : 0);
  }
  return out;
}

inline CardMask Cards(absl::string_view text) {
  CardMask m = 0;
  for (Card c : CardList(text)) m |= CardBit(c);
  return m;
}

// Deal A of the spec's worked examples (deck_0, index 0 on top).
inline std::vector<Card> DealADeck() {
  return CardList(
      "JC JD 7S 9C JS 9D 9H TS QH 8D TH 7D KC 8H QD AD QS TC QC 8C AC KD 7C "
      "AS JH KS 9S KH 8S TD AH 7H");
}

inline std::unique_ptr<KrakenGame> MakeGame(
    const std::vector<std::pair<std::string, ParamValue>>& values = {}) {
  GameParams given;
  for (const auto& [name, value] : values) given.Set(name, value);
  absl::StatusOr<std::unique_ptr<KrakenGame>> game = KrakenGame::Create(given);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? std::move(*game) : nullptr;
}

inline Action Parse(absl::string_view text) {
  absl::StatusOr<Action> a = ParseKrakenAction(text);
  EXPECT_TRUE(a.ok()) << text << ": " << a.status();
  return a.ok() ? *a : 0;
}

// Applies `text` for `seat`, failing the test (with the state) if rejected.
inline void Apply(KrakenState& state, int seat, absl::string_view text) {
  absl::Status st = state.ApplyActionAs(seat, Parse(text));
  ASSERT_TRUE(st.ok()) << "seat " << seat << " '" << text << "': " << st << "\n"
                       << state.DebugString();
}

// Applies an action that must be rejected with a message starting with
// `prefix`, and checks that the state did not change (KR-17.3).
inline void ExpectRejected(KrakenState& state, int seat, absl::string_view text,
                           absl::string_view prefix) {
  std::unique_ptr<State> before = state.Clone();
  absl::Status st = state.ApplyActionAs(seat, Parse(text));
  EXPECT_THAT(st, MsgStartsWith(std::string(prefix))) << text;
  EXPECT_TRUE(state == static_cast<const KrakenState&>(*before)) << text;
}

// Legal actions as notation strings, in engine order.
inline std::vector<std::string> LegalStrings(const KrakenState& state) {
  ActionList legal;
  state.LegalActions(legal);
  std::vector<std::string> out;
  for (Action a : legal) out.push_back(KrakenActionToString(a));
  return out;
}

}  // namespace cardref::kraken::testing

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_TEST_UTIL_H_
