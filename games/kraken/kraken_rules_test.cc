// The pure rules: card order and points, the deal, trick bonus types, hand
// combinations, the declaration contest and round scoring.
#include "games/kraken/kraken_rules.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

using testing::CardList;
using testing::Cards;
using testing::DealADeck;
using ::testing::HasSubstr;
using testing::MsgHasSubstr;
using testing::MsgStartsWith;
using ::testing::StartsWith;

std::array<Card, 4> Trick4(absl::string_view text) {
  std::vector<Card> v = CardList(text);
  return {v[0], v[1], v[2], v[3]};
}

// KR-5 card order and points. KR-5.1: trump J 9 A T K Q 8 7, other suits
// A T K Q J 9 8 7.
TEST(KrakenRulesTest, CardOrder_KR_5_1) {
  const std::vector<Card> trump_order = CardList("JH 9H AH TH KH QH 8H 7H");
  for (size_t i = 0; i + 1 < trump_order.size(); ++i) {
    EXPECT_GT(CardStrength(trump_order[i], kHearts, kClubs),
              CardStrength(trump_order[i + 1], kHearts, kClubs));
  }
  const std::vector<Card> plain_order = CardList("AC TC KC QC JC 9C 8C 7C");
  for (size_t i = 0; i + 1 < plain_order.size(); ++i) {
    EXPECT_GT(CardStrength(plain_order[i], kHearts, kClubs),
              CardStrength(plain_order[i + 1], kHearts, kClubs));
  }
  // Any trump beats any card of the led suit; other suits never win.
  EXPECT_GT(CardStrength(*ParseCard("7H"), kHearts, kClubs),
            CardStrength(*ParseCard("AC"), kHearts, kClubs));
  EXPECT_EQ(CardStrength(*ParseCard("AD"), kHearts, kClubs), 0);
  EXPECT_EQ(TrumpsAbove(*ParseCard("AH")), Cards("9H JH"));
  EXPECT_EQ(TrumpsAbove(*ParseCard("7S")), Cards("8S 9S TS JS QS KS AS"));
  EXPECT_EQ(TrumpsAbove(*ParseCard("JD")), 0u);
}

// KR-5.2: points; the 32 cards total 152 whatever the trump.
TEST(KrakenRulesTest, CardPoints_KR_5_2) {
  EXPECT_EQ(CardPoints(*ParseCard("JH"), kHearts), 20);
  EXPECT_EQ(CardPoints(*ParseCard("9H"), kHearts), 14);
  EXPECT_EQ(CardPoints(*ParseCard("JC"), kHearts), 2);
  EXPECT_EQ(CardPoints(*ParseCard("9C"), kHearts), 0);
  EXPECT_EQ(CardPoints(*ParseCard("AS"), kHearts), 11);
  EXPECT_EQ(CardPoints(*ParseCard("TS"), kHearts), 10);
  EXPECT_EQ(CardPoints(*ParseCard("KS"), kHearts), 4);
  EXPECT_EQ(CardPoints(*ParseCard("QS"), kHearts), 3);
  for (int trump = 0; trump < 4; ++trump) {
    int total = 0, trump_total = 0;
    for (int c = 0; c < kNumCards; ++c) {
      total += CardPoints(static_cast<Card>(c), trump);
      if (SuitOf(static_cast<Card>(c)) == trump) {
        trump_total += CardPoints(static_cast<Card>(c), trump);
      }
    }
    EXPECT_EQ(total, 152);
    EXPECT_EQ(trump_total, 62);
  }
}

// KR-9.3: the highest trump, else the highest card of the led suit.
TEST(KrakenRulesTest, TrickWinner_KR_9_3) {
  auto winner = [](absl::string_view t, int trump) {
    std::vector<Card> v = CardList(t);
    return TrickWinnerIndex(absl::MakeConstSpan(v), trump);
  };
  EXPECT_EQ(winner("7C 9C TC 8C", kHearts), 2);
  EXPECT_EQ(winner("8D KD AD KH", kHearts), 3);
  EXPECT_EQ(winner("KS AS", kHearts), 1);
  EXPECT_EQ(winner("KS AD", kHearts), 0);  // a discard never wins
  EXPECT_EQ(winner("9H JH 7H", kHearts), 1);
  EXPECT_EQ(winner("AC", kHearts), 0);
}

