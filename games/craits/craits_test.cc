// Craits rules, one or more tests per rule ID (the worked examples are in
// craits_examples_test.cc, random play in craits_random_test.cc), the
// rulings this engine made on spec holes ("Ruling" tests), rejections,
// parameters, the action encoding and notation, and observations.
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/all_games.h"
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
using ::cardref::craits::testing::Legal;
using ::cardref::craits::testing::NewGame;
using ::cardref::craits::testing::HandOf;
using ::cardref::craits::testing::Parse;
using ::cardref::craits::testing::Rejected;
using ::cardref::craits::testing::Set;
using ::cardref::craits::testing::WhyRejected;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// A plain three-seat TURN position: top `top`, S0 to act with `s0`.
CraitsPosition Simple(const char* top, const char* s0,
                      const char* s1 = "QC QD", const char* s2 = "JC JD") {
  CraitsPosition p;
  p.discard = Cards(top);
  p.hands[0] = Cards(s0);
  p.hands[1] = Cards(s1);
  p.hands[2] = Cards(s2);
  return p;
}

// ------------------------------------------------------------ CR-0

TEST(CraitsCardsTest, CR_0_1_CanonicalIdsAndNotation) {
  // CR-0.1
  EXPECT_EQ(C("AC"), 0);
  EXPECT_EQ(C("2C"), 1);
  EXPECT_EQ(C("KC"), 12);
  EXPECT_EQ(C("TH"), 13 * 2 + 9);
  EXPECT_EQ(C("10h"), C("TH"));
  EXPECT_EQ(C("KS"), 51);
  for (int c = 0; c < kNumCards; ++c) {
    const Card card = static_cast<Card>(c);
    EXPECT_EQ(ParseCard(CardToString(card)).value(), card);
    EXPECT_EQ(MakeCard(SuitOf(card), RankOf(card)), card);
  }
  EXPECT_FALSE(ParseCard("1H").ok());
  EXPECT_FALSE(ParseCard("TX").ok());
  EXPECT_THAT(std::string(ParseCard("ZZ").status().message()),
              HasSubstr("CR-0.1"));
}

TEST(CraitsCardsTest, CR_0_2_PartnerSuits) {
  // CR-0.2
  EXPECT_EQ(PartnerSuit(kClubs), kSpades);
  EXPECT_EQ(PartnerSuit(kSpades), kClubs);
  EXPECT_EQ(PartnerSuit(kDiamonds), kHearts);
  EXPECT_EQ(PartnerSuit(kHearts), kDiamonds);
}

TEST(CraitsParamsTest, CR_0_3_NumPlayers) {
  // CR-0.3
  const GameInfo info = MakeGameInfo();
  EXPECT_EQ(info.min_seats, 2);
  EXPECT_EQ(info.max_seats, 5);
  for (int n = 2; n <= 5; ++n) EXPECT_EQ(NewGame(n)->num_seats(), n);
  for (int64_t n : {1, 6}) {
    GameParams p;
    p.Set("num_players", n);
    absl::StatusOr<std::unique_ptr<Game>> g = info.create(p);
    EXPECT_FALSE(g.ok());
    EXPECT_THAT(std::string(g.status().message()), HasSubstr("CR-0.3"));
  }
}

TEST(CraitsParamsTest, CR_0_4_SchemaNamesAndDefaults) {
  // CR-0.4
  const GameInfo info = MakeGameInfo();
  EXPECT_EQ(info.id, "craits");
  EXPECT_EQ(info.display_name, "Craits");
  EXPECT_EQ(info.rules_prefix, "CR");
  EXPECT_EQ(info.rules_version, 1);
  std::vector<std::string> names;
  for (const ParamSpec& s : info.params) names.push_back(s.name);
  EXPECT_THAT(names,
              ElementsAre("num_players", "game_length", "first_dealer",
                          "fool_mode", "voluntary_draw", "nines_wild",
                          "seven_skips", "two_player_ten_skips",
                          "surplus_threes", "round_action_limit"));
  absl::StatusOr<std::unique_ptr<Game>> g = info.create(GameParams());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)->params().ToString(),
            "first_dealer=0,fool_mode=AUTO,game_length=FULL,nines_wild=false,"
            "num_players=4,round_action_limit=1000,seven_skips=false,"
            "surplus_threes=MINUS_50,two_player_ten_skips=false,"
            "voluntary_draw=false");
  EXPECT_EQ((*g)->id(), "craits");
  EXPECT_EQ((*g)->rules_version(), 1);
  // The registry serves it.
  EXPECT_TRUE(AllGames().Find("craits").ok());
}

TEST(CraitsParamsTest, CR_0_4_RejectsValuesOutsideTheTable) {
  // CR-0.4
  const GameInfo info = MakeGameInfo();
  auto error = [&info](const char* text) {
    absl::StatusOr<GameParams> p = ParseParams(text, info.params);
    if (!p.ok()) return std::string(p.status().message());
    absl::StatusOr<std::unique_ptr<Game>> g = info.create(*p);
    return g.ok() ? std::string("ok") : std::string(g.status().message());
  };
  EXPECT_THAT(error("num_players=3,first_dealer=3"),
              HasSubstr("CR-0.4: first_dealer must be in 0..2"));
  EXPECT_EQ(error("num_players=3,first_dealer=2"), "ok");
  EXPECT_THAT(error("round_action_limit=49"), HasSubstr("CR-0.4"));
  EXPECT_THAT(error("round_action_limit=100001"), HasSubstr("CR-0.4"));
  EXPECT_EQ(error("round_action_limit=50"), "ok");
  EXPECT_THAT(error("game_length=LONG"), HasSubstr("CR-0.4"));
  EXPECT_THAT(error("fool_mode=MANUAL"), HasSubstr("CR-0.4"));
  EXPECT_THAT(error("surplus_threes=PLUS_50"), HasSubstr("CR-0.4"));
  GameParams unknown;
  unknown.Set("jokers", true);
  EXPECT_THAT(std::string(info.create(unknown).status().message()),
              HasSubstr("CR-0.4: unknown parameter 'jokers'"));
}

TEST(CraitsRulesTest, CR_0_5_NextSeatFollowsDirection) {
  // CR-0.5
  // dir = -1: next(0) = N - 1.
  auto game = NewGame(4);
  CraitsPosition p = Simple("QH", "KH KC KD");
  p.dir = -1;
  p.hands[3] = Cards("JS JH");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(s->current_seat(), 3);
}

// ------------------------------------------------------------ CR-1, CR-2

TEST(CraitsRulesTest, CR_1_3_DealMustBeAPermutation) {
  // CR-1.3
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->chance_kind(), ChanceKind::kDeal);
  EXPECT_EQ(s->current_seat(), -1);
  Card cards[64];
  ASSERT_EQ(s->ChanceCards(absl::MakeSpan(cards)), kNumCards);
  for (int i = 0; i < kNumCards; ++i) EXPECT_EQ(cards[i], i);
  const std::string before = s->DebugString();
  std::vector<Card> order = DeckWithCardAt(0, 0);
  order[5] = order[6];  // a repeat
  absl::Status st = s->ApplyChance(ChanceKind::kDeal, order);
  EXPECT_THAT(std::string(st.message()), HasSubstr("CR-1.3"));
  order.pop_back();  // too short
  EXPECT_FALSE(s->ApplyChance(ChanceKind::kDeal, order).ok());
  EXPECT_THAT(std::string(s->ApplyChance(ChanceKind::kReshuffle,
                                         DeckWithCardAt(0, 0))
                              .message()),
              HasSubstr("CR-1.3: expected a deal event"));
  EXPECT_EQ(s->DebugString(), before);
  // No action is accepted at a chance node.
  EXPECT_FALSE(s->ApplyAction(kDrawAction).ok());
}

