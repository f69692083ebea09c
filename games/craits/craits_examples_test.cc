// The worked examples E1-E18 of the Craits spec (craits.md section 6), each
// with every variant it lists. Unless stated otherwise: N = 3, default
// parameters, dir = +1, no crank, and every PLAY that leaves one card
// carries announce = true ("!").
#include <numeric>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/craits/craits.h"
#include "games/craits/craits_test_util.h"

namespace cardref::craits {
namespace {

using ::cardref::craits::testing::Apply;
using ::cardref::craits::testing::Build;
using ::cardref::craits::testing::C;
using ::cardref::craits::testing::Cards;
using ::cardref::craits::testing::Deal;
using ::cardref::craits::testing::DeckWithCardAt;
using ::cardref::craits::testing::FillRest;
using ::cardref::craits::testing::HandOf;
using ::cardref::craits::testing::Legal;
using ::cardref::craits::testing::NewGame;
using ::cardref::craits::testing::PlayRandomlyToDeal;
using ::cardref::craits::testing::Rejected;
using ::cardref::craits::testing::Set;
using ::cardref::craits::testing::WhyRejected;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<Card> Identity() {
  std::vector<Card> d(kNumCards);
  std::iota(d.begin(), d.end(), 0);
  return d;
}

std::vector<int> LastScores(const CraitsState& s) {
  const CraitsRoundResult& r = s.round_results().back();
  return std::vector<int>(r.scores.begin(),
                          r.scores.begin() + s.game().num_seats());
}

// E1 (deal, CR-1.4, CR-1.5).
TEST(CraitsExamplesTest, E1_DealThreePlayersDealerTwo) {
  auto game = NewGame(3, "first_dealer=2");
  auto s = game->NewCraitsState();
  EXPECT_EQ(s->dealer(), 2);
  const std::vector<Card> d = Identity();
  ASSERT_TRUE(Deal(*s, d));
  for (int seat = 0; seat < 3; ++seat) {
    CardMask want = 0;  // S0 d0, d3, ..., d21; S1 d1, ..., d22; S2 d2, ...
    for (int k = 0; k < 8; ++k) want |= Bit(d[seat + 3 * k]);
    EXPECT_EQ(HandOf(*s, seat), CardsToString(want)) << "seat " << seat;
  }
  EXPECT_EQ(s->top_card(), d[24]);  // starter QD: no effect
  EXPECT_EQ(s->stock_size(), 27);
  EXPECT_EQ(s->StockTopFirst(), std::vector<Card>(d.begin() + 25, d.end()));
  EXPECT_EQ(s->current_seat(), 0);
}

TEST(CraitsExamplesTest, E1_DealTwoPlayersRoundEight) {
  auto game = NewGame(2, "first_dealer=1");
  auto s = game->NewCraitsState();
  PlayRandomlyToDeal(*s, 8, /*seed=*/11);
  ASSERT_EQ(s->round(), 8);
  EXPECT_EQ(s->dealer(), 0);
  const std::vector<Card> d = Identity();
  ASSERT_TRUE(Deal(*s, d));
  EXPECT_EQ(HandOf(*s, 1), CardsToString(Bit(d[0])));
  EXPECT_EQ(HandOf(*s, 0), CardsToString(Bit(d[1])));
  EXPECT_THAT(s->discard_pile(), ElementsAre(d[2]));
  EXPECT_EQ(s->StockTopFirst(), std::vector<Card>(d.begin() + 3, d.end()));
}

TEST(CraitsExamplesTest, E1_DealFivePlayers) {
  auto game = NewGame(5);
  auto s = game->NewCraitsState();
  EXPECT_EQ(s->dealer(), 0);
  const std::vector<Card> d = Identity();
  ASSERT_TRUE(Deal(*s, d));
  CardMask s1 = 0, s0 = 0;
  for (size_t k = 0; k < 8; ++k) {
    s1 |= Bit(d[5 * k]);      // d0, d5, ..., d35
    s0 |= Bit(d[4 + 5 * k]);  // d4, ..., d39
  }
  EXPECT_EQ(HandOf(*s, 1), CardsToString(s1));
  EXPECT_EQ(HandOf(*s, 0), CardsToString(s0));
  EXPECT_THAT(s->discard_pile(), ElementsAre(d[40]));
  EXPECT_EQ(s->stock_size(), 11);
  EXPECT_EQ(s->StockTopFirst(), std::vector<Card>(d.begin() + 41, d.end()));
}

// E2 (schedule, CR-1.1, CR-1.2).
TEST(CraitsExamplesTest, E2_ScheduleAndDealers) {
  std::vector<int> full;
  for (int r = 1; r <= 15; ++r) full.push_back(HandSizeForRound(r));
  EXPECT_THAT(full, ElementsAre(8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8));
  EXPECT_EQ(NewGame(3)->craits_params().num_rounds(), 15);
  EXPECT_EQ(NewGame(3, "game_length=SHORT")->craits_params().num_rounds(), 8);

  auto game = NewGame(3, "first_dealer=1");
  auto s = game->NewCraitsState();
  std::vector<int> dealers;
  for (int r = 1; r <= 5; ++r) {
    PlayRandomlyToDeal(*s, r, /*seed=*/r);
    dealers.push_back(s->dealer());
    ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("KC"), 3 * HandSizeForRound(r))));
    // The starter KC has no effect: every seat holds h cards.
    for (int seat = 0; seat < 3; ++seat) {
      EXPECT_EQ(s->hand_size(seat), HandSizeForRound(r));
    }
  }
  EXPECT_THAT(dealers, ElementsAre(1, 2, 0, 1, 2));
}

