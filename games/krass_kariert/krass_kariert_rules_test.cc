// Rule-by-rule tests of the Krass Kariert engine (krass_kariert.md §1-§5)
// that the worked examples do not already pin, the golden legal-action
// counts, rejections, and the spec holes decided in krass_kariert.h.
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/krass_kariert/krass_kariert.h"
#include "games/krass_kariert/krass_kariert_test_util.h"

namespace cardref::krass_kariert {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing::CardPicker;
using testing::DRAW;
using testing::HandString;
using testing::Identity;
using testing::LegalCount;
using testing::LegalStrings;
using testing::MakeGame;
using testing::NewState;
using testing::Rejection;
using testing::STOP;
using testing::X;

absl::StatusOr<std::unique_ptr<Game>> Create(const std::string& text) {
  const GameInfo info = MakeGameInfo();
  absl::StatusOr<GameParams> p = ParseParams(text, info.params);
  if (!p.ok()) return p.status();
  return info.create(*p);
}

// ------------------------------------------------------------ KK-0

TEST(KrassKariertRules, KK_0_1_CardIds) {
  EXPECT_EQ(ValueOf(0), 1);
  EXPECT_EQ(ValueOf(3), 1);
  EXPECT_EQ(ValueOf(4), 2);
  EXPECT_EQ(ValueOf(47), 12);
  EXPECT_EQ(KindOf(47), CardKind::kNumber);
  EXPECT_EQ(KindOf(48), CardKind::kX);
  EXPECT_EQ(KindOf(49), CardKind::kX);
  EXPECT_EQ(KindOf(50), CardKind::kStop);
  EXPECT_EQ(KindOf(51), CardKind::kStop);
  EXPECT_EQ(KindOf(52), CardKind::kDraw);
  EXPECT_EQ(KindOf(53), CardKind::kDraw);
  EXPECT_EQ(NumberCard(12, 3), 47);
}

TEST(KrassKariertRules, KK_0_2_and_0_3_GameInfoAndDefaults) {
  const GameInfo info = MakeGameInfo();
  EXPECT_EQ(info.id, "krass_kariert");
  EXPECT_EQ(info.display_name, "Krass Kariert");
  EXPECT_EQ(info.rules_prefix, "KK");
  EXPECT_EQ(info.rules_version, 1);
  EXPECT_EQ(info.min_seats, 3);
  EXPECT_EQ(info.max_seats, 5);
  std::vector<std::string> names;
  for (const ParamSpec& p : info.params) names.push_back(p.name);
  EXPECT_THAT(names, ElementsAre("num_players", "chips_per_player", "hand_size",
                                 "reserve_count", "fallback_direction"));
  for (auto [text, n, h] : {std::tuple<const char*, int, int>{"", 4, 10},
                            {"num_players=3", 3, 10},
                            {"num_players=4", 4, 10},
                            {"num_players=5", 5, 7},
                            {"num_players=5,hand_size=3", 5, 3}}) {
    auto game = Create(text);
    ASSERT_TRUE(game.ok()) << text << ": " << game.status();
    EXPECT_EQ((*game)->num_seats(), n);
    EXPECT_EQ((*game)->params().GetInt("hand_size"), h) << text;
    EXPECT_EQ((*game)->params().GetInt("chips_per_player"), 2);
    EXPECT_EQ((*game)->params().GetInt("reserve_count"), 2);
    EXPECT_EQ((*game)->params().GetEnum("fallback_direction"), "CCW");
    EXPECT_EQ((*game)->rules_version(), 1);
  }
}

TEST(KrassKariertRules, KK_0_3_InvalidParametersRejected) {
  struct Case {
    const char* text;
    const char* rule;
  };
  for (const Case& c : {Case{"num_players=5,hand_size=8", "KK-0.3"},
                        Case{"num_players=4,hand_size=11", "KK-0.3"},
                        Case{"hand_size=0", "KK-0.3"},
                        Case{"chips_per_player=1", "KK-0.3"},
                        Case{"chips_per_player=4", "KK-0.3"},
                        Case{"reserve_count=3", "KK-0.3"},
                        Case{"fallback_direction=LEFT", "KK-0.3"},
                        Case{"num_players=2", "KK-0.2"},
                        Case{"num_players=6", "KK-0.2"}}) {
    auto game = Create(c.text);
    ASSERT_FALSE(game.ok()) << c.text;
    EXPECT_THAT(std::string(game.status().message()), StartsWith(c.rule))
        << c.text << ": " << game.status();
  }
  // The constraint N*(H+2) <= 48 holds exactly at the boundary.
  EXPECT_TRUE(Create("num_players=4,hand_size=10").ok());
  EXPECT_TRUE(Create("num_players=5,hand_size=7").ok());
  EXPECT_TRUE(Create("num_players=3,hand_size=10").ok());
  auto too_big = Create("num_players=5,hand_size=8");
  EXPECT_THAT(std::string(too_big.status().message()),
              HasSubstr("5 * (8 + 2) = 50"));
  // An unknown parameter.
  GameParams p;
  p.Set("jokers", int64_t{1});
  EXPECT_FALSE(MakeGameInfo().create(p).ok());
}

// KK-0.4: neighbours (E8/E9 exercise the walk); here the clockwise order of
// a trick: seat index increasing mod N, from the leader.
// KK-4.2: the leader acts first, then each other participant once.
TEST(KrassKariertRules, KK_0_4_and_KK_4_2_ClockwiseFromLeaderSkippingInactive) {
  auto game = MakeGame(5);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  for (int seat : {0, 1, 3, 4}) {
    st.hands[seat] = p.Hand({1, 2, 3, 4});
    st.reserves[seat] = {p.Num(5), kNoCard};
  }
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3) | SeatBit(4);
  st.leader = 3;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  std::vector<int> order;
  for (int i = 0; i < 4; ++i) {
    order.push_back(s->current_seat());
    ActionList legal;
    s->LegalActions(legal);
    // The last legal action: the leader's SOLO 4, then reserve takes.
    ASSERT_TRUE(s->ApplyAction(legal[legal.size() - 1]).ok());
  }
  EXPECT_THAT(order, ElementsAre(3, 4, 0, 1));
}