TEST(CraitsRulesTest, CR_1_6_RoundStartResetsTheRoundState) {
  // CR-1.6
  auto game = NewGame(3, "fool_mode=CALL");
  CraitsPosition p = Simple("QH", "KH", "QC QD", "JC JD");
  p.dir = -1;
  p.missed[1] = true;
  p.missed[2] = true;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));  // out: round 1 over
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("KC"), 21)));  // round 2, h = 7
  EXPECT_EQ(s->round(), 2);
  EXPECT_EQ(s->dir(), 1);
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_FALSE(s->missed_turn(1));
  EXPECT_FALSE(s->missed_turn(2));
  EXPECT_EQ(s->vulnerable(), -1);
  EXPECT_EQ(s->actions_this_round(), 0);
  EXPECT_EQ(s->dealer(), 1);
  EXPECT_EQ(s->current_seat(), 2);
}

TEST(CraitsRulesTest, CR_2_1_ActiveSuitIsTheNamedSuit) {
  // CR-2.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "8H KC KD"));
  ASSERT_TRUE(Apply(*s, "play 8H:H"));  // its own suit may be named
  EXPECT_EQ(s->active_suit(), kHearts);
  s = Build(*game, Simple("QH", "8C KC KD"));
  ASSERT_TRUE(Apply(*s, "play 8C:S"));
  EXPECT_EQ(s->active_suit(), kSpades);
  EXPECT_EQ(s->top_card(), C("8C"));
}

TEST(CraitsRulesTest, CR_2_2_CountPositiveExactlyInCrankPhases) {
  // CR-2.2
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "2H KC KD", "AC QD QS"));
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_EQ(s->phase(), Phase::kTurn);
  ASSERT_TRUE(Apply(*s, "play 2H"));
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_GT(s->crank_count(), 0);
  EXPECT_EQ(std::string(PhaseName(Phase::kPostOut)), "POST_OUT");
  EXPECT_EQ(std::string(PhaseName(Phase::kNameSuit)), "NAME_SUIT");
}

TEST(CraitsRulesTest, CR_2_3_AtMostOneVulnerableSeat) {
  // CR-2.3
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, Simple("QH", "KH 5C", "KD 5D", "JC JD"));
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(s->vulnerable(), 0);
  ASSERT_TRUE(Apply(*s, "play KD"));  // S1 fails too: V moves to S1
  EXPECT_EQ(s->vulnerable(), 1);
  EXPECT_THAT(Legal(*s), HasSubstr("fool 1"));
  EXPECT_THAT(Legal(*s), Not(HasSubstr("fool 0")));
}

// ------------------------------------------------------------ CR-3

TEST(CraitsRulesTest, CR_3_1_FlagConsumedOnlyWhenTheTurnArrives) {
  // CR-3.1
  // Also E6(b); here a flag survives a 4 and is consumed later.
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "4H KC KD", "QC QD QS", "JC JH JS");
  p.missed[1] = true;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 4H"));  // skips S1
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_TRUE(s->missed_turn(1));
  ASSERT_TRUE(Apply(*s, "play JH"));
  EXPECT_EQ(s->current_seat(), 0);
  ASSERT_TRUE(Apply(*s, "draw"));  // {KC, KD}: no heart
  EXPECT_EQ(s->current_seat(), 2);  // S1's flag consumed
  EXPECT_FALSE(s->missed_turn(1));
}

TEST(CraitsRulesTest, CR_3_2_TurnPassesToTheNextSeat) {
  // CR-3.2
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH KC KD"));
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(s->current_seat(), 1);
}

TEST(CraitsRulesTest, CR_3_3_EffectTargetIgnoresMissedFlags) {
  // CR-3.3
  // The 7's drawer is next(P) even if flagged; the flag then costs its turn.
  auto game = NewGame(3);
  CraitsPosition p = Simple("7H", "7C KC KD", "QC QD", "JC JD");
  p.missed[1] = true;
  p.stock = Cards("5S 6S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 7C"));
  EXPECT_EQ(HandOf(*s, 1), Set("QC QD 5S"));
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_FALSE(s->missed_turn(1));
}

// ------------------------------------------------------------ CR-4

TEST(CraitsRulesTest, CR_4_1_PlayableBySuitRankOrEight) {
  // CR-4.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("7H", "3H 7S 8D 9C KC"));
  EXPECT_EQ(Legal(*s),
            "play 8D:C, play 8D:D, play 8D:H, play 8D:S, play 3H, play 7S");
  EXPECT_THAT(WhyRejected(*s, "play KC"),
              HasSubstr("CR-4.1: KC is not playable on 7H (active suit H)"));
}

TEST(CraitsRulesTest, CR_4_2_MustPlayWhenHoldingAPlayableCard) {
  // CR-4.2
  auto game = NewGame(3);
  auto s = Build(*game, Simple("7H", "3H KC"));
  EXPECT_THAT(Legal(*s), Not(HasSubstr("draw")));
  EXPECT_TRUE(Rejected(*s, "draw", "CR-4.3"));
  EXPECT_THAT(WhyRejected(*s, "draw"), HasSubstr("{3H}"));
}

TEST(CraitsRulesTest, CR_4_3_VoluntaryDraw) {
  // CR-4.3
  auto game = NewGame(3, "voluntary_draw=true");
  CraitsPosition p = Simple("7H", "3H KC");
  p.stock = Cards("2S");
  auto s = Build(*game, p, /*fill=*/false);
  EXPECT_EQ(Legal(*s), "play 3H, play 3H!, draw");
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(HandOf(*s, 0), Set("3H KC 2S"));
  EXPECT_EQ(s->current_seat(), 1);  // exactly one card, turn over

  // Not when the draw would yield nothing (CR-9.3).
  p.stock.clear();
  s = Build(*game, p, /*fill=*/false);
  EXPECT_EQ(Legal(*s), "play 3H, play 3H!");
  EXPECT_TRUE(Rejected(*s, "draw", "CR-4.3"));
  EXPECT_THAT(WhyRejected(*s, "draw"), HasSubstr("must yield a card"));
  // Without a playable card DRAW stays legal even then (it is the pass).
  s = Build(*game, Simple("7H", "KC 5S"), /*fill=*/false);
  EXPECT_EQ(Legal(*s), "draw");
}

// ------------------------------------------------------------ CR-5

TEST(CraitsRulesTest, CR_5_1_PenaltyDrawsBeforeTheEffect) {
  // CR-5.1
  // AUTO: a failure on a 5 - P draws 2 first (step 4), then the others.
  auto game = NewGame(3);
  CraitsPosition p = Simple("5H", "5C 9C", "QC QD", "JC JD");
  p.stock = Cards("AS 2S 3S 4S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5C"));
  EXPECT_EQ(HandOf(*s, 0), Set("9C AS 2S"));
  EXPECT_EQ(HandOf(*s, 1), Set("QC QD 3S"));
  EXPECT_EQ(HandOf(*s, 2), Set("JC JD 4S"));
  EXPECT_EQ(s->current_seat(), 1);
  ASSERT_EQ(s->last_draws().size(), 3u);
  EXPECT_EQ(s->last_draws()[0].cause, DrawCause::kFoolPenalty);
  EXPECT_EQ(s->last_draws()[1].cause, DrawCause::kFive);
}

TEST(CraitsRulesTest, CR_5_1_GoingOutReplacesTheOneCardCheck) {
  // CR-5.1
  // Step (3) before (4): the last card is never a failure.
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH"));
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(s->rounds_completed(), 1);
  EXPECT_EQ(s->round_results()[0].scores[0], 0);
}

// ------------------------------------------------------------ CR-6

TEST(CraitsRulesTest, CR_6_1_OrdinaryRanksPassTheTurn) {
  // CR-6.1
  for (const char* card : {"AH", "3H", "JH", "QH", "KH"}) {
    auto game = NewGame(3);
    auto s = Build(*game, Simple("4H", (std::string(card) + " KC KD").c_str()));
    ASSERT_TRUE(Apply(*s, absl::StrCat("play ", card)));
    EXPECT_EQ(s->current_seat(), 1) << card;
    EXPECT_EQ(s->phase(), Phase::kTurn) << card;  // an ace opens no crank
    EXPECT_EQ(s->crank_count(), 0);
  }
}