TEST(CraitsExamplesTest, E2_ShortGameEndsAfterRoundEight) {
  auto game = NewGame(3, "game_length=SHORT");
  auto s = game->NewCraitsState();
  std::vector<int> sizes;
  Rng rng(5);
  Card cards[64];
  ActionList legal;
  while (!s->IsTerminal()) {
    if (s->IsChance()) {
      const bool deal = s->chance_kind() == ChanceKind::kDeal;
      const int n = s->ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards, n));
      ASSERT_TRUE(s->ApplyChance(s->chance_kind(),
                                 absl::MakeConstSpan(cards, n)).ok());
      if (deal) sizes.push_back(s->hand_size(s->dealer()));
      continue;
    }
    s->LegalActions(legal);
    ASSERT_TRUE(s->ApplyAction(legal[rng.Uniform(legal.size())]).ok());
  }
  EXPECT_THAT(sizes, ElementsAre(8, 7, 6, 5, 4, 3, 2, 1));
  EXPECT_EQ(s->rounds_completed(), 8);
}

// E3 (matching, CR-4.1 - CR-4.3).
CraitsPosition E3Position(const char* hand) {
  CraitsPosition p;
  p.discard = Cards("7H");
  p.hands[0] = Cards(hand);
  p.hands[1] = Cards("QC QD");
  p.hands[2] = Cards("JC JD");
  return p;
}

TEST(CraitsExamplesTest, E3_Matching) {
  auto game = NewGame(3);
  auto s = Build(*game, E3Position("2H 7C 8S 9D KS AH"));
  EXPECT_EQ(Legal(*s),
            "play 7C, play AH, play 2H, play 8S:C, play 8S:D, play 8S:H, "
            "play 8S:S");  // 7 actions
  EXPECT_TRUE(Rejected(*s, "play 9D:D", "CR-4.1"));
  EXPECT_THAT(WhyRejected(*s, "play 9D:D"),
              HasSubstr("9D is not playable on 7H (active suit H)"));
  EXPECT_TRUE(Rejected(*s, "play KS", "CR-4.1"));
  EXPECT_TRUE(Rejected(*s, "draw", "CR-4.3"));
}

TEST(CraitsExamplesTest, E3_MatchingNinesWild) {
  auto game = NewGame(3, "nines_wild=true");
  auto s = Build(*game, E3Position("2H 7C 8S 9D KS AH"));
  EXPECT_EQ(Legal(*s),
            "play 7C, play 9D:D, play 9D:H, play AH, play 2H, play 8S:C, "
            "play 8S:D, play 8S:H, play 8S:S");  // 9 actions
}

TEST(CraitsExamplesTest, E3_NothingPlayableOnlyDraw) {
  auto game = NewGame(3);
  auto s = Build(*game, E3Position("9D KS"));
  EXPECT_EQ(Legal(*s), "draw");
}

// E4 (8 and 9, CR-6.1).
TEST(CraitsExamplesTest, E4a_EightNamedDiamonds) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("8S");
  p.active_suit = kDiamonds;
  p.hands[0] = Cards("8C 5S 3D KH");
  p.hands[1] = Cards("QC QD");
  auto s = Build(*game, p);
  EXPECT_EQ(Legal(*s),
            "play 8C:C, play 8C:D, play 8C:H, play 8C:S, play 3D");
  EXPECT_TRUE(Rejected(*s, "play 5S", "CR-4.1"));
  EXPECT_TRUE(Rejected(*s, "play KH", "CR-4.1"));
}