// E1 (KR-4.3): the canonical deal of Deal A in both patterns.
TEST(KrakenRulesTest, E1_CanonicalDeal_KR_4_3) {
  const std::vector<Card> deck = DealADeck();
  std::array<CardMask, 4> h = DealHands(deck, 0, DealPattern::k323);
  EXPECT_EQ(CardsToString(h[0]), "8C QC 7D 8D TD 7H TH AH");
  EXPECT_EQ(CardsToString(h[1]), "7C JC KC AC JD KD 8H 7S");
  EXPECT_EQ(CardsToString(h[2]), "9C 9D QD AD JH JS KS AS");
  EXPECT_EQ(CardsToString(h[3]), "TC 9H QH KH 8S 9S TS QS");
  h = DealHands(deck, 0, DealPattern::k44);
  EXPECT_EQ(CardsToString(h[0]), "KC TD QD AD 7H 8H AH 8S");
  EXPECT_EQ(CardsToString(h[1]), "8C 9C TC JC QC JD 7S QS");
  EXPECT_EQ(CardsToString(h[2]), "7C AC 9D KD 9H TS JS AS");
  EXPECT_EQ(CardsToString(h[3]), "7D 8D TH JH QH KH 9S KS");
}

TEST(KrakenRulesTest, DeckForHandsInvertsTheDeal_KR_4_3) {
  Rng rng(5);
  std::array<Card, kNumCards> deck;
  for (int i = 0; i < kNumCards; ++i) deck[i] = static_cast<Card>(i);
  for (int iter = 0; iter < 200; ++iter) {
    rng.Shuffle(absl::MakeSpan(deck));
    const int dealer = iter % 4;
    for (DealPattern p : {DealPattern::k323, DealPattern::k44}) {
      const auto hands = DealHands(deck, dealer, p);
      CardMask all = 0;
      for (CardMask m : hands) {
        EXPECT_EQ(CountCards(m), 8);  // KR-4.3: every seat holds 8
        all |= m;
      }
      EXPECT_EQ(all, 0xFFFFFFFFu);
      EXPECT_EQ(DealHands(DeckForHands(hands, dealer, p), dealer, p), hands);
    }
  }
}

// E3 (KR-12 trick bonuses, KR-12.1, KR-12.2): every row of the table.
TEST(KrakenRulesTest, E3_TrickBonusTypes_KR_12) {
  struct Row {
    const char* cards;
    int trump;
    Bonus type;
    int value;
    int winner;
    int points;
  };
  const Row rows[] = {
      {"7C 9C TC 8C", kHearts, Bonus::kRun4, 50, 2, 10},
      {"QH TH 8H JH", kHearts, Bonus::kRun3, 20, 3, 33},
      {"JH QH KH 7S", kHearts, Bonus::kTrumpRun3Stuk, 40, 0, 27},
      {"TH JH QH KH", kHearts, Bonus::kTrumpRun4Stuk, 70, 1, 37},
      {"QH KH AH 9H", kHearts, Bonus::kTrumpRun3Stuk, 40, 3, 32},
      {"KH 7C QH 9D", kHearts, Bonus::kStuk, 20, 0, 7},
      {"KS QS JS 7H", kHearts, Bonus::kRun3, 20, 3, 9},
      {"9C TC JC KC", kHearts, Bonus::kRun3, 20, 1, 16},
      {"AH KH 7C 8C", kHearts, Bonus::kNone, 0, 0, 15},
      {"AC AD AH AS", kHearts, Bonus::kFourOfAKind, 100, 2, 44},
      {"JC JD JH JS", kHearts, Bonus::kFourJacks, 200, 2, 26},
      {"9C 9D 9H 9S", kHearts, Bonus::kNone, 0, 2, 14},
      {"KD QD JD TD", kDiamonds, Bonus::kTrumpRun4Stuk, 70, 2, 37},
      {"9S TS JS QS", kSpades, Bonus::kRun4, 50, 2, 47},
  };
  for (const Row& r : rows) {
    const std::array<Card, 4> t = Trick4(r.cards);
    EXPECT_EQ(TrickBonus(t, r.trump), r.type) << r.cards;
    EXPECT_EQ(BonusValue(TrickBonus(t, r.trump)), r.value) << r.cards;
    EXPECT_EQ(TrickWinnerIndex(absl::MakeConstSpan(t), r.trump), r.winner)
        << r.cards;
    EXPECT_EQ(TrickPoints(absl::MakeConstSpan(t), r.trump), r.points)
        << r.cards;
  }
}