TEST(CraitsRulesTest, CR_6_1_FiveWithTwoPlayers) {
  // CR-6.1
  auto game = NewGame(2);
  CraitsPosition p = Simple("5H", "5C 9C KD", "QC QD", "");
  p.stock = Cards("AS 2S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5C"));
  EXPECT_EQ(HandOf(*s, 1), Set("QC QD AS"));
  EXPECT_EQ(HandOf(*s, 0), Set("9C KD"));
  EXPECT_EQ(s->current_seat(), 1);
}

TEST(CraitsRulesTest, CR_6_2_SixChainsAndDrawsIgnoreFlags) {
  // CR-6.2
  auto game = NewGame(3);
  auto s = Build(*game, Simple("6H", "6C 6S KS QS"));
  ASSERT_TRUE(Apply(*s, "play 6C"));
  EXPECT_EQ(s->current_seat(), 0);
  ASSERT_TRUE(Apply(*s, "play 6S"));  // a further 6, a further turn
  EXPECT_EQ(s->current_seat(), 0);
  ASSERT_TRUE(Apply(*s, "play KS"));
  EXPECT_EQ(s->current_seat(), 1);

  // A flagged seat still draws for a 5.
  CraitsPosition p = Simple("5H", "5C 9C KD", "QC QD", "JC JD");
  p.missed[1] = true;
  p.missed[2] = true;
  p.stock = Cards("AS 2S");
  s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5C"));
  EXPECT_EQ(s->hand_size(1), 3);
  EXPECT_EQ(s->hand_size(2), 3);
  EXPECT_EQ(s->current_seat(), 0);  // both flags consumed: back to S0
}

// ------------------------------------------------------------ CR-7

TEST(CraitsRulesTest, CR_7_1_TheOpeningTwoMustBePlayable) {
  // CR-7.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("7H", "2C KC KD"));
  EXPECT_EQ(Legal(*s), "draw");
  EXPECT_TRUE(Rejected(*s, "play 2C", "CR-4.1"));
  s = Build(*game, Simple("2H", "2C KC KD"));  // by rank
  ASSERT_TRUE(Apply(*s, "play 2C"));
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_EQ(s->crank_count(), 2);
}

TEST(CraitsRulesTest, CR_7_2_OnlyAcesAndTwosInACrank) {
  // CR-7.2
  auto game = NewGame(3, "nines_wild=true");
  CraitsPosition p = Simple("2H", "8H 9H 2S AC KH");
  p.phase = Phase::kCrank;
  p.count = 2;
  auto s = Build(*game, p);
  EXPECT_EQ(Legal(*s), "play AC, play 2S");
  EXPECT_TRUE(Rejected(*s, "play 8H:H", "CR-7.2"));
  EXPECT_TRUE(Rejected(*s, "play 9H:H", "CR-7.2"));
  EXPECT_TRUE(Rejected(*s, "play KH", "CR-7.2"));
}

TEST(CraitsRulesTest, CR_7_3_AceAddsOneTwoAddsTwo) {
  // CR-7.3
  auto game = NewGame(3);
  CraitsPosition p = Simple("2H", "AC KH KD", "2D QD QS");
  p.phase = Phase::kCrank;
  p.count = 2;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play AC"));
  EXPECT_EQ(s->crank_count(), 3);
  EXPECT_EQ(s->active_suit(), kClubs);
  ASSERT_TRUE(Apply(*s, "play 2D"));
  EXPECT_EQ(s->crank_count(), 5);
  EXPECT_EQ(s->phase(), Phase::kCrank);
}

TEST(CraitsRulesTest, CR_7_4_VoluntaryDrawNeverInACrank) {
  // CR-7.4
  auto game = NewGame(3, "voluntary_draw=true");
  CraitsPosition p = Simple("2H", "AC KH KD");
  p.phase = Phase::kCrank;
  p.count = 2;
  auto s = Build(*game, p);
  EXPECT_EQ(Legal(*s), "play AC");
  EXPECT_TRUE(Rejected(*s, "draw", "CR-7.3"));
  EXPECT_THAT(WhyRejected(*s, "draw"), HasSubstr("CR-7.4"));
}

TEST(CraitsRulesTest, CR_7_5_PlayResumesOnTheLastCrankCard) {
  // CR-7.5
  auto game = NewGame(3);
  CraitsPosition p = Simple("AS", "KH KD", "2S 5D 5C", "JC JD");
  p.phase = Phase::kCrank;
  p.count = 3;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "draw"));  // S0 takes 3
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(s->active_suit(), kSpades);
  EXPECT_EQ(Legal(*s), "play 2S");  // by suit, and it starts a new crank
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(s->phase(), Phase::kCrank);
  EXPECT_EQ(s->crank_count(), 2);
}

// ------------------------------------------------------------ CR-8

TEST(CraitsRulesTest, CR_8_1_StarterIsTheDealersPlay) {
  // CR-8.1
  // The dealer of round 1 with first_dealer = 2 is S2; a starter 6 lets it
  // act first, a starter 4 skips S0, and the starter never counts as a
  // failure to announce (CR-10 does not apply).
  auto game = NewGame(3, "first_dealer=2,fool_mode=CALL");
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("6S"), 24)));
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_EQ(s->vulnerable(), -1);
  s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("4S"), 24)));
  EXPECT_EQ(s->current_seat(), 1);
}

TEST(CraitsRulesTest, CR_8_2_NameSuitOnlyByTheDealerFirst) {
  // CR-8.2
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("9C"), 24)));
  EXPECT_EQ(s->phase(), Phase::kNameSuit);
  EXPECT_EQ(Legal(*s), "suit C, suit S");
  EXPECT_TRUE(Rejected(*s, "suit H", "CR-8.2"));
  EXPECT_TRUE(Rejected(*s, "draw", "CR-8.2"));
  // The dealer sees its hand while naming (A12).
  EXPECT_EQ(s->Observe(0).hand.size(), 8u);
  EXPECT_FALSE(s->Observe(0).legal_actions.empty());
  ASSERT_TRUE(Apply(*s, "suit S"));
  EXPECT_EQ(s->active_suit(), kSpades);
}

TEST(CraitsRulesTest, CR_8_3_StarterTable) {
  // CR-8.3
  // N = 4, dealer S0.
  const struct {
    const char* starter;
    int first;
  } cases[] = {{"KD", 1}, {"2D", 1}, {"4D", 2}, {"5D", 1}, {"6D", 0},
               {"7D", 1}, {"8D", 0}, {"9D", 0}, {"TD", 3}};
  for (const auto& c : cases) {
    auto game = NewGame(4);
    auto s = game->NewCraitsState();
    ASSERT_TRUE(Deal(*s, DeckWithCardAt(C(c.starter), 32)));
    EXPECT_EQ(s->current_seat(), c.first) << c.starter;
  }
}

// ------------------------------------------------------------ CR-9

TEST(CraitsRulesTest, CR_9_1_DrawsTakeTheTop) {
  // CR-9.1
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "KC KD");
  p.stock = Cards("5S 6S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(HandOf(*s, 0), Set("KC KD 5S"));
  EXPECT_EQ(s->StockTopFirst().front(), C("6S"));
}