TEST(CraitsExamplesTest, E4b_NineNamesOwnOrPartnerSuit) {
  for (bool wild : {false, true}) {
    auto game = NewGame(3, wild ? "nines_wild=true" : "");
    CraitsPosition p;
    p.discard = Cards("4C");
    p.hands[0] = Cards("9C 9H 4D");
    p.hands[1] = Cards("QC QD");
    auto s = Build(*game, p);
    if (!wild) {
      EXPECT_EQ(Legal(*s), "play 9C:C, play 9C:S, play 4D");
      EXPECT_TRUE(Rejected(*s, "play 9H:H", "CR-4.1"));
    } else {
      EXPECT_EQ(Legal(*s),
                "play 9C:C, play 9C:S, play 4D, play 9H:D, play 9H:H");
    }
    EXPECT_TRUE(Rejected(*s, "play 9C:H", "CR-16.2"));
  }
}

TEST(CraitsExamplesTest, E4c_AfterNineNamingSpades) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("5C");
  p.hands[0] = Cards("9C KD QD");
  p.hands[1] = Cards("9H QS 4C 8D");
  p.hands[2] = Cards("JC JD");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 9C:S"));
  EXPECT_EQ(s->active_suit(), kSpades);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(Legal(*s),
            "play 8D:C, play 8D:D, play 8D:H, play 8D:S, play 9H:D, "
            "play 9H:H, play QS");
  EXPECT_TRUE(Rejected(*s, "play 4C", "CR-4.1"));
}

// E5 (the crank, the seed's 2-A-2 example, CR-7).
TEST(CraitsExamplesTest, E5_Crank) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("5H");
  p.hands[0] = Cards("2H QC 4H 6S");
  p.hands[1] = Cards("AS KH 2C");
  p.hands[2] = Cards("2D 7S");
  p.stock = Cards("KC KD QS JS TS 9S 2S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2H"));
  EXPECT_EQ(s->crank_count(), 2);
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(Legal(*s), "play 2C, play AS");  // not KH, not DRAW
  EXPECT_TRUE(Rejected(*s, "play KH", "CR-7.2"));
  EXPECT_TRUE(Rejected(*s, "draw", "CR-7.3"));
  ASSERT_TRUE(Apply(*s, "play AS"));
  EXPECT_EQ(s->crank_count(), 3);
  EXPECT_EQ(s->active_suit(), kSpades);
  EXPECT_EQ(Legal(*s), "play 2D, play 2D!");  // announce true or false
  ASSERT_TRUE(Apply(*s, "play 2D!"));
  EXPECT_EQ(s->crank_count(), 5);
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(Legal(*s), "draw");
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(s->hand_size(0), 8);  // drew 5
  EXPECT_EQ(HandOf(*s, 0), Set("QC 4H 6S KC KD QS JS TS"));
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_EQ(s->phase(), Phase::kTurn);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->top_card(), C("2D"));
  EXPECT_EQ(s->active_suit(), kDiamonds);
  EXPECT_EQ(Legal(*s), "play 2C, play 2C!");  // only 2C, by rank
  ASSERT_TRUE(Apply(*s, "play 2C!"));
  EXPECT_EQ(s->crank_count(), 2);
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_EQ(Legal(*s), "draw");  // S2 {7S}
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(HandOf(*s, 2), Set("7S 9S 2S"));  // 9S, then the stock's 2S
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(s->phase(), Phase::kTurn);
  EXPECT_EQ(s->top_card(), C("2C"));
  EXPECT_EQ(s->active_suit(), kClubs);
}

// E6 (missed turns, CR-3.1).
TEST(CraitsExamplesTest, E6a_FlagConsumedWhenTheCrankReachesIt) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("5H");
  p.seat_to_act = 2;
  p.missed[0] = true;
  p.hands[0] = Cards("QC QD");
  p.hands[1] = Cards("AS KC");
  p.hands[2] = Cards("2H 7S 7D");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2H"));
  EXPECT_EQ(s->crank_count(), 2);
  EXPECT_FALSE(s->missed_turn(0));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->phase(), Phase::kCrank);
}

TEST(CraitsExamplesTest, E6b_FlagNotConsumedWhenSkippedByFour) {
  auto game = NewGame(4);
  CraitsPosition p;
  p.discard = Cards("4H");
  p.seat_to_act = 1;
  p.missed[2] = true;
  p.hands[0] = Cards("QS 5D");
  p.hands[1] = Cards("4S JS 3C");
  p.hands[2] = Cards("9C 2D");
  p.hands[3] = Cards("KS QC");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 4S"));
  EXPECT_EQ(s->current_seat(), 3);
  EXPECT_TRUE(s->missed_turn(2));
  ASSERT_TRUE(Apply(*s, "play KS!"));
  EXPECT_EQ(s->current_seat(), 0);
  ASSERT_TRUE(Apply(*s, "play QS!"));
  EXPECT_EQ(s->current_seat(), 1);
  ASSERT_TRUE(Apply(*s, "play JS!"));
  EXPECT_EQ(s->current_seat(), 3);  // the turn would pass to S2: S3 instead
  EXPECT_FALSE(s->missed_turn(2));
}