// ------------------------------------------------------------ KK-1

// KK-1.1: every seat starts with C chips; KK-1.2: the deal is a recorded
// chance event, a permutation of the 54 cards.
TEST(KrassKariertRules, KK_1_1_and_KK_1_2_ChanceEventsAndChips) {
  auto game = MakeGame(4, 3);
  auto s = NewState(*game);
  for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(s->chips(seat), 3);
  EXPECT_EQ(s->node_type(), NodeType::kChance);
  EXPECT_EQ(s->chance_kind(), ChanceKind::kDeal);
  EXPECT_EQ(s->current_seat(), -1);
  EXPECT_EQ(s->round(), 1);
  EXPECT_EQ(s->rounds_completed(), 0);
  std::array<Card, 64> cards;
  ASSERT_EQ(s->ChanceCards(absl::MakeSpan(cards)), 54);
  for (int i = 0; i < 54; ++i) EXPECT_EQ(cards[i], i);
  ActionList legal;
  s->LegalActions(legal);
  EXPECT_TRUE(legal.empty());
  EXPECT_FALSE(s->ApplyAction(EncodePlay(0, 1)).ok());

  auto before = s->Clone();
  std::vector<Card> order = Identity();
  order[5] = 4;  // a duplicate
  absl::Status st = s->ApplyChance(ChanceKind::kDeal, order);
  EXPECT_THAT(std::string(st.message()), StartsWith("KK-1.2"));
  order.pop_back();
  EXPECT_FALSE(s->ApplyChance(ChanceKind::kDeal, order).ok());
  EXPECT_FALSE(s->ApplyChance(ChanceKind::kReshuffle, Identity()).ok());
  EXPECT_TRUE(*s == static_cast<const KrassKariertState&>(*before));
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_FALSE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
}