TEST(CraitsRulesTest, CR_9_2_ReshuffleInTheMiddleOfAFive) {
  // CR-9.2
  // N = 4: S0's 5 makes S1, S2, S3 draw; the stock holds one card.
  auto game = NewGame(4);
  CraitsPosition p;
  p.discard = Cards("KH QH 5H");
  p.hands[0] = Cards("5C 9C KD");
  p.hands[1] = Cards("QC QD");
  p.hands[2] = Cards("JC JD");
  p.hands[3] = Cards("TC TD");
  p.stock = Cards("AS");
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "play 5C"));
  EXPECT_EQ(HandOf(*s, 1), Set("QC QD AS"));
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->chance_kind(), ChanceKind::kReshuffle);
  EXPECT_EQ(s->current_seat(), -1);
  Card cards[64];
  const int n = s->ChanceCards(absl::MakeSpan(cards));
  EXPECT_THAT(std::vector<Card>(cards, cards + n),
              ElementsAre(C("5H"), C("QH"), C("KH")));
  // A bad order is refused naming CR-9.2 and changes nothing.
  const std::string before = s->DebugString();
  EXPECT_THAT(std::string(s->ApplyChance(ChanceKind::kReshuffle,
                                         Cards("5H QH 5C"))
                              .message()),
              HasSubstr("CR-9.2"));
  EXPECT_EQ(s->DebugString(), before);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("QH 5H KH")).ok());
  EXPECT_EQ(HandOf(*s, 2), Set("JC JD QH"));
  EXPECT_EQ(HandOf(*s, 3), Set("TC TD 5H"));
  EXPECT_EQ(s->StockTopFirst(), Cards("KH"));
  EXPECT_THAT(s->discard_pile(), ElementsAre(C("5C")));
  EXPECT_EQ(s->current_seat(), 1);  // the rest of the effect, then the turn
  EXPECT_EQ(s->active_suit(), kClubs);
}

TEST(CraitsRulesTest, CR_9_3_ObligationLapsesPartly) {
  // CR-9.3
  // A crank loser owes 5 but only 1 card + a one-card discard pile exist.
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("2C");
  p.phase = Phase::kCrank;
  p.count = 5;
  p.hands[0] = Cards("KH QH");
  p.hands[1] = Cards("QC QD");
  p.hands[2] = Cards("JC JD");
  p.stock = Cards("AS");
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_FALSE(s->IsChance());
  EXPECT_EQ(HandOf(*s, 0), Set("KH QH AS"));
  ASSERT_EQ(s->last_draws().size(), 1u);
  EXPECT_EQ(s->last_draws()[0].requested, 5);
  EXPECT_EQ(s->last_draws()[0].drawn, 1);
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_EQ(s->current_seat(), 1);
}

TEST(CraitsRulesTest, CR_9_4_FiveDrawsSeatBySeatFromNext) {
  // CR-9.4
  // See also E8; with dir = +1 and N = 5 the order is S3, S4, S0, S1.
  auto game = NewGame(5);
  CraitsPosition p;
  p.discard = Cards("5H");
  p.seat_to_act = 2;
  p.hands[0] = Cards("TC TD");
  p.hands[1] = Cards("JC JD");
  p.hands[2] = Cards("5S KS QS");
  p.hands[3] = Cards("QC QD");
  p.hands[4] = Cards("KC KD");
  p.stock = Cards("AH 2H 3H 4H 6H");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5S"));
  EXPECT_NE(s->hand(3) & Bit(C("AH")), 0u);
  EXPECT_NE(s->hand(4) & Bit(C("2H")), 0u);
  EXPECT_NE(s->hand(0) & Bit(C("3H")), 0u);
  EXPECT_NE(s->hand(1) & Bit(C("4H")), 0u);
  EXPECT_EQ(s->StockTopFirst().front(), C("6H"));
}

// ------------------------------------------------------------ CR-10

TEST(CraitsRulesTest, CR_10_1_AnnounceOnlyWithOneCardLeft) {
  // CR-10.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH 5C 5D"));
  EXPECT_EQ(Legal(*s), "play KH");
  EXPECT_TRUE(Rejected(*s, "play KH!", "CR-10.1"));
  EXPECT_THAT(WhyRejected(*s, "play KH!"), HasSubstr("leaves 2"));
  s = Build(*game, Simple("QH", "KH"));  // going out: leaves 0
  EXPECT_EQ(Legal(*s), "play KH");
  EXPECT_TRUE(Rejected(*s, "play KH!", "CR-10.1"));
}

TEST(CraitsRulesTest, CR_10_2_SingleDealtCardOwesNothing) {
  // CR-10.2
  // Round 8: one card each; drawing then playing from two cards does owe.
  auto game = NewGame(3, "fool_mode=CALL");
  CraitsPosition p = Simple("QH", "KC", "QC", "JC");
  p.round = 8;
  p.stock = Cards("5S 6S");
  auto s = Build(*game, p);
  EXPECT_EQ(s->vulnerable(), -1);
  ASSERT_TRUE(Apply(*s, "draw"));  // S0 now {KC, 5S}
  ASSERT_TRUE(Apply(*s, "play QC"));  // S1 goes out (Q on QH)
  EXPECT_EQ(s->rounds_completed(), 8);
  EXPECT_THAT(s->round_results()[7].scores, ElementsAre(40, 0, 10, 0, 0));
}

TEST(CraitsRulesTest, CR_10_3_VulnerableClearedByOwnChangeNotByEmptyDraw) {
  // CR-10.3
  // CALL: S0 fails on a 6 (its own turn again). Its DRAW that yields
  // nothing leaves V set (CR-10.7), so S1 may still call.
  auto game = NewGame(3, "fool_mode=CALL");
  CraitsPosition p;
  p.discard = Cards("6H");
  p.hands[0] = Cards("6C KD");
  p.hands[1] = Cards("QC QD");
  p.hands[2] = Cards("JC JD");
  auto s = Build(*game, p, /*fill=*/false);  // stock empty
  ASSERT_TRUE(Apply(*s, "play 6C"));
  EXPECT_EQ(s->vulnerable(), 0);
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(Legal(*s), "draw");  // KD on 6C: nothing; the pile is [6H, 6C]
  // The discard pile has two cards, so this DRAW does yield (a reshuffle):
  // V is cleared.
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_TRUE(s->IsChance());
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("6H")).ok());
  EXPECT_EQ(s->vulnerable(), -1);

  // Now with a one-card discard pile: the DRAW yields nothing, V stays.
  p.discard = Cards("6C");
  p.hands[0] = Cards("KD");
  p.vulnerable = 0;
  s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(s->vulnerable(), 0);
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_THAT(Legal(*s), HasSubstr("fool 0"));
  ASSERT_TRUE(Apply(*s, "fool 0"));  // the penalty draws nothing either
  EXPECT_EQ(s->vulnerable(), -1);
  EXPECT_TRUE(s->missed_turn(0));
}

TEST(CraitsRulesTest, CR_10_4_CallIsNotATurn) {
  // CR-10.4
  // See E14; the caller is asked again and CALL_FOOL is gone from its list.
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, Simple("QH", "KH 5C", "KD QS QD"));
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(Legal(*s), "play KD, fool 0");
  ASSERT_TRUE(Apply(*s, "fool 0"));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_EQ(Legal(*s), "play KD");
  EXPECT_EQ(s->hand_size(0), 3);
}

TEST(CraitsRulesTest, CR_10_5_AutoPenaltyWithTwoPlayersFour) {
  // CR-10.5
  // N = 2: a 4 gives the turn back to P; the penalty flag eats it.
  auto game = NewGame(2);
  CraitsPosition p = Simple("QH", "4H 5C", "QC QD", "");
  p.stock = Cards("AS 2S");
  auto s = Build(*game, p);
  EXPECT_TRUE(Rejected(*s, "fool 1", "CR-10.5"));
  ASSERT_TRUE(Apply(*s, "play 4H"));
  EXPECT_EQ(HandOf(*s, 0), Set("5C AS 2S"));
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_FALSE(s->missed_turn(0));
}