TEST(CraitsExamplesTest, E6c_CallThenTheCrankSkipsTheFool) {
  for (const char* s1 : {"AS 2C KD", "AS KD 9C"}) {
    auto game = NewGame(2, "fool_mode=CALL");
    CraitsPosition p;
    p.discard = Cards("5H");
    p.hands[0] = Cards("2H 7C");
    p.hands[1] = Cards(s1);
    p.stock = Cards("QH JH TC TD 9D");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, "play 2H"));  // leaves one card, announce false
    EXPECT_EQ(s->crank_count(), 2);
    EXPECT_EQ(s->vulnerable(), 0);
    EXPECT_THAT(Legal(*s), HasSubstr("fool 0"));
    ASSERT_TRUE(Apply(*s, "fool 0"));
    EXPECT_EQ(HandOf(*s, 0), Set("7C QH JH"));
    EXPECT_TRUE(s->missed_turn(0));
    EXPECT_EQ(s->vulnerable(), -1);
    EXPECT_EQ(s->current_seat(), 1);  // the call is not a turn
    ASSERT_TRUE(Apply(*s, "play AS"));
    EXPECT_EQ(s->crank_count(), 3);
    EXPECT_EQ(s->current_seat(), 1);  // the turn skips S0
    EXPECT_FALSE(s->missed_turn(0));
    if (std::string(s1) == "AS 2C KD") {
      EXPECT_EQ(Legal(*s), "play 2C, play 2C!");
    } else {
      EXPECT_EQ(Legal(*s), "draw");
      ASSERT_TRUE(Apply(*s, "draw"));
      EXPECT_EQ(HandOf(*s, 1), Set("KD 9C TC TD 9D"));  // DRAW 3
      EXPECT_EQ(s->phase(), Phase::kTurn);
    }
  }
}

// E7 (4 and T, CR-6.1).
TEST(CraitsExamplesTest, E7_FourAndTenWithFourPlayers) {
  auto game = NewGame(4);
  CraitsPosition p;
  p.discard = Cards("9D");
  p.seat_to_act = 1;
  p.hands[0] = Cards("QS QC QH");
  p.hands[1] = Cards("4D KC KH");
  p.hands[2] = Cards("TC JC JH");
  p.hands[3] = Cards("TD JS 3S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 4D"));
  EXPECT_EQ(s->current_seat(), 3);
  ASSERT_TRUE(Apply(*s, "play TD"));
  EXPECT_EQ(s->dir(), -1);
  EXPECT_EQ(s->current_seat(), 2);
  ASSERT_TRUE(Apply(*s, "play TC"));
  EXPECT_EQ(s->dir(), 1);
  EXPECT_EQ(s->current_seat(), 3);

  p = CraitsPosition();
  p.discard = Cards("4C");
  p.dir = -1;
  p.seat_to_act = 1;
  p.hands[0] = Cards("QS QC");
  p.hands[1] = Cards("4H KC KH");
  p.hands[2] = Cards("JC JH");
  p.hands[3] = Cards("JS 3S");
  s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 4H"));
  EXPECT_EQ(s->current_seat(), 3);  // S0 skipped
}

TEST(CraitsExamplesTest, E7_FourAndTenWithTwoPlayers) {
  for (bool skips : {false, true}) {
    auto game = NewGame(2, skips ? "two_player_ten_skips=true" : "");
    CraitsPosition p;
    p.discard = Cards("4D");
    p.hands[0] = Cards("4C TC KH QH");
    p.hands[1] = Cards("JC JH");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, "play 4C"));
    EXPECT_EQ(s->current_seat(), 0);
    ASSERT_TRUE(Apply(*s, "play TC"));
    EXPECT_EQ(s->dir(), -1);
    EXPECT_EQ(s->current_seat(), skips ? 0 : 1);
  }
}