// KK-1.3/1.4/1.5 are pinned by E1; here the hand order (KK-2.1): dealt
// cards are appended left to right, position 0 first.
TEST(KrassKariertRules, KK_1_3_HandOrderIsDealOrder) {
  auto game = MakeGame(3, 2, 4);
  auto s = NewState(*game);
  std::vector<Card> order = Identity();
  std::reverse(order.begin(), order.end());
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, order).ok());
  // o(1) = 0: hand[1][k] = d[3k] = 53 - 3k.
  EXPECT_THAT(std::vector<Card>(s->hand(1).begin(), s->hand(1).end()),
              ElementsAre(53, 50, 47, 44));
  EXPECT_EQ(s->reserve(1, 0), 53 - 12);  // KK-1.4: d[H*N + 0*N + 0]
  EXPECT_EQ(s->reserve(1, 1), 53 - 15);
  EXPECT_EQ(s->pile_size(), 54 - 18);    // KK-1.5
  EXPECT_EQ(s->pile()[0], 53 - 18);
}

// ------------------------------------------------------------ KK-2, KK-6

// KK-2.2 and KK-2.3 are exercised after every action of the random games;
// here the closing of the gap and inserting before position p, and KK-2.4 /
// KK-6.2: a reserve is not in the hand until taken, then it is an ordinary
// card (even a STOP) for the next trick.
TEST(KrassKariertRules, KK_2_and_KK_6_2_ReserveStopBecomesHandCard) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({12, 12, 12, 1});
  st.hands[2] = p.Hand({3, 4});
  st.reserves[2] = {p.Stop(), kNoCard};
  st.hands[0] = p.Hand({5});
  st.reserves[0] = {p.Num(6), kNoCard};
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  EXPECT_EQ(s->hand_length(2), 2);  // KK-2.4
  KK_DO(*s, "play 0-2");            // TRIPS 12
  // KK-2.2: the remaining card closes the gap.
  EXPECT_EQ(HandString(*s, 1), "1");
  // S2 cannot beat TRIPS 12 and has no STOP in hand: reserve only.
  EXPECT_THAT(LegalStrings(*s),
              ElementsAre("reserve 0@0", "reserve 0@1", "reserve 0@2"));
  KK_DO(*s, "reserve 0@1");  // KK-2.3: before the card at 1
  EXPECT_EQ(HandString(*s, 2), "3,STOP,4");
  KK_DO(*s, "reserve 0@1");  // S0
  EXPECT_EQ(HandString(*s, 0), "5,6");
  // S1 won and leads; after S1 leads, S2 can play its STOP.
  ASSERT_EQ(s->current_seat(), 1);
  KK_DO(*s, "play 0");
  EXPECT_THAT(LegalStrings(*s), ::testing::Contains("play 1"));
  KK_DO(*s, "play 1");  // the STOP taken from the reserve
  EXPECT_EQ(s->leader(), 2);
}

// KK-6.1: every occupied slot at every position 0..len; KK-16.2.
TEST(KrassKariertRules, KK_6_1_ReserveSlotsAndPositions) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({12, 12, 12});
  st.hands[2] = p.Hand({3, 4});
  st.reserves[2] = {kNoCard, p.Num(9)};
  st.hands[0] = p.Hand({5});
  st.reserves[0] = {p.Num(6), p.Num(7)};
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-2");
  EXPECT_EQ(Rejection(*s, "reserve 0@0"),
            "KK-16.2: reserve slot 0 of seat 2 is empty (slot 1 holds a card)");
  EXPECT_EQ(Rejection(*s, "reserve 1@3"),
            "KK-16.2: position 3 is outside 0..2 (the hand has 2 cards)");
  KK_DO(*s, "reserve 1@2");
  EXPECT_THAT(LegalStrings(*s),
              ElementsAre("reserve 0@0", "reserve 0@1", "reserve 1@0",
                          "reserve 1@1"));
}