TEST(CraitsRulesTest, CR_10_6_NoFailuresOrCallsAfterGoingOut) {
  // CR-10.6
  // S0 goes out on a 2; S1 answers from two cards without announcing: no
  // penalty (AUTO), no V (CALL).
  for (const char* mode : {"fool_mode=AUTO", "fool_mode=CALL"}) {
    auto game = NewGame(3, mode);
    CraitsPosition p = Simple("9S", "2S", "AD KH", "QC 4H");
    p.stock = Cards("8D 3C JH");
    auto s = Build(*game, p);
    ASSERT_TRUE(Apply(*s, "play 2S"));
    ASSERT_TRUE(Apply(*s, "play AD"));
    EXPECT_EQ(s->hand_size(1), 1) << mode;
    EXPECT_FALSE(s->missed_turn(1));
    EXPECT_EQ(s->vulnerable(), -1);
    EXPECT_EQ(Legal(*s), "draw");
    EXPECT_TRUE(Rejected(*s, "fool 1", mode[10] == 'A' ? "CR-10.5" : "CR-10.6"));
  }
}

TEST(CraitsRulesTest, CR_10_7_CallModeFailureOnASixUsuallyEscapes) {
  // CR-10.7
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, Simple("QH", "6H 6C 9D", "QC QD", "JC JD"));
  ASSERT_TRUE(Apply(*s, "play 6H"));
  ASSERT_TRUE(Apply(*s, "play 6C"));  // leaves one card, not announced
  EXPECT_EQ(s->vulnerable(), 0);
  EXPECT_EQ(s->current_seat(), 0);  // P acts again before any opponent
  ASSERT_TRUE(Apply(*s, "draw"));  // {9D} on 6C: draws, hand size changes
  EXPECT_EQ(s->vulnerable(), -1);
  EXPECT_THAT(Legal(*s), Not(HasSubstr("fool")));
}

// ------------------------------------------------------------ CR-11

TEST(CraitsRulesTest, CR_11_1_GoingOutScoresZero) {
  // CR-11.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH", "QC QD", "3C"));
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_THAT(s->round_results()[0].scores, ElementsAre(0, 20, -50, 0, 0));
}

TEST(CraitsRulesTest, CR_11_2_AceOutsideACrankIsNothing) {
  // CR-11.2
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "AH", "QC QD", "JC JD");
  p.stock = Cards("5S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play AH"));
  EXPECT_EQ(s->rounds_completed(), 1);  // (d): no crank, no draws
  EXPECT_THAT(s->round_results()[0].scores, ElementsAre(0, 20, 20, 0, 0));
}

TEST(CraitsRulesTest, CR_11_2_AceEndingACrankResolves) {
  // CR-11.2
  // (c): an ace as last card in CRANK adds 1 then the crank is resolved.
  auto game = NewGame(3);
  CraitsPosition p = Simple("2H", "AH", "QC QD", "JC JD");
  p.phase = Phase::kCrank;
  p.count = 2;
  p.stock = Cards("5S 6S 7S 9S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play AH"));
  EXPECT_EQ(s->phase(), Phase::kPostOut);
  EXPECT_EQ(s->crank_count(), 3);
  EXPECT_EQ(s->current_seat(), 1);
  ASSERT_TRUE(Apply(*s, "draw"));
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[1]),
            Set("QC QD 5S 6S 7S"));
}

TEST(CraitsRulesTest, CR_11_3_CrankPassesOverEmptyAndFlaggedSeats) {
  // CR-11.3
  // N = 4, dir = -1: S0 goes out on a 2. The crank goes S3 (flagged: the
  // flag is ignored and kept), S2, S1, then skips S0 and S3 (no cards).
  auto game = NewGame(4);
  CraitsPosition p;
  p.discard = Cards("9S");
  p.dir = -1;
  p.hands[0] = Cards("2S");
  p.hands[1] = Cards("AC KH");
  p.hands[2] = Cards("2C 2D");
  p.hands[3] = Cards("AD");
  p.missed[3] = true;
  p.stock = Cards("8D 3C JH 4C 4D 4H 4S 5S 6S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(s->current_seat(), 3);  // flag ignored
  ASSERT_TRUE(Apply(*s, "play AD"));  // S3 empties its hand: also 0
  EXPECT_TRUE(s->missed_turn(3));     // and kept
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_EQ(Legal(*s), "play 2C, play 2D");  // no announce in POST_OUT
  ASSERT_TRUE(Apply(*s, "play 2D"));
  EXPECT_EQ(s->current_seat(), 1);  // S0 and S3 hold nothing
  ASSERT_TRUE(Apply(*s, "play AC"));  // C = 2 + 1 + 2 + 1 = 6
  EXPECT_EQ(s->crank_count(), 6);
  EXPECT_EQ(s->current_seat(), 2);  // back to S2 (S1 is now S)
  ASSERT_TRUE(Apply(*s, "play 2C"));
  EXPECT_EQ(s->current_seat(), 1);
  ASSERT_TRUE(Apply(*s, "draw"));  // draws 8
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_THAT(s->round_results()[0].scores,
              ElementsAre(0, RoundScore(Cards("KH 8D 3C JH 4C 4D 4H 4S 5S"),
                                        SurplusThrees::kMinus50),
                          0, 0, 0));
}

TEST(CraitsRulesTest, CR_11_4_DrawnCardsCountInScoring) {
  // CR-11.4
  // E11/E12 already; here the 5 as last card with N = 2.
  auto game = NewGame(2);
  CraitsPosition p = Simple("5H", "5C", "QC", "");
  p.stock = Cards("8S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 5C"));
  EXPECT_THAT(s->round_results()[0].scores, ElementsAre(0, 60, 0, 0, 0));
}

TEST(CraitsRulesTest, CR_11_5_TotalsAccumulateAndPilesAreCleared) {
  // CR-11.5
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "KH", "QC QD", "JC");
  p.totals = {5, 6, 7};
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_THAT(s->totals(), ElementsAre(5, 26, 17));
  EXPECT_EQ(s->phase(), Phase::kRoundOver);
  EXPECT_EQ(s->crank_count(), 0);
  EXPECT_EQ(s->CardsInPlay(), 0);
  EXPECT_EQ(s->Observe(1).last_round_hands[1], Cards("QC QD"));
}

// ------------------------------------------------------------ CR-12

TEST(CraitsRulesTest, CR_12_1_CallFoolAsTheLastAction) {
  // CR-12.1
  auto game = NewGame(3, "fool_mode=CALL,round_action_limit=50");
  CraitsPosition p = Simple("QH", "KH 5C", "KD QS QD", "JC JD");
  p.actions_this_round = 48;
  p.stock = Cards("AS 2S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));  // 49th
  ASSERT_TRUE(Apply(*s, "fool 0"));   // 50th: penalty, then the round ends
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_TRUE(s->round_results()[0].exhausted);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[0]), Set("5C AS 2S"));
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[1]), Set("KD QS QD"));
}

TEST(CraitsRulesTest, CR_12_1_GoingOutAtTheLimitEndsByCR11) {
  // CR-12.1
  auto game = NewGame(3, "round_action_limit=50");
  CraitsPosition p = Simple("9S", "2S", "AD KH", "QC 4H");
  p.actions_this_round = 49;
  p.stock = Cards("8D 3C JH");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));  // 50th, goes out: crank resolution
  EXPECT_EQ(s->phase(), Phase::kPostOut);
  ASSERT_TRUE(Apply(*s, "play AD"));  // 51st: beyond the limit
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_FALSE(s->round_results()[0].exhausted);
  EXPECT_THAT(s->round_results()[0].scores, ElementsAre(0, 10, 35, 0, 0));
}

TEST(CraitsRulesTest, CR_12_1_LimitActionWithAReshuffle) {
  // CR-12.1
  // The 50th action's draw needs a reshuffle: the round ends after it.
  auto game = NewGame(3, "round_action_limit=50");
  CraitsPosition p;
  p.discard = Cards("5H 5C JC 7C");
  p.seat_to_act = 2;
  p.hands[2] = Cards("KH 4D");
  p.actions_this_round = 49;
  FillRest(p, /*seat=*/0);
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->chance_kind(), ChanceKind::kReshuffle);
  EXPECT_EQ(s->rounds_completed(), 0);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("JC 5H 5C")).ok());
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_TRUE(s->round_results()[0].exhausted);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[2]), Set("KH 4D JC"));
  EXPECT_EQ(s->chance_kind(), ChanceKind::kDeal);
}

