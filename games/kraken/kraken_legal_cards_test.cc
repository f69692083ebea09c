// legal_cards (KR-9.5, KR-10, KR-11): the E2 table, an independent
// brute-force check on 100,000 random situations, and the rejection
// messages.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/kraken/kraken_rules.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

using testing::CardList;
using testing::Cards;
using ::testing::HasSubstr;
using testing::MsgHasSubstr;
using testing::MsgStartsWith;
using ::testing::StartsWith;

// E2: every row, both rule sets. Trump H.
TEST(KrakenLegalCardsTest, E2_Table_KR_9_5_KR_10_KR_11) {
  struct Row {
    const char* id;
    const char* trick;
    const char* hand;
    const char* amsterdam;
    const char* rotterdam;
  };
  const Row rows[] = {
      {"a", "9H 7H", "KC 8H JH AH", "JH", "JH"},
      {"b", "9H 7H", "KC 8H AH", "8H AH", "8H AH"},
      {"c", "9H 7H", "KC QD", "KC QD", "KC QD"},
      {"d", "AC", "7C KC JH", "7C KC", "7C KC"},
      {"e", "AC 7C", "8D 7H KH QS", "8D 7H KH QS", "7H KH"},
      {"f", "AC", "8D 7H KH QS", "7H KH", "7H KH"},
      {"g", "AC 9H", "8D 8H AH QS", "8D QS", "8H AH"},
      {"h", "AC 9H", "8H JH QS", "JH", "JH"},
      {"i", "AC 7H", "8H QS", "8H", "8H"},
      {"j", "AC 9H", "7H 8H", "7H 8H", "7H 8H"},
      {"k", "KD AH 7D", "7H 9H QS", "9H QS", "9H"},
      {"l", "KD AH 7D", "7H JH", "JH", "JH"},
      {"m", "KD AH 7D", "7H KH", "7H KH", "7H KH"},
      {"n", "KD AH 9H", "7H TH QS", "QS", "7H TH"},
      {"o", "AC 7C", "8D QS", "8D QS", "8D QS"},
  };
  for (const Row& r : rows) {
    const std::vector<Card> trick = CardList(r.trick);
    const CardMask hand = Cards(r.hand);
    EXPECT_EQ(
        CardsToString(LegalCards(hand, trick, kHearts, RuleSet::kAmsterdam)),
        CardsToString(Cards(r.amsterdam)))
        << "row " << r.id << " AMSTERDAM";
    EXPECT_EQ(
        CardsToString(LegalCards(hand, trick, kHearts, RuleSet::kRotterdam)),
        CardsToString(Cards(r.rotterdam)))
        << "row " << r.id << " ROTTERDAM";
  }
}

// KR-9.5a: the leader may play any card.
TEST(KrakenLegalCardsTest, LeaderPlaysAnything_KR_9_5a) {
  const CardMask hand = Cards("7C JH AS 9D");
  for (RuleSet rs : {RuleSet::kAmsterdam, RuleSet::kRotterdam}) {
    EXPECT_EQ(LegalCards(hand, {}, kHearts, rs), hand);
  }
}

// --- Independent formulation, card by card, from the prose -----------------

// Rank order strings of KR-5.1, highest first.
constexpr char kTrumpHighToLow[] = "J9ATKQ87";
constexpr char kPlainHighToLow[] = "ATKQJ987";
constexpr char kRankChars[] = "789TJQKA";

int PositionIn(const char* order, Card c) {
  const char r = kRankChars[c % 8];
  for (int i = 0; order[i]; ++i) {
    if (order[i] == r) return i;  // 0 = highest
  }
  return 99;
}