// KR-12.2: one type per trick; 40/70 already include the stuk; a four of a
// kind excludes runs and stuk. KR-13.4: the STUK type needs trump K and Q
// in one trick (necessarily from two seats).
TEST(KrakenRulesTest, OneTypePerTrick_KR_12_2_KR_13_4) {
  EXPECT_EQ(BonusValue(Bonus::kTrumpRun3Stuk),
            BonusValue(Bonus::kRun3) + BonusValue(Bonus::kStuk));
  EXPECT_EQ(BonusValue(Bonus::kTrumpRun4Stuk),
            BonusValue(Bonus::kRun4) + BonusValue(Bonus::kStuk));
  EXPECT_EQ(TrickBonus(Trick4("KH QH 7C 8D"), kHearts), Bonus::kStuk);
  EXPECT_EQ(TrickBonus(Trick4("KH QH 7C 8D"), kSpades), Bonus::kNone);
  EXPECT_EQ(TrickBonus(Trick4("KH KC KD KS"), kHearts), Bonus::kFourOfAKind);
  EXPECT_EQ(TrickBonus(Trick4("QC QD QH QS"), kHearts), Bonus::kFourOfAKind);
  EXPECT_EQ(TrickBonus(Trick4("TC TD TH TS"), kHearts), Bonus::kFourOfAKind);
  EXPECT_EQ(TrickBonus(Trick4("8C 8D 8H 8S"), kHearts), Bonus::kNone);
  // KR-5.3: A is not adjacent to 7.
  EXPECT_EQ(TrickBonus(Trick4("AC 7C 8C 9D"), kHearts), Bonus::kNone);
  EXPECT_EQ(TrickBonus(Trick4("KC AC 7C 8D"), kHearts), Bonus::kNone);
  // Two runs of 2 in different suits are no run.
  EXPECT_EQ(TrickBonus(Trick4("7C 8C 7D 8D"), kHearts), Bonus::kNone);
}

// E4 (KR-8.2, KR-8.3): hand combinations.
TEST(KrakenRulesTest, E4_HandCombinations_KR_8_2_KR_8_3) {
  auto payload = [](absl::string_view text) {
    return PayloadOf(testing::Parse(text));
  };
  std::array<uint32_t, kMaxDeclarations> list;
  // A run of 8 = 100; 7S 8S 9S alone is not maximal.
  CardMask h = Cards("7S 8S 9S TS JS QS KS AS");
  ASSERT_EQ(ListDeclarations(h, list), 2);
  EXPECT_EQ(list[0], 0u);
  EXPECT_EQ(list[1], payload("declare run:7S8S9STSJSQSKSAS"));
  EXPECT_EQ(DeclarationPoints(list[1]), 100);
  EXPECT_THAT(
      CheckDeclaration(h, payload("declare run:7S8S9S")),
      MsgStartsWith("KR-8.3: RUN 7S 8S 9S is not maximal: you also hold TS"));
  // Two runs of 3: 40.
  h = Cards("7C 8C 9C JC QC KC AD AH");
  EXPECT_EQ(ListDeclarations(h, list), 4);
  EXPECT_EQ(DeclarationPoints(payload("declare run:7C8C9C run:JCQCKC")), 40);
  EXPECT_TRUE(
      CheckDeclaration(h, payload("declare run:7C8C9C run:JCQCKC")).ok());
  // FOUR_JACKS 200 + RUN 9C TC JC 20 = 220; JC counts twice.
  h = Cards("9C TC JC JD JH AH JS KS");
  EXPECT_EQ(ListDeclarations(h, list), 4);
  EXPECT_TRUE(CheckDeclaration(
                  h, payload("declare four_jacks:JC,JD,JH,JS run:9C,TC,JC"))
                  .ok());
  EXPECT_EQ(
      DeclarationPoints(payload("declare four_jacks:JC,JD,JH,JS run:9C,TC,JC")),
      220);
  // FOUR kings + FOUR queens = 200.
  h = Cards("QC KC QD KD QH KH QS KS");
  EXPECT_EQ(ListDeclarations(h, list), 4);
  EXPECT_EQ(list[3], payload("declare four:QC,QD,QH,QS four:KC,KD,KH,KS"));
  EXPECT_EQ(DeclarationPoints(list[3]), 200);
  // RUN 8C 9C TC from 7C 8C 9C JC ...: TC not held.
  h = Cards("7C 8C 9C JC QD KD AD AH");
  EXPECT_THAT(
      CheckDeclaration(h, payload("declare run:8C9CTC")),
      MsgStartsWith("KR-8.3: RUN 8C 9C TC is not in your hand (TC not held)"));
  // Run values: 3 = 20, 4 = 50, 5..8 = 100.
  EXPECT_EQ(DeclarationPoints(payload("declare run:7C8C9C")), 20);
  EXPECT_EQ(DeclarationPoints(payload("declare run:7C8C9CTC")), 50);
  EXPECT_EQ(DeclarationPoints(payload("declare run:7C8C9CTCJC")), 100);
  EXPECT_EQ(DeclarationPoints(payload("declare four:AC,AD,AH,AS")), 100);
  EXPECT_EQ(DeclarationPoints(payload("declare four_jacks:JC,JD,JH,JS")), 200);
  // Four 9s are no combination: nothing to list.
  EXPECT_EQ(ListDeclarations(Cards("9C 9D 9H 9S 7C 7D 7H 7S"), list), 1);
}