// ------------------------------------------------------------ CR-13, CR-14

TEST(CraitsScoringTest, CR_13_1_CardPoints) {
  // CR-13.1
  const char* hands[] = {"AC", "2C", "4C", "5C", "6C", "7C", "8C",
                         "9C", "TC", "JC", "QC", "KC"};
  const int points[] = {1, 20, 15, 30, 30, 20, 50, 30, 25, 10, 10, 10};
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(RoundScore(Cards(hands[i]), SurplusThrees::kMinus50),
              points[i])
        << hands[i];
  }
}

TEST(CraitsScoringTest, CR_13_2_SurplusThrees) {
  // CR-13.2
  EXPECT_EQ(RoundScore(Cards("3C 3D 3H KS"), SurplusThrees::kMinus50), -100);
  EXPECT_EQ(RoundScore(Cards("3C 3D 3H KS"), SurplusThrees::kZero), 0);
  // Only 3s left is -50 each whatever `surplus_threes` says.
  EXPECT_EQ(RoundScore(Cards("3C 3D"), SurplusThrees::kZero), -100);
  EXPECT_EQ(RoundScore(CardMask{0}, SurplusThrees::kZero), 0);
}

TEST(CraitsScoringTest, CR_13_3_CancelsHighestFirst) {
  // CR-13.3
  // 3 cancels the 8 (50), not the 2 (20) or the A (1).
  EXPECT_EQ(RoundScore(Cards("3S AH 2H 8C"), SurplusThrees::kMinus50), 21);
  EXPECT_EQ(RoundScore(Cards("3S 3C 5H 6H 2H"), SurplusThrees::kMinus50), 20);
}

TEST(CraitsRulesTest, CR_14_1_GameEndsAfterTheLastRound) {
  // CR-14.1
  auto game = NewGame(2, "game_length=SHORT");
  CraitsPosition p = Simple("QH", "KH", "QC", "");
  p.round = 7;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_FALSE(s->IsTerminal());  // round 8 to go
  EXPECT_EQ(s->round(), 8);
  p.round = 8;
  s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->phase(), Phase::kGameOver);
  EXPECT_EQ(s->round(), 8);
  EXPECT_EQ(s->current_seat(), -1);
  EXPECT_THAT(std::string(s->ApplyAction(kDrawAction).message()),
              HasSubstr("the game is over"));
  EXPECT_FALSE(s->ApplyChance(ChanceKind::kDeal, DeckWithCardAt(0, 0)).ok());
}

TEST(CraitsRulesTest, CR_14_2_RanksCountStrictlyLowerTotals) {
  // CR-14.2
  auto game = NewGame(4);
  CraitsPosition p;
  p.round = 15;
  p.totals = {50, 40, 50, 30};
  p.discard = Cards("QH");
  p.hands[0] = Cards("KH");
  p.hands[1] = Cards("KS");
  p.hands[2] = Cards("KD");
  p.hands[3] = Cards("3C");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  ASSERT_TRUE(s->IsTerminal());
  // Totals 50, 50, 60, -20.
  const GameOutcome o = s->Outcome();
  EXPECT_THAT(o.scores, ElementsAre(50, 50, 60, -20));
  EXPECT_THAT(o.ranks, ElementsAre(2, 2, 4, 1));
  EXPECT_THAT(o.winners, ElementsAre(3));
}

// ------------------------------------------------------------ CR-15

TEST(CraitsObservationTest, CR_15_1_PublicInformation) {
  // CR-15.1
  auto game = NewGame(3, "fool_mode=CALL");
  CraitsPosition p = Simple("QH", "KH 5C", "KD QS QD", "JC JD");
  p.discard = Cards("4C QH");
  p.missed[2] = true;
  p.totals = {1, 2, 3};
  p.stock = Cards("AS 2S");
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "play KH"));
  const CraitsObservation o = s->Observe(2);
  EXPECT_EQ(o.seat, 2);
  EXPECT_EQ(o.num_players, 3);
  EXPECT_EQ(o.round, 1);
  EXPECT_EQ(o.hand_size_dealt, 8);
  EXPECT_EQ(o.dealer, 0);
  EXPECT_EQ(o.dir, 1);
  EXPECT_EQ(o.phase, Phase::kTurn);
  EXPECT_EQ(o.seat_to_act, 1);
  EXPECT_EQ(o.top_card, C("KH"));
  EXPECT_EQ(o.active_suit, kHearts);
  EXPECT_EQ(o.count, 0);
  EXPECT_EQ(o.discard_pile, Cards("4C QH KH"));
  EXPECT_EQ(o.stock_size, 2);
  ASSERT_EQ(o.seats.size(), 3u);
  EXPECT_EQ(o.seats[0].hand_size, 1);
  EXPECT_EQ(o.seats[1].hand_size, 3);
  EXPECT_TRUE(o.seats[2].missed_turn);
  EXPECT_EQ(o.seats[2].total, 3);
  EXPECT_EQ(o.vulnerable, 0);
  EXPECT_TRUE(o.legal_actions.empty());  // not S2's decision
  EXPECT_TRUE(o.completed_rounds.empty());
  EXPECT_TRUE(o.last_round_hands.empty());
}

TEST(CraitsObservationTest, CR_15_2_OwnHandOnly) {
  // CR-15.2
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "KH 5C", "KD QS QD", "JC JD");
  auto s = Build(*game, p);
  for (int seat = 0; seat < 3; ++seat) {
    const CraitsObservation o = s->Observe(seat);
    std::vector<Card> want;
    for (CardMask m = s->hand(seat); m; m &= m - 1) want.push_back(LowestCard(m));
    EXPECT_EQ(o.hand, want);
  }
}

TEST(CraitsObservationTest, CR_15_3_NoHiddenCardAnywhere) {
  // CR-15.3
  // Every card id in the observation is public or the seat's own.
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "KH 5C", "KD QS QD", "JC JD");
  p.stock = Cards("AS 2S");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));  // AUTO: S0 draws AS 2S (private)
  const CraitsObservation o = s->Observe(1);
  CardMask seen = 0;
  for (Card c : o.hand) seen |= Bit(c);
  for (Card c : o.discard_pile) seen |= Bit(c);
  seen |= Bit(static_cast<Card>(o.top_card));
  for (Action a : o.legal_actions) {
    if (ActionType(a) == kTypePlay) seen |= Bit(ActionCard(a));
  }
  EXPECT_EQ(seen & (s->hand(0) | s->hand(2)), 0u);
  for (Card c : s->StockTopFirst()) EXPECT_EQ(seen & Bit(c), 0u);
  // Draws are public as counts only.
  ASSERT_EQ(o.last_draws.size(), 1u);
  EXPECT_EQ(o.last_draws[0].seat, 0);
  EXPECT_EQ(o.last_draws[0].drawn, 2);
  EXPECT_EQ(o.last_draws[0].cause, DrawCause::kFoolPenalty);
  ASSERT_TRUE(Apply(*s, "play KD"));
  EXPECT_TRUE(s->Observe(1).last_draws.empty());
}

TEST(CraitsObservationTest, CR_15_4_LegalActionsForTheSeatToAct) {
  // CR-15.4
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH 5C", "KD QS QD", "JC JD"));
  const CraitsObservation o = s->Observe(0);
  ActionList legal;
  s->LegalActions(legal);
  EXPECT_EQ(o.legal_actions, std::vector<Action>(legal.begin(), legal.end()));
  EXPECT_TRUE(s->Observe(1).legal_actions.empty());
}