// KK-6.3: reserves do not count as hand cards for leaving the round;
// untaken reserves are dropped at round end.
TEST(KrassKariertRules, KK_6_3_EmptyHandLeavesDespiteReserves) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({2});
  st.reserves[1] = {p.Num(9), p.Num(10)};
  st.hands[2] = p.Hand({5, 1});
  st.hands[0] = p.Hand({7, 1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  EXPECT_FALSE(s->is_active(1));
  EXPECT_EQ(s->leader(), 0);  // W = S0 still active
  // The observation still shows S1's untaken reserves (public, KK-15.1).
  EXPECT_NE(s->Observe(2).reserves[1][0], kNoCard);
}

// ------------------------------------------------------------ KK-3

// KK-3.1/3.3/3.4 rejections through the engine.
TEST(KrassKariertRules, KK_3_RejectionsNameTheRule) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({5, STOP, 6, X, 7, 9});
  st.hands[2] = p.Hand({1});
  st.hands[3] = p.Hand({1});
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  EXPECT_EQ(Rejection(*s, "play 0-1"),
            "KK-3.4: STOP at position 1 is played alone (STOP and DRAW are "
            "never part of a combination)");
  EXPECT_EQ(Rejection(*s, "play 1 x=3"), "KK-16.1: a STOP takes no x_values, got 1");
  EXPECT_THAT(Rejection(*s, "play 2-3"),
              StartsWith("KK-3.3: the block holds 1 X but 0 values"));
  EXPECT_THAT(Rejection(*s, "play 2 x=4"),
              StartsWith("KK-3.3: the block holds 0 X but 1 values"));
  EXPECT_THAT(Rejection(*s, "play 4-5"),
              StartsWith("KK-3.1: 7,9 is not a combination"));
  EXPECT_THAT(Rejection(*s, "play 5-7"),
              StartsWith("KK-16.1: positions 5..7 are outside the hand"));
  EXPECT_THAT(Rejection(*s, "play 2-3 x=13"), StartsWith("KK-3.3"));
  // X alone, X with the neighbours (KK-3.3): all legal.
  KK_DO(*s, "play 2-4 x=8");
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kRun3, 8));
}

// KK-3.5 beats: equal-strength message, every PAIR over every RUN2.
TEST(KrassKariertRules, KK_3_5_StrengthMessages) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({5, 6, 1});
  st.hands[2] = p.Hand({6, 5, 1, 1, 11, 12});
  st.hands[3] = p.Hand({2});
  st.hands[0] = p.Hand({2});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-1");
  EXPECT_EQ(Rejection(*s, "play 0-1"),
            "KK-3.5: RUN2 5-6 does not beat the target RUN2 5-6 (equal "
            "strength never beats)");
  EXPECT_EQ(Rejection(*s, "play 0"),
            "KK-3.5: SOLO 6 does not beat the target RUN2 5-6 (expected a "
            "higher type, or the same type with a higher key)");
  KK_DO(*s, "play 2-3");  // PAIR 1 beats RUN2 5-6
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kPair, 1));
}

// ------------------------------------------------------------ KK-4, KK-5

// KK-4.1, KK-4.3(a), KK-4.4, KK-5.2, KK-5.4: DRAW and reserves leave the
// target; played cards go to the public discard pile.
TEST(KrassKariertRules, KK_4_4_and_KK_5_4_TargetAndDiscards) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({4, 1});
  st.hands[2] = p.Hand({DRAW, 1});
  st.hands[3] = p.Hand({2});
  st.reserves[3] = {p.Num(3), kNoCard};
  st.hands[0] = p.Hand({9, 10, 1});
  st.pile = p.Hand({11, 11, 11});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  const int discards = static_cast<int>(s->discards().size());
  EXPECT_EQ(s->target(), kNoStrength);  // KK-4.4: no target yet
  KK_DO(*s, "play 0");
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kSolo, 4));
  KK_DO(*s, "play 0");  // DRAW
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kSolo, 4));
  KK_DO(*s, "reserve 0@0");
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kSolo, 4));
  // KK-5.2(a): S0 must beat SOLO 4.
  EXPECT_THAT(LegalStrings(*s), ElementsAre("play 0", "play 0-1", "play 1"));
  KK_DO(*s, "play 0-1");  // RUN2 9-10 wins
  EXPECT_EQ(static_cast<int>(s->discards().size()), discards + 4);
  EXPECT_EQ(s->discards().back(), st.hands[0][1]);
  // KK-4.3(a): every participant acted; the winner draws 3.
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(s->pending_drawn().size(), 3u);
}