// KR-8.3: the list is every subset of the held items, ascending, each once.
TEST(KrakenRulesTest, ListDeclarationsIsEverySubset_KR_8_3) {
  std::array<uint32_t, kMaxDeclarations> list;
  const CardMask h = Cards("9C TC JC JD JH JS 9D TD");  // jacks + two runs
  ASSERT_EQ(ListDeclarations(h, list), 8);
  for (int i = 1; i < 8; ++i) EXPECT_LT(list[i - 1], list[i]);
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(CheckDeclaration(h, list[i]).ok());
    EXPECT_TRUE(Decode(DeclareAction(list[i])).ok());
  }
}

// E5 (KR-8.4): the contest.
TEST(KrakenRulesTest, E5_DeclarationContest_KR_8_4) {
  auto payload = [](absl::string_view text) {
    return PayloadOf(testing::Parse(text));
  };
  std::array<uint32_t, 4> p{};
  p[1] = payload("declare run:7C8C9CTC");      // 50
  p[2] = payload("declare run:7D8D9DTDJD");    // 100
  p[3] = payload("declare four:KC,KD,KH,KS");  // 100
  p[0] = payload("declare run:7H8H9H");        // 20
  ContestResult r = DeclarationContest(p, /*eldest=*/1);
  EXPECT_EQ(r.best_value, 100);
  EXPECT_EQ(r.winner_seat, 2);  // first in order s1 s2 s3 s0 with 100
  EXPECT_EQ(r.points[0], 120);
  EXPECT_EQ(r.points[1], 0);
  p[2] = 0;  // had s2 declared nothing, s3 wins
  r = DeclarationContest(p, 1);
  EXPECT_EQ(r.winner_seat, 3);
  EXPECT_EQ(r.points[1], 150);
  EXPECT_EQ(r.points[0], 0);
  // Ruling (KR-8.4 [fill]): the tie-break is the KR-8.1 order, so with
  // eldest s3 the same declarations make s3 win over s2.
  p[2] = payload("declare run:7D8D9DTDJD");
  r = DeclarationContest(p, 3);
  EXPECT_EQ(r.winner_seat, 3);
  // Nothing declared: nobody scores.
  r = DeclarationContest({0, 0, 0, 0}, 1);
  EXPECT_EQ(r.winner_seat, -1);
  EXPECT_EQ(r.points[0] + r.points[1], 0);
}