// E8 (5 and 7, CR-6.1).
TEST(CraitsExamplesTest, E8_FiveDrawsInDirectionOrder) {
  auto game = NewGame(4);
  CraitsPosition p;
  p.discard = Cards("5H");
  p.dir = -1;
  p.seat_to_act = 2;
  p.hands[0] = Cards("QS QC");
  p.hands[1] = Cards("JC JH");
  p.hands[2] = Cards("5S KC KH");
  p.hands[3] = Cards("JS 3S");
  p.stock = Cards("KD 3C 8H 9H");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5S"));
  EXPECT_EQ(HandOf(*s, 1), Set("JC JH KD"));
  EXPECT_EQ(HandOf(*s, 0), Set("QS QC 3C"));
  EXPECT_EQ(HandOf(*s, 3), Set("JS 3S 8H"));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->StockTopFirst().front(), C("9H"));
}

TEST(CraitsExamplesTest, E8_SevenDrawerStillPlays) {
  for (bool skips : {false, true}) {
    auto game = NewGame(3, skips ? "seven_skips=true" : "");
    CraitsPosition p;
    p.discard = Cards("7H");
    p.hands[0] = Cards("7C KC KH");
    p.hands[1] = Cards("JC JH");
    p.hands[2] = Cards("JS 3S");
    p.stock = Cards("QD QS");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, "play 7C"));
    EXPECT_EQ(HandOf(*s, 1), Set("JC JH QD"));
    EXPECT_EQ(s->current_seat(), skips ? 2 : 1);
    EXPECT_EQ(s->top_card(), C("7C"));
  }
}

// E9 (6, CR-6.2).
TEST(CraitsExamplesTest, E9_SixThenForcedDraw) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("QH");
  p.seat_to_act = 1;
  p.hands[0] = Cards("JC JD");
  p.hands[1] = Cards("6H KC 3S");
  p.hands[2] = Cards("JS 3D");
  p.stock = Cards("6C 5D");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 6H"));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(Legal(*s), "draw");  // no heart, no 6, no 8
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(HandOf(*s, 1), Set("KC 3S 6C"));  // playable, but not this turn
  EXPECT_EQ(s->current_seat(), 2);
}

// E10 (starter, CR-8). Dealer S0, N = 3, round 1: the starter is d[24].
struct StarterCase {
  const char* starter;
  int first_to_act;
};

TEST(CraitsExamplesTest, E10_StarterWithoutEffect) {
  for (const char* card : {"AH", "3H", "JH", "QH", "KH"}) {
    auto game = NewGame(3);
    auto s = game->NewCraitsState();
    ASSERT_TRUE(Deal(*s, DeckWithCardAt(C(card), 24)));
    EXPECT_EQ(s->current_seat(), 1) << card;
    EXPECT_EQ(s->phase(), Phase::kTurn);
    EXPECT_EQ(s->active_suit(), kHearts);
  }
}

TEST(CraitsExamplesTest, E10_StarterTwoStartsACrank) {
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("2H"), 24)));
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_EQ(s->crank_count(), 2);
  EXPECT_EQ(s->current_seat(), 1);
  // S1 must answer with an ace or 2, or DRAW 2 when it holds neither.
  const CardMask crank_cards = RankMask(kAce) | RankMask(kTwo);
  ActionList legal;
  s->LegalActions(legal);
  for (Action a : legal) {
    if (a == kDrawAction) {
      EXPECT_EQ(s->hand(1) & crank_cards, 0u);
    } else {
      EXPECT_NE(Bit(ActionCard(a)) & crank_cards, 0u) << s->ActionToString(a);
    }
  }
}

TEST(CraitsExamplesTest, E10_StarterFourSixTen) {
  const StarterCase cases[] = {{"4H", 2}, {"6H", 0}, {"TH", 2}};
  for (const StarterCase& c : cases) {
    auto game = NewGame(3);
    auto s = game->NewCraitsState();
    ASSERT_TRUE(Deal(*s, DeckWithCardAt(C(c.starter), 24)));
    EXPECT_EQ(s->current_seat(), c.first_to_act) << c.starter;
    EXPECT_EQ(s->dir(), RankOf(C(c.starter)) == kTen ? -1 : 1);
  }
}

TEST(CraitsExamplesTest, E10_StarterFiveAndSeven) {
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  std::vector<Card> d = DeckWithCardAt(C("5H"), 24);
  ASSERT_TRUE(Deal(*s, d));
  EXPECT_EQ(s->hand_size(1), 9);  // S1 then S2 draw one card each
  EXPECT_EQ(s->hand_size(2), 9);
  EXPECT_EQ(s->hand_size(0), 8);
  EXPECT_NE(s->hand(1) & Bit(d[25]), 0u);
  EXPECT_NE(s->hand(2) & Bit(d[26]), 0u);
  EXPECT_EQ(s->current_seat(), 1);

  for (bool skips : {false, true}) {
    auto g7 = NewGame(3, skips ? "seven_skips=true" : "");
    auto s7 = g7->NewCraitsState();
    d = DeckWithCardAt(C("7H"), 24);
    ASSERT_TRUE(Deal(*s7, d));
    EXPECT_EQ(s7->hand_size(1), 9);  // S1 draws 1 ...
    EXPECT_NE(s7->hand(1) & Bit(d[25]), 0u);
    EXPECT_EQ(s7->current_seat(), skips ? 2 : 1);  // ... and acts
  }
}