// KK-5.1: the leader may not take a reserve; KK-5.2(d) anyone else may,
// even with a playable combination.
TEST(KrassKariertRules, KK_5_1_LeaderMayNotTakeReserve) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({4, 1});
  st.reserves[1] = {p.Num(5), p.Num(6)};
  st.hands[2] = p.Hand({8});
  st.reserves[2] = {p.Num(5), kNoCard};
  st.hands[3] = p.Hand({1});
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  auto before = s->Clone();
  EXPECT_EQ(Rejection(*s, "reserve 0@0"),
            "KK-5.1: the leader may not take a reserve (expected a "
            "combination, a STOP or a DRAW)");
  EXPECT_TRUE(*s == static_cast<const KrassKariertState&>(*before));
  KK_DO(*s, "play 0");
  EXPECT_THAT(LegalStrings(*s),
              ElementsAre("play 0", "reserve 0@0", "reserve 0@1"));
}

// KK-5.3 is E17; KK-16.5: a seat with a single legal action is asked.
TEST(KrassKariertRules, KK_5_3_and_KK_16_5_SingleLegalActionIsRequested) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({11, 1});
  st.hands[2] = p.Hand({12, 2});
  st.hands[0] = p.Hand({1, 2});
  st.reserves[0] = {p.Num(3), kNoCard};
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_THAT(LegalStrings(*s), ElementsAre("play 0"));
}

// ------------------------------------------------------------ KK-7, KK-8

// KK-7.1, KK-8.1: STOP and DRAW on any action, whatever the target, even
// TRIPS 12; KK-8.5: a DRAW never wins by strength.
TEST(KrassKariertRules, KK_7_1_and_KK_8_1_StopAndDrawAlwaysPlayable) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({12, 12, 12, 1});
  st.hands[2] = p.Hand({DRAW, 4});
  st.hands[0] = p.Hand({5, STOP});
  st.pile = p.Hand({2, 3, 4});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-2");
  EXPECT_THAT(LegalStrings(*s), ElementsAre("play 0"));
  KK_DO(*s, "play 0");  // DRAW on TRIPS 12
  EXPECT_THAT(LegalStrings(*s), ElementsAre("play 1"));
  KK_DO(*s, "play 1");  // STOP on TRIPS 12: S0 wins and draws (KK-7.3)
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(s->pending_drawn().size(), 3u);
}

// KK-7.2: the trick ends at once; later seats do not act (E11). KK-7.3 is
// E22. KK-8.2-8.4 are E13/E14. KK-14.2 and hole H6: a short pile draws what
// is left; an empty pile requests no PLACE_DRAWN.
TEST(KrassKariertRules, KK_14_2_ShortPileDrawsWhatIsLeft) {
  for (int pile : {0, 1, 2}) {
    auto game = MakeGame(3);
    auto s = NewState(*game);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[1] = p.Hand({DRAW, 1});
    st.hands[2] = p.Hand({1});
    st.reserves[2] = {p.Num(3), kNoCard};
    st.hands[0] = p.Hand({1});
    st.reserves[0] = {p.Num(3), kNoCard};
    for (int i = 0; i < pile; ++i) st.pile.push_back(p.Num(9));
    st.leader = 1;
    ASSERT_TRUE(s->SetUpForTest(st).ok());
    KK_DO(*s, "play 0");
    KK_DO(*s, "play 0");  // SOLO 1 wins (DRAW does not, KK-8.5)
    KK_DO(*s, "reserve 0@0");
    if (pile > 0) {
      ASSERT_EQ(s->current_seat(), 2);
    }
    EXPECT_EQ(static_cast<int>(s->pending_drawn().size()), pile);
    EXPECT_EQ(s->pile_size(), 0);
    for (int i = 0; i < pile; ++i) {
      EXPECT_THAT(LegalStrings(*s)[0], StartsWith("place"));
      KK_DO(*s, "place 0");
    }
    // S2 emptied its hand but drew `pile` cards (KK-8.4) and stays in.
    // KK-14.1: the discard pile is never reshuffled into the pile.
    EXPECT_EQ(s->is_active(2), pile > 0) << pile;
    if (pile == 0) {
      // Hole H6: nothing to place; S2 leaves and nobody else played a
      // combination, so KK-10.3 walks CCW from S2 to S1.
      EXPECT_EQ(s->leader(), 1);
      EXPECT_THAT(LegalStrings(*s)[0], StartsWith("play"));
    } else {
      EXPECT_EQ(s->leader(), 2);
    }
  }
}