bool BruteLegal(const std::vector<Card>& hand, const std::vector<Card>& trick,
                int trump, bool rotterdam, Card c) {
  if (trick.empty()) return true;  // KR-9.5a
  const int led = trick[0] / 8;
  auto is_trump = [&](Card x) { return x / 8 == trump; };
  auto trump_beats = [&](Card x, Card y) {  // both trumps
    return PositionIn(kTrumpHighToLow, x) < PositionIn(kTrumpHighToLow, y);
  };
  // Highest trump in the trick and who wins (KR-9.3).
  int top = -1;
  for (size_t i = 0; i < trick.size(); ++i) {
    if (is_trump(trick[i]) && (top < 0 || trump_beats(trick[i], trick[top]))) {
      top = static_cast<int>(i);
    }
  }
  int winner = top;
  if (winner < 0) {
    winner = 0;
    for (size_t i = 1; i < trick.size(); ++i) {
      if (trick[i] / 8 == led &&
          PositionIn(kPlainHighToLow, trick[i]) <
              PositionIn(kPlainHighToLow, trick[winner])) {
        winner = static_cast<int>(i);
      }
    }
  }
  // Partner of the seat to play sits two places before it.
  const bool partner_winning =
      trick.size() >= 2 && winner == static_cast<int>(trick.size()) - 2;
  bool holds_trump = false, holds_led = false, over_nonempty = false;
  bool only_trumps = true, only_low_trumps = true;
  for (Card h : hand) {
    holds_trump |= is_trump(h);
    holds_led |= h / 8 == led;
    const bool over = is_trump(h) && (top < 0 || trump_beats(h, trick[top]));
    over_nonempty |= over;
    only_trumps &= is_trump(h);
    only_low_trumps &= is_trump(h) && !over;
  }
  const bool c_over = is_trump(c) && (top < 0 || trump_beats(c, trick[top]));
  if (led == trump) {  // KR-9.5b
    if (!holds_trump) return true;
    if (!is_trump(c)) return false;
    return !over_nonempty || c_over;
  }
  if (holds_led) return c / 8 == led;  // KR-9.5c
  if (rotterdam) {                     // KR-11
    if (!holds_trump) return true;
    if (!is_trump(c)) return false;
    return !over_nonempty || c_over;
  }
  if (partner_winning) {  // KR-10.1
    if (top < 0) return true;
    if (!is_trump(c) || c_over) return true;
    return only_low_trumps;  // a lower trump only when all held are such
  }
  // KR-10.2: opponent winning.
  if (over_nonempty) return c_over;
  if (top < 0) return true;
  if (!is_trump(c)) return true;
  return only_trumps;  // undertrump only with trumps alone
}

TEST(KrakenLegalCardsTest, MatchesBruteForceOnRandomSituations) {
  Rng rng(20240601);
  std::array<Card, kNumCards> deck;
  for (int i = 0; i < kNumCards; ++i) deck[i] = static_cast<Card>(i);
  int restricted = 0;
  for (int iter = 0; iter < 100000; ++iter) {
    rng.Shuffle(absl::MakeSpan(deck));
    const int trick_size = static_cast<int>(rng.Uniform(4));
    const int hand_size = 1 + static_cast<int>(rng.Uniform(8));
    const int trump = static_cast<int>(rng.Uniform(4));
    const bool rotterdam = rng.Uniform(2) == 1;
    std::vector<Card> trick(deck.begin(), deck.begin() + trick_size);
    std::vector<Card> hand(deck.begin() + trick_size,
                           deck.begin() + trick_size + hand_size);
    CardMask hand_mask = 0;
    for (Card c : hand) hand_mask |= CardBit(c);
    const RuleSet rs = rotterdam ? RuleSet::kRotterdam : RuleSet::kAmsterdam;
    const CardMask legal = LegalCards(hand_mask, trick, trump, rs);
    CardMask want = 0;
    for (Card c : hand) {
      if (BruteLegal(hand, trick, trump, rotterdam, c)) want |= CardBit(c);
    }
    std::string trick_text;
    for (Card c : trick) trick_text += CardName(c) + " ";
    ASSERT_EQ(legal, want) << "trick [" << trick_text << "] hand "
                           << CardsToString(hand_mask) << " trump " << trump
                           << " rotterdam " << rotterdam;
    ASSERT_NE(legal, 0u);  // never stuck
    restricted += legal != hand_mask;
    // The explicit form agrees with the derived one.
    const int n = trick_size;
    const bool partner_winning =
        n >= 2 && TrickWinnerIndex(trick, trump) == n - 2;
    ASSERT_EQ(LegalCards(hand_mask, trick, trump, rs, partner_winning), legal);
    // Every card outside the set has an explanation naming a rule; every card
    // in it has none.
    for (Card c : hand) {
      absl::Status why = ExplainIllegalCard(hand_mask, trick, trump, rs, c);
      ASSERT_EQ(why.ok(), (legal & CardBit(c)) != 0) << why;
      if (!why.ok()) {
        ASSERT_THAT(why, MsgStartsWith("KR-"));
      }
    }
  }
  EXPECT_GT(restricted, 30000);  // the sample exercises the obligations
}