TEST(CraitsExamplesTest, E10_StarterEightAndNineNameSuit) {
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("8H"), 24)));
  EXPECT_EQ(s->phase(), Phase::kNameSuit);
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(Legal(*s), "suit C, suit D, suit H, suit S");
  ASSERT_TRUE(Apply(*s, "suit S"));
  EXPECT_EQ(s->active_suit(), kSpades);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->phase(), Phase::kTurn);

  s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("9H"), 24)));
  EXPECT_EQ(Legal(*s), "suit D, suit H");
  EXPECT_TRUE(Rejected(*s, "suit C", "CR-8.2"));
}

TEST(CraitsExamplesTest, E10_TwoPlayerStarters) {
  auto game = NewGame(2);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("4H"), 16)));
  EXPECT_EQ(s->current_seat(), 0);
  s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("TH"), 16)));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->dir(), -1);
  auto skips = NewGame(2, "two_player_ten_skips=true");  // CR-8.3 table
  s = skips->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("TH"), 16)));
  EXPECT_EQ(s->current_seat(), 0);
}

// E11 (going out on a 7, CR-11.2a, CR-13).
TEST(CraitsExamplesTest, E11_GoingOutOnASeven) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("KH");
  p.hands[0] = Cards("7H");
  p.hands[1] = Cards("KS 3D");
  p.hands[2] = Cards("5S 5D");
  p.stock = Cards("8C 9C");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 7H"));
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[1]), Set("KS 3D 8C"));
  EXPECT_THAT(LastScores(*s), ElementsAre(0, 10, 60));
  EXPECT_FALSE(s->round_results()[0].exhausted);
  EXPECT_TRUE(s->IsChance());
  EXPECT_EQ(s->round(), 2);
}

// E12 (going out on a 2, CR-11.3).
TEST(CraitsExamplesTest, E12_GoingOutOnATwo) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("9S");
  p.hands[0] = Cards("2S");
  p.hands[1] = Cards("AD KH");
  p.hands[2] = Cards("QC 4H");
  p.stock = Cards("8D 3C JH");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(s->crank_count(), 2);
  EXPECT_EQ(s->phase(), Phase::kPostOut);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(Legal(*s), "play AD");  // its only legal action, announce false
  EXPECT_TRUE(Rejected(*s, "play AD!", "CR-10.1"));
  ASSERT_TRUE(Apply(*s, "play AD"));
  EXPECT_EQ(s->crank_count(), 3);
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_EQ(Legal(*s), "draw");
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[2]),
            Set("QC 4H 8D 3C JH"));
  EXPECT_THAT(LastScores(*s), ElementsAre(0, 10, 35));
}

TEST(CraitsExamplesTest, E12_TwoPlayersCrankLapses) {
  auto game = NewGame(2);
  CraitsPosition p;
  p.discard = Cards("9S");
  p.hands[0] = Cards("2S");
  p.hands[1] = Cards("AD KH");
  p.stock = Cards("8D 3C JH");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(Legal(*s), "play AD");
  ASSERT_TRUE(Apply(*s, "play AD"));
  // No other seat holds cards: the crank lapses and the round is over.
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_THAT(LastScores(*s), ElementsAre(0, 10));
}

TEST(CraitsExamplesTest, E12_TwoPlayersLoserDraws) {
  auto game = NewGame(2);
  CraitsPosition p;
  p.discard = Cards("9S");
  p.hands[0] = Cards("2S");
  p.hands[1] = Cards("KH");
  p.stock = Cards("8D 3C JH");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(Legal(*s), "draw");
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[1]), Set("KH 8D 3C"));
  EXPECT_THAT(LastScores(*s), ElementsAre(0, 10));  // the 3 cancels 8D
}

// E13 (other last cards, CR-11.2).
TEST(CraitsExamplesTest, E13_LastCardFive) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("5C");
  p.seat_to_act = 1;
  p.hands[0] = Cards("KC");
  p.hands[1] = Cards("5H");
  p.hands[2] = Cards("QC");
  p.stock = Cards("JD QD");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5H"));
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[2]), Set("QC JD"));
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[0]), Set("KC QD"));
  EXPECT_THAT(LastScores(*s), ElementsAre(20, 0, 20));
}