// ------------------------------------------------------------ KK-9..KK-11

// KK-9.3: only participants with empty hands leave; KK-11.1(c): the round
// goes on with >= 2 active.
TEST(KrassKariertRules, KK_9_3_and_KK_11_1c_RoundContinues) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({3});
  st.hands[2] = p.Hand({4, 1});
  st.hands[3] = p.Hand({5});
  st.hands[0] = p.Hand({6, 1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  for (int i = 0; i < 4; ++i) KK_DO(*s, "play 0");
  EXPECT_EQ(s->active_seats(), SeatBit(0) | SeatBit(2));
  EXPECT_EQ(s->node_type(), NodeType::kDecision);
  EXPECT_EQ(s->rounds_completed(), 0);
  EXPECT_EQ(s->leader(), 0);  // KK-10.1
}

// KK-10.2 picks the strongest *other* combination even when a weaker player
// acted later (play order is irrelevant).
TEST(KrassKariertRules, KK_10_2_StrongestOtherCombination) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({2, 1});
  st.hands[2] = p.Hand({7, 1});
  st.hands[3] = p.Hand({1});
  st.reserves[3] = {p.Num(5), kNoCard};
  st.hands[0] = p.Hand({9});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");       // S1 SOLO 2
  KK_DO(*s, "play 0");       // S2 SOLO 7
  KK_DO(*s, "reserve 0@0");  // S3
  KK_DO(*s, "play 0");       // S0 SOLO 9, out
  EXPECT_EQ(s->leader(), 2);
}

// KK-11.2 with a DRAW played earlier and the stuck seat last: no draw, no
// leaving (the seat that emptied its hand stays active until trick end,
// which never comes), the round simply ends (E16 covers the rest).
TEST(KrassKariertRules, KK_11_2_StuckAbandonsTrick) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({DRAW, 2});
  st.hands[2] = p.Hand({6, 6});
  st.hands[0] = p.Hand({1, 4});
  st.pile = p.Hand({8, 8, 8});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");    // DRAW
  KK_DO(*s, "play 0-1");  // PAIR 6: S2's hand is now empty; S0 is stuck
  EXPECT_TRUE(s->IsChance());
  EXPECT_EQ(s->round_loss(1), SeatBit(0));
  EXPECT_EQ(s->pile_size(), 3);
  EXPECT_TRUE(s->is_active(2));  // nobody left: the trick was abandoned
}

// KK-11.3, KK-13.1, KK-13.2 as pure functions (E20 runs them in the engine).
TEST(KrassKariertRules, KK_11_3_and_KK_13_ChipLossFunctions) {
  ChipLossResult r = ApplyChipLoss({1, 0, 2, 0, 0}, SeatBit(0) | SeatBit(2));
  EXPECT_FALSE(r.game_over());
  EXPECT_THAT(r.chips, ElementsAre(0, 0, 1, 0, 0));
  r = ApplyChipLoss({1, 0, 2, 3, 0}, SeatBit(0) | SeatBit(1) | SeatBit(3));
  EXPECT_TRUE(r.game_over());
  EXPECT_EQ(r.eliminated, SeatBit(1));
  EXPECT_THAT(r.chips, ElementsAre(0, 0, 2, 2, 0));  // KK-13.2
  EXPECT_EQ(NextRoundLeader(SeatBit(3)), 3);          // KK-12.2
  EXPECT_EQ(NextRoundLeader(SeatBit(2) | SeatBit(3)), 0);
  const GameOutcome o = MakeOutcome({0, 0, 2, 2, 0}, 4, SeatBit(1));
  EXPECT_THAT(o.winners, ElementsAre(0, 2, 3));
  EXPECT_THAT(o.ranks, ElementsAre(1, 4, 1, 1));
}

// ------------------------------------------------------------ KK-12, KK-13