// E11 (KR-14 round scoring: KR-14.3, KR-14.4, KR-14.5 success and failure,
// KR-7.6): scoring edge cases. raw given as makers /
// defenders; makers are team 0 here, then again as team 1.
TEST(KrakenRulesTest, E11_ScoringEdgeCases_KR_14) {
  struct Row {
    int level, trump, makers, defenders;
    bool spades_double;
    int want_makers, want_defenders;
  };
  const Row rows[] = {
      {0, kHearts, 82, 70, true, 82, 70},
      {0, kHearts, 76, 76, true, 0, 152},
      {1, kHearts, 76, 76, true, 304, 0},
      {2, kSpades, 100, 72, true, 800, 576},
      {3, kSpades, 100, 72, true, 2752, 0},
      {0, kSpades, 100, 72, false, 100, 72},
  };
  for (int maker_team : {0, 1}) {
    for (const Row& r : rows) {
      std::array<int, 2> raw{};
      raw[maker_team] = r.makers;
      raw[1 - maker_team] = r.defenders;
      const RawScoring s =
          ScoreFromRaw(raw, r.level, r.trump, maker_team, r.spades_double);
      EXPECT_EQ(s.score[maker_team], r.want_makers) << r.level;
      EXPECT_EQ(s.score[1 - maker_team], r.want_defenders) << r.level;
    }
  }
}

// KR-7.5 / KR-14.4 factor and KR-7.6 burden team.
TEST(KrakenRulesTest, FactorAndBurden_KR_7_5_KR_7_6_KR_14_4) {
  EXPECT_EQ(BurdenTeam(0, 1), 1);
  EXPECT_EQ(BurdenTeam(1, 1), 0);
  EXPECT_EQ(BurdenTeam(2, 1), 1);
  EXPECT_EQ(BurdenTeam(3, 1), 0);
  for (int level = 0; level < 4; ++level) {
    EXPECT_EQ(ScoreFromRaw({90, 62}, level, kHearts, 0, true).factor,
              1 << level);
    EXPECT_EQ(ScoreFromRaw({90, 62}, level, kSpades, 0, true).factor,
              2 << level);
    EXPECT_EQ(ScoreFromRaw({90, 62}, level, kSpades, 0, false).factor,
              1 << level);
  }
  EXPECT_EQ(ScoreFromRaw({90, 62}, 3, kSpades, 0, true).factor, 16);  // max
}

// KR-14.1 / KR-14.2: every component of ScoreRound, built by hand.
TEST(KrakenRulesTest, ScoreRoundComponents_KR_14_1_KR_14_2) {
  RoundFacts f;
  f.trump = kHearts;
  f.maker = 1;
  f.level = 0;
  f.last_trick_bonus = 10;
  f.pit_bonus = 100;
  // Seat 1 leads every trick with the winning card: team 1 takes all 8.
  const char* tricks[8] = {"JH 7C 8C 9C", "9H TC JC QC", "AH KC AC 7D",
                           "TH 8D 9D TD", "KH JD QD KD", "QH AD 7S 8S",
                           "8H 9S TS JS", "7H QS KS AS"};
  for (int t = 0; t < 8; ++t) {
    f.tricks[t] = Trick4(tricks[t]);
    f.leaders[t] = 1;
  }
  f.claimed[0] = true;   // 7C 8C 9C: RUN3 20
  f.claimed[3] = false;  // 8D 9D TD: RUN3, declined
  f.stuk[1] = true;
  f.declarations = {0, 50};
  const RoundScore s = ScoreRound(f);
  EXPECT_EQ(s.tricks_won[1], 8);
  EXPECT_EQ(s.card_points[1], 152);
  EXPECT_EQ(s.card_points[0], 0);
  EXPECT_EQ(s.last_trick[1], 10);
  EXPECT_EQ(s.trick_bonus[1], 20);
  EXPECT_EQ(s.stuk[1], 20);
  EXPECT_EQ(s.declarations[1], 50);
  EXPECT_EQ(s.pit[1], 100);
  EXPECT_EQ(s.raw[1], 152 + 10 + 20 + 20 + 50 + 100);
  EXPECT_EQ(s.raw[0], 0);
  EXPECT_TRUE(s.success);
  EXPECT_EQ(s.burden_team, 1);
  EXPECT_EQ(s.score[1], s.raw[1]);
  EXPECT_EQ(s.score[0], 0);  // KR-1.3: never negative
}

}  // namespace
}  // namespace cardref::kraken