TEST(CraitsExamplesTest, E13_LastCardWithoutDraws) {
  for (const char* play : {"play 4H", "play 6H", "play TH", "play 8H:C"}) {
    auto game = NewGame(3);
    CraitsPosition p;
    p.discard = Cards("QH");
    p.seat_to_act = 1;
    p.hands[0] = Cards("KC");
    p.hands[1] = Cards(std::string(play).substr(5, 2));
    p.hands[2] = Cards("QC");
    p.stock = Cards("JD QD");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, play));
    ASSERT_EQ(s->rounds_completed(), 1) << play;
    EXPECT_THAT(LastScores(*s), ElementsAre(10, 0, 10)) << play;  // no draws
  }
}

// E14 (fool, CALL, CR-10).
CraitsPosition E14Position() {
  CraitsPosition p;
  p.discard = Cards("QH");
  p.hands[0] = Cards("KH 5C");
  p.hands[1] = Cards("KD 7D 7S");
  p.hands[2] = Cards("KS 7C 4C");
  p.stock = Cards("2C 3C");
  return p;
}

TEST(CraitsExamplesTest, E14_FoolCalled) {
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, E14Position());
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(s->hand_size(0), 1);
  EXPECT_EQ(s->vulnerable(), 0);
  EXPECT_THAT(Legal(*s), HasSubstr("fool 0"));
  ASSERT_TRUE(Apply(*s, "fool 0"));
  EXPECT_EQ(HandOf(*s, 0), Set("5C 2C 3C"));  // 3 cards
  EXPECT_TRUE(s->missed_turn(0));
  EXPECT_EQ(s->current_seat(), 1);
  ASSERT_TRUE(Apply(*s, "play KD"));
  EXPECT_EQ(s->current_seat(), 2);
  ASSERT_TRUE(Apply(*s, "play KS"));
  EXPECT_EQ(s->current_seat(), 1);  // the turn skips S0
}

TEST(CraitsExamplesTest, E14_NoCallThenTooLate) {
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, E14Position());
  ASSERT_TRUE(Apply(*s, "play KH"));
  ASSERT_TRUE(Apply(*s, "play KD"));  // S1 plays without calling
  EXPECT_EQ(s->vulnerable(), -1);
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_TRUE(Rejected(*s, "fool 0", "CR-10.4"));
}

TEST(CraitsExamplesTest, E14_AnnouncedNoVulnerableSeat) {
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, E14Position());
  ASSERT_TRUE(Apply(*s, "play KH!"));
  EXPECT_EQ(s->vulnerable(), -1);
  EXPECT_THAT(Legal(*s), ::testing::Not(HasSubstr("fool")));
}

TEST(CraitsExamplesTest, E14_AnnounceFromThreeCardsRejected) {
  auto game = NewGame(3, "fool_mode=CALL");
  CraitsPosition p = E14Position();
  p.hands[0] = Cards("KH 5C 5D");
  auto s = Build(*game, p);
  EXPECT_TRUE(Rejected(*s, "play KH!", "CR-10.1"));
}

// E15 (fool, AUTO).
TEST(CraitsExamplesTest, E15_AutoPenaltyEatsTheSixsTurn) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("QH");
  p.hands[0] = Cards("6H 9C");
  p.hands[1] = Cards("KD 7D");
  p.hands[2] = Cards("KS 7C");
  p.stock = Cards("2C 3C 4C");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 6H"));
  EXPECT_EQ(HandOf(*s, 0), Set("9C 2C 3C"));  // drew 2 at once
  EXPECT_FALSE(s->missed_turn(0));  // set, then consumed by the 6's turn
  EXPECT_EQ(s->current_seat(), 1);
}

// E16 (stock exhaustion and the action limit, CR-9, CR-12).
TEST(CraitsExamplesTest, E16_ReshuffleBeforeTheDraw) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("5H 5C JC 7C");
  p.seat_to_act = 2;
  p.hands[2] = Cards("KH 4D");
  FillRest(p, /*seat=*/0);  // stock empty
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_EQ(s->CardsInPlay(), kNumCards);
  EXPECT_EQ(Legal(*s), "draw");
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->chance_kind(), ChanceKind::kReshuffle);
  Card cards[64];
  const int n = s->ChanceCards(absl::MakeSpan(cards));
  EXPECT_THAT(std::vector<Card>(cards, cards + n),
              ElementsAre(C("5C"), C("JC"), C("5H")));
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("JC 5H 5C")).ok());
  EXPECT_EQ(HandOf(*s, 2), Set("KH 4D JC"));
  EXPECT_EQ(s->StockTopFirst(), Cards("5H 5C"));
  EXPECT_THAT(s->discard_pile(), ElementsAre(C("7C")));
  EXPECT_EQ(s->active_suit(), kClubs);
  EXPECT_EQ(s->current_seat(), 0);
}