// Rejection messages name the rule and say what was expected.
TEST(KrakenLegalCardsTest, ExplanationsNameTheRule) {
  auto why = [](const char* trick, const char* hand, RuleSet rs,
                const char* card) {
    return std::string(ExplainIllegalCard(Cards(hand), CardList(trick), kHearts,
                                          rs, *ParseCard(card))
                           .message());
  };
  const RuleSet A = RuleSet::kAmsterdam, R = RuleSet::kRotterdam;
  // KR-9.2: not held.
  EXPECT_THAT(why("AC", "7C KC", A, "AD"),
              StartsWith("KR-9.2: you do not hold AD"));
  // KR-9.5b: trump led, must overtrump even when the partner wins (row a).
  EXPECT_THAT(why("9H 7H", "KC 8H JH AH", A, "8H"),
              StartsWith("KR-9.5b: trump was led: you must play a trump higher "
                         "than 9H (JH)"));
  EXPECT_THAT(
      why("9H 7H", "KC 8H AH", A, "KC"),
      StartsWith("KR-9.5b: trump was led: you must play a trump (8H AH)"));
  // KR-9.5c: follow suit.
  EXPECT_THAT(why("AC", "7C KC JH", A, "JH"),
              StartsWith("KR-9.5c: you must follow suit C (7C KC)"));
  // KR-10.1: partner wins with a trump: no undertrump while holding others.
  EXPECT_THAT(why("KD AH 7D", "7H 9H QS", A, "7H"), StartsWith("KR-10.1"));
  // KR-10.2: opponent wins with a trump you can beat (row h).
  EXPECT_EQ(why("AC 9H", "8H JH QS", A, "QS"),
            "KR-10.2: must overtrump: the opponent is winning with a trump and "
            "you hold JH");
  EXPECT_THAT(why("AC", "8D 7H KH QS", A, "8D"),
              StartsWith("KR-10.2: must trump: the opponent is winning"));
  // KR-10.2: under-trump under Amsterdam while holding a side card (row g).
  EXPECT_THAT(why("AC 9H", "8D 8H AH QS", A, "8H"),
              StartsWith("KR-10.2: may not undertrump"));
  // KR-11.1: Rotterdam trumps whoever wins, undertrumping if it must.
  EXPECT_THAT(why("AC 7C", "8D 7H KH QS", R, "8D"),
              StartsWith("KR-11.1: void in C, you must play a trump"));
  EXPECT_THAT(
      why("AC 9H", "8D 8H AH QS", R, "QS"),
      StartsWith("KR-11.1: void in C, you must play a trump even below 9H"));
  EXPECT_THAT(why("KD AH 7D", "7H 9H QS", R, "7H"),
              StartsWith("KR-11.1: void in D, you must overtrump AH"));
  // KR-11.2: no trump: anything.
  EXPECT_TRUE(ExplainIllegalCard(Cards("8D QS"), CardList("AC 7C"), kHearts, R,
                                 *ParseCard("QS"))
                  .ok());
}

}  // namespace
}  // namespace cardref::kraken