// ------------------------------------------------------------ CR-16

TEST(CraitsRejectionTest, CR_16_1_NameSuitOutsideItsPhase) {
  // CR-16.1
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH 5C"));
  EXPECT_TRUE(Rejected(*s, "suit H", "CR-16.1"));
  EXPECT_THAT(WhyRejected(*s, "suit H"), HasSubstr("the phase is TURN"));
}

TEST(CraitsRejectionTest, CR_16_2_PlayFields) {
  // CR-16.2
  auto game = NewGame(3);
  auto s = Build(*game, Simple("7H", "8S 9H 3H 5C"));
  EXPECT_TRUE(Rejected(*s, "play 4H", "CR-16.2"));  // not in hand
  EXPECT_THAT(WhyRejected(*s, "play 4H"), HasSubstr("4H is not in your hand"));
  EXPECT_TRUE(Rejected(*s, "play 8S", "CR-16.2"));  // suit missing
  EXPECT_TRUE(Rejected(*s, "play 9H", "CR-16.2"));
  EXPECT_TRUE(Rejected(*s, "play 9H:C", "CR-16.2"));  // not its colour
  EXPECT_TRUE(Rejected(*s, "play 3H:C", "CR-16.2"));  // suit forbidden
  EXPECT_THAT(WhyRejected(*s, "play 3H:C"),
              HasSubstr("only an 8 or 9 names a suit"));
  EXPECT_TRUE(Rejected(*s, "play 5C", "CR-4.1"));
  // The last card of a hand that is an 8 still needs its suit (CR-11.2d).
  s = Build(*game, Simple("7H", "8S"));
  EXPECT_TRUE(Rejected(*s, "play 8S", "CR-16.2"));
  EXPECT_EQ(Legal(*s), "play 8S:C, play 8S:D, play 8S:H, play 8S:S");
}

TEST(CraitsRejectionTest, CR_16_3_DrawInEveryPhase) {
  // CR-16.3
  auto game = NewGame(3);
  CraitsPosition p = Simple("9S", "2S", "AD KH", "QC 4H");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play 2S"));  // POST_OUT, S1 holds AD
  EXPECT_TRUE(Rejected(*s, "draw", "CR-11.3"));
}

TEST(CraitsRejectionTest, CR_16_4_CallFoolChecks) {
  // CR-16.4
  auto game = NewGame(3, "fool_mode=CALL");
  auto s = Build(*game, Simple("QH", "KH 5C", "KD QS QD", "JC JD"));
  EXPECT_TRUE(Rejected(*s, "fool 1", "CR-10.4"));  // no V
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_TRUE(Rejected(*s, "fool 2", "CR-16.4"));  // wrong target
  EXPECT_THAT(WhyRejected(*s, "fool 2"), HasSubstr("V = 0"));
  // V itself cannot call: S0 fails on a 6 and acts again.
  s = Build(*game, Simple("QH", "6H 5C", "KD QS QD", "JC JD"));
  ASSERT_TRUE(Apply(*s, "play 6H"));
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_TRUE(Rejected(*s, "fool 0", "CR-16.4"));
}

TEST(CraitsRejectionTest, CR_16_5_MalformedActionsAndUnchangedState) {
  // CR-16.5
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH 5C"));
  EXPECT_TRUE(Rejected(*s, Action{1} << 20, "CR-16"));
  EXPECT_TRUE(Rejected(*s, EncodePlay(0, -1, false) | (63u << kCardShift),
                       "CR-16"));
  EXPECT_TRUE(Rejected(*s, kDrawAction | kAnnounceBit, "CR-16"));
  EXPECT_TRUE(Rejected(*s, kTypeNameSuit, "CR-16"));  // no suit
  EXPECT_TRUE(Rejected(*s, EncodeCallFool(7), "CR-16"));
  // The referee asks even with a single legal action (DRAW).
  s = Build(*game, Simple("QH", "KC 5C"));
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(Legal(*s), "draw");
}

// ------------------------------------------------------------ Encoding

TEST(CraitsActionTest, EncodeDecodeAndNotationRoundTrip) {
  std::vector<CraitsMove> moves;
  for (int c = 0; c < kNumCards; ++c) {
    for (int suit = -1; suit < kNumSuits; ++suit) {
      for (bool announce : {false, true}) {
        moves.push_back(CraitsMove::Play(static_cast<Card>(c), suit, announce));
      }
    }
  }
  moves.push_back(CraitsMove::Draw());
  for (int t = 0; t < kMaxSeats; ++t) moves.push_back(CraitsMove::CallFool(t));
  for (int s = 0; s < kNumSuits; ++s) moves.push_back(CraitsMove::NameSuit(s));
  std::set<Action> seen;
  for (const CraitsMove& m : moves) {
    const Action a = m.Encode();
    EXPECT_TRUE(seen.insert(a).second) << "duplicate " << a;
    absl::StatusOr<CraitsMove> back = CraitsMove::Decode(a);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, m);
    absl::StatusOr<Action> parsed = ParseCraitsAction(CraitsActionToString(a));
    ASSERT_TRUE(parsed.ok()) << CraitsActionToString(a);
    EXPECT_EQ(*parsed, a);
  }
  EXPECT_LT(*seen.rbegin(), Action{1} << 15);
}

TEST(CraitsActionTest, DocumentedLayout) {
  EXPECT_EQ(CraitsMove::Play(C("8S"), kHearts, true).Encode(), 743u);
  EXPECT_EQ(CraitsMove::Play(C("AC")).Encode(), 0u);
  EXPECT_EQ(kDrawAction, 1u << 13);
  EXPECT_EQ(CraitsMove::CallFool(2).Encode(), (2u << 13) | (2u << 10));
  EXPECT_EQ(CraitsMove::NameSuit(kSpades).Encode(), (3u << 13) | (4u << 1));
  // Ascending order: PLAYs by card then suit then announce, DRAW, CALL_FOOL,
  // NAME_SUIT.
  EXPECT_LT(CraitsMove::Play(C("KS"), kSpades, true).Encode(), kDrawAction);
  EXPECT_LT(kDrawAction, CraitsMove::CallFool(0).Encode());
  EXPECT_LT(CraitsMove::CallFool(4).Encode(),
            CraitsMove::NameSuit(kClubs).Encode());
}

TEST(CraitsActionTest, Notation) {
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  EXPECT_EQ(s->ActionToString(CraitsMove::Play(C("7H")).Encode()), "play 7H");
  EXPECT_EQ(s->ActionToString(CraitsMove::Play(C("8S"), kHearts).Encode()),
            "play 8S:H");
  EXPECT_EQ(s->ActionToString(CraitsMove::Play(C("KH"), -1, true).Encode()),
            "play KH!");
  EXPECT_EQ(s->ActionToString(CraitsMove::Play(C("9D"), kHearts, true).Encode()),
            "play 9D:H!");
  EXPECT_EQ(s->ActionToString(kDrawAction), "draw");
  EXPECT_EQ(s->ActionToString(CraitsMove::CallFool(2).Encode()), "fool 2");
  EXPECT_EQ(s->ActionToString(CraitsMove::NameSuit(kHearts).Encode()),
            "suit H");
  EXPECT_EQ(s->ActionToString(1u << 20), "invalid(0x100000)");
  EXPECT_EQ(Parse(*s, "  PLAY 10h:d! "),
            CraitsMove::Play(C("TH"), kDiamonds, true).Encode());
  EXPECT_EQ(Parse(*s, "Draw"), kDrawAction);
  for (const char* bad : {"", "play", "play 7X", "play 7H:X", "play 7H:HH",
                          "fool", "fool 5", "fool x", "suit", "suit Q",
                          "draw 2", "pass"}) {
    absl::StatusOr<Action> a = s->ParseAction(bad);
    EXPECT_FALSE(a.ok()) << bad;
  }
}

// ------------------------------------------------------------ Rulings