// KK-12.1: every seat plays every round, 0 chips included; chips carry
// over; the deal is the same canonical deal. KK-13: the game ends only at a
// chip-loss event with a seat holding no chip.
TEST(KrassKariertRules, KK_12_1_ZeroChipSeatsPlayOn) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.round = 3;
  st.previous_round_losses = {SeatBit(1), SeatBit(1)};
  st.chips = {2, 0, 2, 2, -1};
  st.hands[3] = p.Hand({9});
  st.hands[0] = p.Hand({10, 4});
  st.hands[1] = p.Hand({12});
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3);
  st.leader = 3;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  for (int i = 0; i < 3; ++i) KK_DO(*s, "play 0");  // E18: S0 loses
  ASSERT_TRUE(s->IsChance());
  EXPECT_EQ(s->round(), 4);
  EXPECT_EQ(s->rounds_completed(), 3);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(s->active_seats(), 0b1111);  // S1 with 0 chips plays too
  EXPECT_EQ(s->hand_length(1), 10);
  EXPECT_EQ(s->trick(), 1);
  EXPECT_EQ(s->chips(0), 1);
  const KrassKariertResult r = s->Result();
  ASSERT_EQ(r.round_losses.size(), 3u);
  EXPECT_EQ(r.round_losses[2].round, 3);
  EXPECT_THAT(r.round_losses[2].seats, ElementsAre(0));
  EXPECT_TRUE(r.losers.empty());
  EXPECT_TRUE(r.winners.empty());
}

// ------------------------------------------------------------ KK-15

// KK-15.1-15.3: the observation carries public data and the seat's own
// hand only; hole H1: the current trick's actions with their cards.
TEST(KrassKariertRules, KK_15_ObservationAfterDeal) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  KK_DO(*s, "play 0");  // S1 plays card 0 (a 1)
  const KrassKariertObservation o = s->Observe(2);
  EXPECT_EQ(o.seat, 2);
  EXPECT_EQ(o.round, 1);
  EXPECT_EQ(o.trick, 1);
  EXPECT_EQ(o.leader, 1);
  EXPECT_EQ(o.seat_to_act, 2);
  EXPECT_EQ(o.hand_length, 10);
  EXPECT_EQ(o.hand[0], 1);  // own hand: d1, d5, ...
  EXPECT_EQ(o.hand[9], 37);
  EXPECT_THAT(o.hand_sizes, ElementsAre(10, 9, 10, 10, 0));
  EXPECT_EQ(o.reserves[0][0], 43);
  EXPECT_EQ(o.pile_size, 6);
  EXPECT_EQ(o.num_discards, 1);
  EXPECT_EQ(o.discards[0], 0);
  EXPECT_EQ(o.target, MakeStrength(ComboType::kSolo, 1));
  ASSERT_EQ(o.trick_length, 1);
  EXPECT_EQ(o.trick_actions[0].seat, 1);
  EXPECT_EQ(o.trick_actions[0].cards[0], 0);
  EXPECT_EQ(o.own_pending_count, 0);
  // No card of another hand or of the pile anywhere.
  for (int i = 0; i < o.hand_length; ++i) {
    EXPECT_EQ((o.hand[i] - 1) % 4, 0) << "not S2's card: " << int(o.hand[i]);
  }
}

// ------------------------------------------------------------ KK-16

// KK-16.3: PLACE_DRAWN only when drawn cards are pending, and nothing else
// then; rejections leave the state unchanged.
TEST(KrassKariertRules, KK_16_3_PlaceDrawnPhase) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({12, 1});
  st.hands[1] = p.Hand({7, 6, 1});
  st.hands[2] = p.Hand({3, 11, 12, 5});
  st.hands[3] = p.Hand({DRAW, 1});
  st.pile = p.Hand({4, X, 9});
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  EXPECT_EQ(Rejection(*s, "place 0"),
            "KK-16.3: no drawn card is pending placement (expected PLAY or "
            "TAKE_RESERVE)");
  for (const char* a : {"play 0", "play 0-1", "play 1-2", "play 0"}) {
    KK_DO(*s, a);
  }
  auto before = s->Clone();
  EXPECT_EQ(Rejection(*s, "play 0"),
            "KK-16.3: seat 2 must first place drawn card 1 of 3 (expected "
            "PLACE_DRAWN{position 0..2})");
  EXPECT_EQ(Rejection(*s, "place 3"),
            "KK-16.3: position 3 is outside 0..2 (the hand has 2 cards)");
  EXPECT_TRUE(*s == static_cast<const KrassKariertState&>(*before));
}