TEST(CraitsExamplesTest, E16_DrawYieldsNothing) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("7C");
  p.seat_to_act = 2;
  p.hands[2] = Cards("KH 4D");
  FillRest(p, /*seat=*/0);
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_FALSE(s->IsChance());
  EXPECT_EQ(HandOf(*s, 2), Set("KH 4D"));
  EXPECT_EQ(s->current_seat(), 0);  // the turn passes
}

TEST(CraitsExamplesTest, E16_CrankLoserDrawsNothing) {
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("2C");
  p.phase = Phase::kCrank;
  p.count = 4;
  p.seat_to_act = 1;
  p.hands[1] = Cards("KH QH");
  FillRest(p, /*seat=*/0);
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_EQ(s->phase(), Phase::kTurn);
  EXPECT_EQ(s->hand_size(1), 2);
  EXPECT_EQ(s->current_seat(), 2);
}

TEST(CraitsExamplesTest, E16_ActionLimitEndsTheRoundExhausted) {
  for (const char* last : {"play KH", "draw"}) {
    auto game = NewGame(3, "round_action_limit=50");
    CraitsPosition p;
    p.discard = Cards("QH");
    p.actions_this_round = 49;
    p.hands[0] = std::string(last) == "draw" ? Cards("KC 3S 5S")
                                             : Cards("KH 3S 5S");
    p.hands[1] = Cards("KD 7D");
    p.hands[2] = Cards("KS 7C");
    p.stock = Cards("2C");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, last));  // the 50th action, effects, then the end
    ASSERT_EQ(s->rounds_completed(), 1) << last;
    EXPECT_TRUE(s->round_results()[0].exhausted);
    // The 3 cancels 5S: {3S, 5S} 0; after drawing 2C, {KC, 3S, 5S, 2C} 30.
    const int s0 = std::string(last) == "draw" ? 30 : 0;
    EXPECT_THAT(LastScores(*s), ElementsAre(s0, 30, 30));
    EXPECT_TRUE(s->IsChance());  // the next round's deal
    EXPECT_EQ(s->chance_kind(), ChanceKind::kDeal);
    EXPECT_EQ(s->round(), 2);
  }
}

// E17 (hand scores, CR-13).
TEST(CraitsExamplesTest, E17_HandScores) {
  auto score = [](const char* hand) {
    return RoundScore(Cards(hand), SurplusThrees::kMinus50);
  };
  EXPECT_EQ(score(""), 0);
  EXPECT_EQ(score("3S 2H 8C"), 20);
  EXPECT_EQ(score("3S"), -50);
  EXPECT_EQ(score("3S 3D"), -100);
  EXPECT_EQ(score("3S 3D KH"), -50);
  EXPECT_EQ(RoundScore(Cards("3S 3D KH"), SurplusThrees::kZero), 0);
  EXPECT_EQ(score("3D AC"), 0);
  EXPECT_EQ(score("3C 8D 8H 5S"), 80);
  EXPECT_EQ(score("3H 3S 8C 9D 2C"), 20);
  EXPECT_EQ(score("AS 4D TC"), 41);
  EXPECT_EQ(score("7S 7H JD QD KC"), 70);
}

// E18 (game end, CR-14).
TEST(CraitsExamplesTest, E18_LowestTotalsWin) {
  for (const char* length : {"game_length=FULL", "game_length=SHORT"}) {
    auto game = NewGame(3, length);
    CraitsPosition p;
    p.round = game->craits_params().num_rounds();  // the last round
    p.totals = {120, 95, 85};
    p.discard = Cards("QH");
    p.hands[0] = Cards("KH");
    p.hands[1] = Cards("3C KS");  // scores 0
    p.hands[2] = Cards("KD");     // scores 10
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, "play KH"));
    ASSERT_TRUE(s->IsTerminal()) << length;
    EXPECT_THAT(s->totals(), ElementsAre(120, 95, 95));
    EXPECT_THAT(s->Winners(), ElementsAre(1, 2));
    const GameOutcome o = s->Outcome();
    EXPECT_THAT(o.scores, ElementsAre(120, 95, 95));
    EXPECT_THAT(o.ranks, ElementsAre(3, 1, 1));
    EXPECT_THAT(o.winners, ElementsAre(1, 2));
    EXPECT_FALSE(o.higher_score_is_better);
  }
}

}  // namespace
}  // namespace cardref::craits