TEST(CraitsRulingTest, EveryFlaggedSeatLosesOneTurn) {
  // Ruling (CR-3.1): with every seat flagged, give_turn clears each flag it
  // passes and the turn comes back to the seat it started from.
  auto game = NewGame(2);
  CraitsPosition p = Simple("QH", "KH KC KD", "QC QD", "");
  p.missed[0] = true;
  p.missed[1] = true;
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));  // give_turn(S1): S1 flagged, S0 flagged
  EXPECT_EQ(s->current_seat(), 1);
  EXPECT_FALSE(s->missed_turn(0));
  EXPECT_FALSE(s->missed_turn(1));
}

TEST(CraitsRulingTest, RoundNumberAtTheDealIsTheRoundToBeDealt) {
  // Ruling (API): round() names the round whose deal is pending; the piles
  // are empty between rounds and the phase is ROUND_OVER.
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  EXPECT_EQ(s->round(), 1);
  EXPECT_EQ(s->rounds_completed(), 0);
  EXPECT_EQ(s->phase(), Phase::kRoundOver);
  const CraitsObservation o = s->Observe(0);
  EXPECT_EQ(o.top_card, -1);
  EXPECT_EQ(o.seat_to_act, -1);
  EXPECT_TRUE(o.hand.empty());
}

TEST(CraitsRulingTest, NoVoluntaryDrawInPostOut) {
  // Ruling (CR-4.3 / CR-7.4): POST_OUT is crank resolution, so
  // voluntary_draw never lets a seat holding an ace or 2 draw there.
  auto game = NewGame(3, "voluntary_draw=true");
  auto s = Build(*game, Simple("9S", "2S", "AD KH", "QC 4H"));
  ASSERT_TRUE(Apply(*s, "play 2S"));
  EXPECT_EQ(Legal(*s), "play AD");
}

TEST(CraitsRulingTest, ReshuffleOfTwoCardPileAndDrawRecords) {
  // Ruling (CR-9.2): a discard pile of exactly two cards reshuffles into a
  // one-card stock; draws are recorded per obligation with their cause.
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("7H");
  p.hands[0] = Cards("7C KD");
  p.hands[1] = Cards("QC QD");
  p.hands[2] = Cards("JC JD");
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "play 7C!"));
  ASSERT_TRUE(s->IsChance());
  Card cards[64];
  EXPECT_EQ(s->ChanceCards(absl::MakeSpan(cards)), 1);  // 7H
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("7H")).ok());
  EXPECT_EQ(HandOf(*s, 1), Set("QC QD 7H"));
  ASSERT_EQ(s->last_draws().size(), 1u);
  EXPECT_EQ(s->last_draws()[0].seat, 1);
  EXPECT_EQ(s->last_draws()[0].cause, DrawCause::kSeven);
  EXPECT_EQ(std::string(DrawCauseName(DrawCause::kSeven)), "seven");
}

TEST(CraitsRulingTest, FromPositionRejectsInconsistentPositions) {
  auto game = NewGame(3);
  CraitsPosition p = Simple("QH", "KH QH");  // QH twice
  EXPECT_FALSE(CraitsState::FromPosition(*game, p).ok());
  p = Simple("QH", "KH");
  p.count = 2;  // C > 0 in TURN
  EXPECT_FALSE(CraitsState::FromPosition(*game, p).ok());
  p = Simple("QH", "KH");
  p.seat_to_act = 3;
  EXPECT_FALSE(CraitsState::FromPosition(*game, p).ok());
  p = Simple("QH", "KH");
  p.hands[3] = Cards("2C");
  EXPECT_FALSE(CraitsState::FromPosition(*game, p).ok());
}

TEST(CraitsStateTest, CloneIsEqualAndIndependent) {
  auto game = NewGame(3);
  auto s = Build(*game, Simple("QH", "KH 5C QS", "KD QC QD"));
  std::unique_ptr<State> c = s->Clone();
  EXPECT_EQ(c->DebugString(), s->DebugString());
  ASSERT_TRUE(Apply(*c, "play KH"));
  EXPECT_NE(c->DebugString(), s->DebugString());
  ASSERT_TRUE(Apply(*s, "play KH"));
  EXPECT_EQ(c->DebugString(), s->DebugString());
}

}  // namespace
}  // namespace cardref::craits

namespace cardref::craits {
namespace {

using ::cardref::craits::testing::Apply;
using ::cardref::craits::testing::Build;
using ::cardref::craits::testing::C;
using ::cardref::craits::testing::Cards;
using ::cardref::craits::testing::Deal;
using ::cardref::craits::testing::DeckWithCardAt;
using ::cardref::craits::testing::NewGame;
using ::testing::ElementsAre;

TEST(CraitsRulingTest, ActiveSuitBeforeTheStarterIsNamed) {
  // Ruling (CR-2.1): during NAME_SUIT sigma is the starter's own suit.
  auto game = NewGame(3);
  auto s = game->NewCraitsState();
  ASSERT_TRUE(Deal(*s, DeckWithCardAt(C("9H"), 24)));
  EXPECT_EQ(s->phase(), Phase::kNameSuit);
  EXPECT_EQ(s->active_suit(), kHearts);
  ASSERT_TRUE(Apply(*s, "suit D"));
  EXPECT_EQ(s->active_suit(), kDiamonds);
}

TEST(CraitsRulingTest, PhaseAndCountAtAReshuffleInsideADraw) {
  // Ruling (CR-2.2): a crank DRAW clears C and returns to TURN as it starts;
  // the reshuffle it needs finds that state.
  auto game = NewGame(3);
  CraitsPosition p;
  p.discard = Cards("KH 2H");
  p.phase = Phase::kCrank;
  p.count = 2;
  p.hands[0] = Cards("QC QD");
  p.hands[1] = Cards("JC JD");
  p.hands[2] = Cards("TC TD");
  p.stock = Cards("5S");
  auto s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->phase(), Phase::kTurn);
  EXPECT_EQ(s->crank_count(), 0);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("KH")).ok());
  EXPECT_EQ(CardsToString(s->hand(0)), testing::Set("QC QD 5S KH"));
  EXPECT_EQ(s->current_seat(), 1);

  // POST_OUT: S0 out on a 2, S1 loses the crank with one stock card left.
  p = CraitsPosition();
  p.discard = Cards("KS 9S");
  p.hands[0] = Cards("2S");
  p.hands[1] = Cards("JC JD");
  p.hands[2] = Cards("TC TD");
  p.stock = Cards("5D");
  s = Build(*game, p, /*fill=*/false);
  ASSERT_TRUE(Apply(*s, "play 2S"));
  ASSERT_TRUE(Apply(*s, "draw"));
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->phase(), Phase::kPostOut);
  EXPECT_EQ(s->crank_count(), 0);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kReshuffle, Cards("9S KS")).ok());
  ASSERT_EQ(s->rounds_completed(), 1);
  EXPECT_EQ(CardsToString(s->round_results()[0].hands[1]),
            testing::Set("JC JD 5D 9S"));
}

TEST(CraitsRulingTest, ATieOfEverySeatIsSharedNotADraw) {
  // Ruling (CR-14.2): every seat wins, rank 1.
  auto game = NewGame(2, "game_length=SHORT");
  CraitsPosition p;
  p.round = 8;
  p.totals = {40, 30};
  p.discard = Cards("QH");
  p.hands[0] = Cards("KH");
  p.hands[1] = Cards("KS");
  auto s = Build(*game, p);
  ASSERT_TRUE(Apply(*s, "play KH"));
  ASSERT_TRUE(s->IsTerminal());
  const GameOutcome o = s->Outcome();
  EXPECT_THAT(o.scores, ElementsAre(40, 40));
  EXPECT_THAT(o.ranks, ElementsAre(1, 1));
  EXPECT_THAT(o.winners, ElementsAre(0, 1));
}

}  // namespace
}  // namespace cardref::craits