// KK-16.1/16.2/16.4: malformed action values.
TEST(KrassKariertRules, KK_16_4_MalformedActionsRejected) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  auto before = s->Clone();
  for (Action a : {Action{0x30000000}, Action{0x00010000} /* count 0 */,
                   Action{0x00011D00} /* stray bits */,
                   Action{0x000110D0} /* x0 = 13 */,
                   Action{0x00011005} /* x1 without x0 */,
                   Action{0x10000200}, Action{0x20000100}}) {
    absl::Status st = s->ApplyAction(a);
    EXPECT_FALSE(st.ok()) << std::hex << a;
    EXPECT_THAT(std::string(st.message()), StartsWith("KK-")) << st;
    EXPECT_TRUE(*s == static_cast<const KrassKariertState&>(*before));
  }
}

// ------------------------------------------------------------ golden counts

// Golden legal-action counts (perft-style), each derived in its comment.
TEST(KrassKariertRules, GoldenLegalCountLeaderWithX) {
  // Leader, hand [8,10,9,X,3] (E3), no target, no reserve for a leader:
  //   start 0: SOLO 8; [8,10] none; [8,10,9] RUN3          -> 2
  //   start 1: SOLO 10; RUN2 [10,9]; [10,9,X] X=8 or X=11  -> 4
  //   start 2: SOLO 9; [9,X] X=8,9,10; [9,X,3] none        -> 4
  //   start 3: [X] X=1..12; [X,3] X=2,3,4                  -> 15
  //   start 4: SOLO 3                                       -> 1
  // Total 26.
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({8, 10, 9, X, 3});
  st.reserves[0] = {p.Num(1), p.Num(2)};
  for (int seat : {1, 2, 3}) st.hands[seat] = p.Hand({1});
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  EXPECT_EQ(LegalCount(*s), 26);
}

TEST(KrassKariertRules, GoldenLegalCountTwoXAgainstPair) {
  // Non-leader, target PAIR 5, hand [X,X,5,STOP,7,7], both reserves:
  //   [X,X] PAIR 6..12 (a RUN2 never beats a PAIR)           -> 7
  //   [X,X,5] TRIPS 5; RUN3 3-4-5, 4-5-6, 5-6-7 with the two
  //           X values in either order                        -> 7
  //   [X,5] at best PAIR 5 (equal) -> 0; SOLOs never beat    -> 0
  //   STOP alone                                              -> 1
  //   [7,7] PAIR 7                                            -> 1
  //   reserves: 2 slots x positions 0..6                      -> 14
  // Total 30.
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({5, 5, 1});
  st.hands[2] = p.Hand({X, X, 5, STOP, 7, 7});
  st.reserves[2] = {p.Num(1), p.Num(2)};
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-1");
  EXPECT_EQ(LegalCount(*s), 30);
  // Both orders of the two X values are distinct actions (KK-16.1).
  const std::vector<std::string> legal = LegalStrings(*s);
  EXPECT_THAT(legal, ::testing::Contains("play 0-2 x=6,7"));
  EXPECT_THAT(legal, ::testing::Contains("play 0-2 x=7,6"));
  EXPECT_THAT(legal, ::testing::Contains("play 0-2 x=5,5"));
}

TEST(KrassKariertRules, GoldenLegalCountsIdentityDeal) {
  // Identity deck, N=4, H=10: S1 holds ids 0,4,...,36 = values 1..10 in
  // order. Leader: SOLO x10, RUN2 x9, RUN3 x8 = 27.
  auto game = MakeGame(4);
  auto s = NewState(*game);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(LegalCount(*s), 27);
  KK_DO(*s, "play 0");  // SOLO 1
  // S2 holds values 1..10 too; target SOLO 1: SOLO 2..10 (9), RUN2 (9),
  // RUN3 (8) = 26; reserves d41, d45: 2 slots x positions 0..10 = 22.
  // Total 48.
  EXPECT_EQ(LegalCount(*s), 48);
  // PLACE_DRAWN counts are len+1 (E21: 1, 2, 3).
}

}  // namespace
}  // namespace cardref::krass_kariert
