// The worked examples E1-E22 of krass_kariert.md §6, verbatim, with every
// variant. Unless stated otherwise: N = 4, C = 2, default parameters.
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
using testing::LegalStrings;
using testing::MakeGame;
using testing::NewState;
using testing::Rejection;
using testing::STOP;
using testing::X;

std::vector<Card> Range(int from, int step, int count) {
  std::vector<Card> out;
  out.reserve(count);
  for (int i = 0; i < count; ++i) out.push_back(static_cast<Card>(from + i * step));
  return out;
}

std::vector<Card> Span2Vec(absl::Span<const Card> s) {
  return std::vector<Card>(s.begin(), s.end());
}

// E1 (deal, KK-1.3, KK-1.4, KK-1.5): d[i] = card i.
TEST(KrassKariertExamples, E1_DealFourPlayers) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  ASSERT_TRUE(s->IsChance());
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(Span2Vec(s->hand(1)), Range(0, 4, 10));  // d0, d4, ..., d36
  EXPECT_EQ(Span2Vec(s->hand(2)), Range(1, 4, 10));
  EXPECT_EQ(Span2Vec(s->hand(3)), Range(2, 4, 10));
  EXPECT_EQ(Span2Vec(s->hand(0)), Range(3, 4, 10));
  EXPECT_EQ(s->reserve(1, 0), 40);
  EXPECT_EQ(s->reserve(2, 0), 41);
  EXPECT_EQ(s->reserve(3, 0), 42);
  EXPECT_EQ(s->reserve(0, 0), 43);
  EXPECT_EQ(s->reserve(1, 1), 44);
  EXPECT_EQ(s->reserve(2, 1), 45);
  EXPECT_EQ(s->reserve(3, 1), 46);
  EXPECT_EQ(s->reserve(0, 1), 47);
  EXPECT_EQ(Span2Vec(s->pile()), Range(48, 1, 6));
  EXPECT_EQ(s->current_seat(), 1);  // KK-12.2: seat 1 leads round 1
}

TEST(KrassKariertExamples, E1_DealFivePlayers) {
  auto game = MakeGame(5);  // H defaults to 7
  auto s = NewState(*game);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(Span2Vec(s->hand(0)), Range(4, 5, 7));  // d4, d9, ..., d34
  EXPECT_EQ(s->reserve(0, 0), 39);
  EXPECT_EQ(s->reserve(0, 1), 44);
  EXPECT_EQ(Span2Vec(s->pile()), Range(45, 1, 9));
}

TEST(KrassKariertExamples, E1_DealThreePlayers) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  std::vector<Card> hands, reserves;
  for (int seat = 0; seat < 3; ++seat) {
    for (Card c : s->hand(seat)) hands.push_back(c);
    reserves.push_back(s->reserve(seat, 0));
    reserves.push_back(s->reserve(seat, 1));
  }
  std::sort(hands.begin(), hands.end());
  std::sort(reserves.begin(), reserves.end());
  EXPECT_EQ(hands, Range(0, 1, 30));     // d0..d29
  EXPECT_EQ(reserves, Range(30, 1, 6));  // d30..d35
  EXPECT_EQ(Span2Vec(s->pile()), Range(36, 1, 18));
  EXPECT_EQ(Span2Vec(s->hand(1)), Range(0, 3, 10));
}

// E2 (adjacency, KK-2.2, KK-3.1).
TEST(KrassKariertExamples, E2_Adjacency) {
  auto game = MakeGame(3);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({5, 1, 5, 9});
  st.hands[2] = p.Hand({2});
  st.hands[0] = p.Hand({3});
  st.reserves[2] = {p.Num(4), kNoCard};
  st.reserves[0] = {p.Num(4), kNoCard};
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  EXPECT_THAT(LegalStrings(*s),
              ElementsAre("play 0", "play 1", "play 2", "play 3"));
  EXPECT_THAT(Rejection(*s, "play 0-1"), StartsWith("KK-3.1: 5,1 is not"));
  EXPECT_THAT(Rejection(*s, "play 0,2"),
              StartsWith("KK-16.1: positions 0,2 are not contiguous"));
  KK_DO(*s, "play 1");  // SOLO 1
  EXPECT_EQ(HandString(*s, 1), "5,5,9");
  KK_DO(*s, "reserve 0@0");
  KK_DO(*s, "reserve 0@0");
  ASSERT_EQ(s->current_seat(), 1);  // S1 won with the only combination
  KK_DO(*s, "play 0-1");
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kPair, 5));
}

// E3 (any order, X, KK-3.2, KK-3.3).
class E3 : public ::testing::Test {
 protected:
  void Lead(std::initializer_list<int> hand) {
    game_ = MakeGame(4);
    s_ = NewState(*game_);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[0] = p.Hand(hand);
    st.hands[1] = p.Hand({1});
    st.hands[2] = p.Hand({1});
    st.hands[3] = p.Hand({1});
    st.leader = 0;
    ASSERT_TRUE(s_->SetUpForTest(st).ok());
  }
  // The combination `text` makes (by playing it on a copy), or the
  // rejection.
  std::string Makes(const std::string& text) {
    auto copy = s_->Clone();
    auto* kk = static_cast<KrassKariertState*>(copy.get());
    absl::Status st = testing::Do(*kk, text);
    if (!st.ok()) return std::string(st.message());
    return StrengthName(kk->target());
  }
  std::unique_ptr<KrassKariertGame> game_;
  std::unique_ptr<KrassKariertState> s_;
};

TEST_F(E3, AnyOrderAndX) {
  Lead({8, 10, 9, X, 3});
  EXPECT_EQ(Makes("play 0-2"), "RUN3 8-9-10");
  EXPECT_EQ(Makes("play 2-3 x=10"), "RUN2 9-10");
  EXPECT_EQ(Makes("play 2-3 x=8"), "RUN2 8-9");
  EXPECT_EQ(Makes("play 2-3 x=9"), "PAIR 9");
  EXPECT_THAT(Makes("play 2-3 x=5"), StartsWith("KK-3.3: 9,X=5 is not a"));
  EXPECT_EQ(Makes("play 3 x=12"), "SOLO 12");
  EXPECT_EQ(Makes("play 1-3 x=11"), "RUN3 9-10-11");
  EXPECT_EQ(Makes("play 1-3 x=8"), "RUN3 8-9-10");
  EXPECT_EQ(Makes("play 3-4 x=4"), "RUN2 3-4");
}

// Hole H3: wrap-around blocks are refused naming KK-3.2.
TEST_F(E3, NoWrapAround) {
  Lead({12, 1, X, 11});
  EXPECT_THAT(Makes("play 0-1"), StartsWith("KK-3.2: 12,1 is not a combination"));
  EXPECT_THAT(Makes("play 1-2 x=12"), StartsWith("KK-3.2: 1,X=12"));
  EXPECT_EQ(Makes("play 2-3 x=12"), "RUN2 11-12");
  // 11-12-1 and 12-1-2 would both need the wrap-around.
  EXPECT_THAT(Makes("play 0-2 x=11"), StartsWith("KK-3.2: 12,1,X=11 is not"));
  EXPECT_THAT(Makes("play 0-2 x=2"), StartsWith("KK-3.2: 12,1,X=2"));
  Lead({11, 12, X});
  EXPECT_THAT(Makes("play 0-2 x=1"), StartsWith("KK-3.2: 11,12,X=1"));
  EXPECT_EQ(Makes("play 0-2 x=10"), "RUN3 10-11-12");
}

// E4 (comparison, KK-3.5): target -> play : beats?
TEST(KrassKariertExamples, E4_ComparisonTable) {
  auto S = [](ComboType t, int key) { return MakeStrength(t, key); };
  using T = ComboType;
  EXPECT_TRUE(Beats(S(T::kSolo, 12), S(T::kSolo, 8)));
  EXPECT_TRUE(Beats(S(T::kRun2, 5), S(T::kSolo, 12)));
  EXPECT_TRUE(Beats(S(T::kRun2, 6), S(T::kRun2, 5)));
  EXPECT_TRUE(Beats(S(T::kPair, 1), S(T::kRun2, 12)));
  EXPECT_TRUE(Beats(S(T::kRun3, 3), S(T::kPair, 12)));
  EXPECT_TRUE(Beats(S(T::kTrips, 1), S(T::kRun3, 12)));
  int pair7x[2] = {7, 7};
  EXPECT_FALSE(Beats(Classify(pair7x, 2), S(T::kPair, 7)));
  int run56x[2] = {6, 5};
  EXPECT_FALSE(Beats(Classify(run56x, 2), S(T::kRun2, 6)));
  EXPECT_FALSE(Beats(S(T::kPair, 12), S(T::kRun3, 8)));
  EXPECT_FALSE(Beats(S(T::kSolo, 12), S(T::kSolo, 12)));
  for (int t = 1; t <= 5; ++t) {
    for (int k = 1; k <= 12; ++k) {
      EXPECT_FALSE(Beats(S(static_cast<T>(t), k), S(T::kTrips, 12)));
    }
  }
}

// E4 through the engine: the X rows are refused naming KK-3.5.
TEST(KrassKariertExamples, E4_EqualStrengthRefusedByEngine) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({7, 7, 1});
  st.hands[2] = p.Hand({7, X, 6, 1});
  st.hands[3] = p.Hand({1});
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-1");  // PAIR 7
  EXPECT_EQ(Rejection(*s, "play 0-1 x=7"),
            "KK-3.5: PAIR 7 does not beat the target PAIR 7 (equal strength "
            "never beats)");
  EXPECT_THAT(Rejection(*s, "play 1-2 x=5"),
              StartsWith("KK-3.5: RUN2 5-6 does not beat the target PAIR 7"));
}

// E5 (basic trick, KK-4, KK-9, KK-10.1). KK-9.1(b): the last combination
// wins; KK-9.4: the round goes on and the next leader follows (KK-10).
TEST(KrassKariertExamples, E5_BasicTrick) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({8, 1});
  st.hands[2] = p.Hand({12, 1});
  st.hands[3] = p.Hand({5, 4, 1});
  st.hands[0] = p.Hand({5, 6, 1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");    // S1 SOLO 8
  KK_DO(*s, "play 0");    // S2 SOLO 12
  KK_DO(*s, "play 0-1");  // S3 RUN2 (5,4)
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kRun2, 5));
  KK_DO(*s, "play 0-1");  // S0 RUN2 (5,6)
  EXPECT_EQ(s->trick(), 2);
  EXPECT_EQ(s->leader(), 0);
  EXPECT_EQ(s->current_seat(), 0);
  EXPECT_EQ(s->draws_in_trick(), 0);
}

// E6 (reserve, KK-6).
class E6 : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = MakeGame(4);
    s_ = NewState(*game_);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[0] = p.Hand({11, 11, 1});
    st.hands[1] = p.Hand({6, 7, 8, 1});
    st.hands[2] = p.Hand({6, 2, 11});
    st.reserves[2] = {p.Num(7), p.Num(12)};
    st.hands[3] = p.Hand({4, 9});
    st.reserves[3] = {p.Num(12), p.Num(1)};
    st.leader = 0;
    ASSERT_TRUE(s_->SetUpForTest(st).ok());
    KK_DO(*s_, "play 0-1");  // S0 PAIR 11
    KK_DO(*s_, "play 0-2");  // S1 RUN3 (6,7,8)
    KK_DO(*s_, "reserve 0@1");
    EXPECT_EQ(HandString(*s_, 2), "6,7,2,11");
    EXPECT_EQ(s_->reserve(2, 0), kNoCard);
    EXPECT_NE(s_->reserve(2, 1), kNoCard);
  }
  std::unique_ptr<KrassKariertGame> game_;
  std::unique_ptr<KrassKariertState> s_;
};

TEST_F(E6, ReserveInsertedAtPosition) {
  KK_DO(*s_, "reserve 0@2");
  EXPECT_EQ(HandString(*s_, 3), "4,9,12");
  EXPECT_EQ(s_->leader(), 1);  // W = S1
  EXPECT_EQ(s_->current_seat(), 1);
}

TEST_F(E6, VariantOtherSlotAtFront) {
  KK_DO(*s_, "reserve 1@0");
  EXPECT_EQ(HandString(*s_, 3), "1,4,9");
  EXPECT_EQ(s_->leader(), 1);
}

// E7 (winner out, second-highest leads, KK-10.2).
TEST(KrassKariertExamples, E7_SecondHighestLeads) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[2] = p.Hand({3, 1});
  st.hands[3] = p.Hand({9, 1});
  st.hands[0] = p.Hand({1});
  st.reserves[0] = {p.Num(5), kNoCard};
  st.hands[1] = p.Hand({10, 10});
  st.leader = 2;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");       // S2 SOLO 3
  KK_DO(*s, "play 0");       // S3 SOLO 9
  KK_DO(*s, "reserve 0@0");  // S0
  KK_DO(*s, "play 0-1");     // S1 PAIR 10 -> empty
  EXPECT_FALSE(s->is_active(1));
  EXPECT_EQ(s->active_seats(), SeatBit(0) | SeatBit(2) | SeatBit(3));
  EXPECT_EQ(s->leader(), 3);
}

// E8 (only combination player, KK-10.3), both fallback directions.
void RunE8(const std::string& fallback, int expected_leader) {
  auto game = MakeGame(4, 2, -1, fallback);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[2] = p.Hand({11, 11, 11});
  for (int seat : {3, 0, 1}) {
    st.hands[seat] = p.Hand({1});
    st.reserves[seat] = {p.Num(2), kNoCard};
  }
  st.leader = 2;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-2");  // TRIPS 11 -> empty
  KK_DO(*s, "reserve 0@0");
  KK_DO(*s, "reserve 0@0");
  KK_DO(*s, "reserve 0@0");
  EXPECT_EQ(s->active_seats(), SeatBit(0) | SeatBit(1) | SeatBit(3));
  EXPECT_EQ(s->leader(), expected_leader) << fallback;
  EXPECT_EQ(s->current_seat(), expected_leader);
}
TEST(KrassKariertExamples, E8_FallbackCcw) { RunE8("CCW", 1); }
TEST(KrassKariertExamples, E8_FallbackCw) { RunE8("CW", 3); }

// E9 (fallback skips inactive seats).
void RunE9(const std::string& fallback, int expected_leader) {
  auto game = MakeGame(4, 2, -1, fallback);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[2] = p.Hand({11, 11, 11});
  for (int seat : {3, 0}) {
    st.hands[seat] = p.Hand({1});
    st.reserves[seat] = {p.Num(2), kNoCard};
  }
  st.active = SeatBit(0) | SeatBit(2) | SeatBit(3);  // S1 left earlier
  st.leader = 2;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-2");
  KK_DO(*s, "reserve 0@0");  // S3
  KK_DO(*s, "reserve 0@1");  // S0
  EXPECT_EQ(s->active_seats(), SeatBit(0) | SeatBit(3));
  EXPECT_EQ(s->leader(), expected_leader) << fallback;
}
TEST(KrassKariertExamples, E9_FallbackSkipsInactiveCcw) { RunE9("CCW", 0); }
TEST(KrassKariertExamples, E9_FallbackSkipsInactiveCw) { RunE9("CW", 3); }

// E10 (second-highest is out too; N = 5).
TEST(KrassKariertExamples, E10_SecondHighestAlsoOut) {
  auto game = MakeGame(5);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({2, 1});
  st.hands[1] = p.Hand({5, 1});
  st.hands[2] = p.Hand({9});
  st.hands[3] = p.Hand({11});
  st.hands[4] = p.Hand({1});
  st.reserves[4] = {kNoCard, p.Num(3)};
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");  // S2's last card
  KK_DO(*s, "play 0");  // S3's last card
  KK_DO(*s, "reserve 1@1");
  EXPECT_EQ(s->active_seats(), SeatBit(0) | SeatBit(1) | SeatBit(4));
  EXPECT_EQ(s->leader(), 1);
}

// E11 (STOP mid-trick, KK-7).
TEST(KrassKariertExamples, E11_StopMidTrick) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({4, 4, 1});
  st.hands[2] = p.Hand({STOP, 2});
  st.hands[3] = p.Hand({6, 6, 6});
  st.reserves[3] = {p.Num(9), p.Num(10)};
  st.hands[0] = p.Hand({7, 7});
  st.reserves[0] = {p.Num(11), kNoCard};
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  const std::vector<Card> hand3(s->hand(3).begin(), s->hand(3).end());
  const std::vector<Card> hand0(s->hand(0).begin(), s->hand(0).end());
  KK_DO(*s, "play 0-1");  // PAIR 4
  KK_DO(*s, "play 0");    // STOP
  EXPECT_EQ(s->trick(), 2);
  EXPECT_EQ(s->leader(), 2);
  EXPECT_EQ(Span2Vec(s->hand(3)), hand3);
  EXPECT_EQ(Span2Vec(s->hand(0)), hand0);
  EXPECT_NE(s->reserve(3, 0), kNoCard);
  EXPECT_NE(s->reserve(3, 1), kNoCard);
  EXPECT_NE(s->reserve(0, 0), kNoCard);
}

// E12 (STOP as lead and last card, KK-7.1, KK-10.3).
void RunE12(const std::string& fallback, int expected_leader) {
  auto game = MakeGame(4, 2, -1, fallback);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({STOP});
  st.hands[2] = p.Hand({1});
  st.hands[3] = p.Hand({1});
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  EXPECT_FALSE(s->is_active(1));
  EXPECT_EQ(s->leader(), expected_leader) << fallback;
}
TEST(KrassKariertExamples, E12_StopLeadLastCardCcw) { RunE12("CCW", 0); }
TEST(KrassKariertExamples, E12_StopLeadLastCardCw) { RunE12("CW", 2); }

// E13 (DRAW mid-trick, KK-8). KK-9.2: draws are resolved before the next
// trick; KK-15.2: the drawn cards are private to the winner; KK-14: they
// come from the top of the pile.
TEST(KrassKariertExamples, E13_DrawMidTrick) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({12, 1});
  st.hands[1] = p.Hand({7, 6, 1});
  st.hands[2] = p.Hand({3, 11, 12, 5});
  st.hands[3] = p.Hand({DRAW, 1});
  st.pile = p.Hand({4, X, 9, 10, 10, 10});
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  const Card four = st.pile[0], x = st.pile[1], nine = st.pile[2];
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0-1");
  KK_DO(*s, "play 1-2");
  KK_DO(*s, "play 0");  // DRAW: the target stays RUN2 11-12
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kRun2, 12));
  ASSERT_EQ(s->current_seat(), 2);
  EXPECT_THAT(Span2Vec(s->pending_drawn()), ElementsAre(four, x, nine));
  EXPECT_EQ(s->pile_size(), 3);
  // KK-16.3: S2 sees them, the others only their number.
  const KrassKariertObservation mine = s->Observe(2);
  EXPECT_EQ(mine.own_pending_count, 3);
  EXPECT_EQ(mine.own_pending[1], x);
  const KrassKariertObservation theirs = s->Observe(0);
  EXPECT_EQ(theirs.pending_count, 3);
  EXPECT_EQ(theirs.own_pending_count, 0);
  // Hole H2: the finished trick stays current while S2 places.
  EXPECT_EQ(theirs.drawing_seat, 2);
  EXPECT_EQ(theirs.drawn_count, 3);
  EXPECT_EQ(theirs.seat_to_act, 2);
  EXPECT_EQ(theirs.trick, 1);
  EXPECT_EQ(theirs.leader, 0);
  EXPECT_EQ(theirs.draws_in_trick, 1);
  EXPECT_EQ(theirs.trick_length, 4);
  EXPECT_EQ(HandString(*s, 2), "3,5");
  KK_DO(*s, "place 1");
  EXPECT_EQ(HandString(*s, 2), "3,4,5");
  KK_DO(*s, "place 0");
  EXPECT_EQ(HandString(*s, 2), "X,3,4,5");
  KK_DO(*s, "place 4");
  EXPECT_EQ(HandString(*s, 2), "X,3,4,5,9");
  EXPECT_EQ(s->pile_size(), 3);
  EXPECT_EQ(s->leader(), 2);
  EXPECT_EQ(s->current_seat(), 2);
  EXPECT_EQ(s->trick(), 2);
}

// E14 (two DRAWs, winner emptied hand, KK-8.3, KK-8.4).
TEST(KrassKariertExamples, E14_TwoDrawsWinnerEmptiedHand) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[3] = p.Hand({DRAW, 1});
  st.hands[0] = p.Hand({2, 1});
  st.hands[1] = p.Hand({DRAW, 1});
  st.hands[2] = p.Hand({7});
  st.pile = p.Hand({9, 3, X, 12, 5, 5});
  st.leader = 3;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");  // DRAW
  KK_DO(*s, "play 0");  // SOLO 2, no target yet
  KK_DO(*s, "play 0");  // DRAW, target stays SOLO 2
  EXPECT_EQ(s->target(), MakeStrength(ComboType::kSolo, 2));
  EXPECT_EQ(s->draws_in_trick(), 2);
  KK_DO(*s, "play 0");  // SOLO 7, its last card
  ASSERT_EQ(s->current_seat(), 2);
  EXPECT_EQ(s->pending_drawn().size(), 6u);
  EXPECT_EQ(s->pile_size(), 0);
  for (int i = 0; i < 6; ++i) KK_DO(*s, absl::StrCat("place ", i));
  EXPECT_EQ(Span2Vec(s->hand(2)), st.pile);
  EXPECT_TRUE(s->is_active(2));
  EXPECT_EQ(s->leader(), 2);
  EXPECT_EQ(s->pile_size(), 0);
}

// E15 (DRAW lead, no combination, KK-9.1c), and its variant. KK-9.1: the
// leader wins when no STOP and no combination was played.
TEST(KrassKariertExamples, E15_DrawLeadNoCombination) {
  for (bool second_draw : {false, true}) {
    auto game = MakeGame(4);
    auto s = NewState(*game);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[0] = p.Hand({DRAW, 1});
    for (int seat : {1, 2, 3}) {
      st.hands[seat] = p.Hand({5});
      st.reserves[seat] = {p.Num(6), kNoCard};
    }
    if (second_draw) st.hands[2] = {p.Draw(), p.Num(5)};
    st.pile = p.Hand({1, 2, 3, 4, 7, 8});
    st.leader = 0;
    ASSERT_TRUE(s->SetUpForTest(st).ok());
    KK_DO(*s, "play 0");
    KK_DO(*s, "reserve 0@0");
    KK_DO(*s, second_draw ? "play 0" : "reserve 0@0");
    KK_DO(*s, "reserve 0@0");
    ASSERT_EQ(s->current_seat(), 0);
    const int expected = second_draw ? 6 : 3;
    EXPECT_EQ(static_cast<int>(s->pending_drawn().size()), expected);
    for (int i = 0; i < expected; ++i) KK_DO(*s, "place 0");
    EXPECT_EQ(s->hand_length(0), 1 + expected);
    EXPECT_EQ(s->leader(), 0);
    EXPECT_EQ(s->trick(), 2);
  }
}

// E16 (stuck, KK-11.2, KK-12.2), with and without an earlier DRAW.
TEST(KrassKariertExamples, E16_StuckLosesChipAndLeadsNextRound) {
  for (bool with_draw : {false, true}) {
    auto game = MakeGame(4);
    auto s = NewState(*game);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[1] = p.Hand({5, 5, 1});
    st.hands[2] = p.Hand({3, 1, 12});
    st.hands[3] = p.Hand({8});
    st.reserves[3] = {p.Num(9), kNoCard};
    st.hands[0] = with_draw ? p.Hand({DRAW, 1}) : p.Hand({1});
    st.pile = p.Hand({6, 6, 6});
    st.leader = with_draw ? 0 : 1;
    ASSERT_TRUE(s->SetUpForTest(st).ok());
    if (with_draw) KK_DO(*s, "play 0");
    KK_DO(*s, "play 0-1");  // PAIR 5: S2 is stuck
    EXPECT_TRUE(s->IsChance());
    EXPECT_EQ(s->chips(2), 1);
    EXPECT_EQ(s->chips(1), 2);
    EXPECT_EQ(s->round_loss(1), SeatBit(2));
    EXPECT_EQ(s->rounds_completed(), 1);
    EXPECT_EQ(s->pile_size(), 3);            // nobody drew
    EXPECT_EQ(s->hand_length(3), 1);         // S3 did not act
    EXPECT_NE(s->reserve(3, 0), kNoCard);
    ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
    EXPECT_EQ(s->round(), 2);
    EXPECT_EQ(s->current_seat(), 2);
  }
}

// E17 (no pass, KK-5.3).
TEST(KrassKariertExamples, E17_NoPass) {
  auto game = MakeGame(4);
  {
    auto s = NewState(*game);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[1] = p.Hand({5, 5, 1});
    st.hands[2] = p.Hand({3, 1, 12});
    st.reserves[2] = {kNoCard, p.Num(2)};
    st.hands[3] = p.Hand({1});
    st.hands[0] = p.Hand({1});
    st.leader = 1;
    ASSERT_TRUE(s->SetUpForTest(st).ok());
    KK_DO(*s, "play 0-1");
    EXPECT_THAT(LegalStrings(*s), ElementsAre("reserve 1@0", "reserve 1@1",
                                              "reserve 1@2", "reserve 1@3"));
    KK_DO(*s, "reserve 1@1");
    EXPECT_EQ(HandString(*s, 2), "3,2,1,12");
  }
  {
    auto s = NewState(*game);
    CardPicker p;
    KrassKariertSetup st;
    st.hands[1] = p.Hand({5, 5, 1});
    st.hands[2] = p.Hand({6, 6, 1});
    st.hands[3] = p.Hand({1});
    st.hands[0] = p.Hand({1});
    st.leader = 1;
    ASSERT_TRUE(s->SetUpForTest(st).ok());
    KK_DO(*s, "play 0-1");
    EXPECT_THAT(LegalStrings(*s), ElementsAre("play 0-1"));
  }
}

// E18 (last player holding cards, KK-11.1a).
TEST(KrassKariertExamples, E18_LastPlayerHoldingCardsLoses) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[3] = p.Hand({9});
  st.hands[0] = p.Hand({10, 4});
  st.hands[1] = p.Hand({12});
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3);
  st.leader = 3;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  EXPECT_EQ(HandString(*s, 0), "4");
  KK_DO(*s, "play 0");
  EXPECT_TRUE(s->IsChance());
  EXPECT_EQ(s->round_loss(1), SeatBit(0));
  EXPECT_EQ(s->chips(0), 1);
  EXPECT_EQ(s->chips(1), 2);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(s->current_seat(), 0);
}

// E19 (several losers, KK-11.1b, KK-12.2), and its variant.
TEST(KrassKariertExamples, E19_SeveralLosersSeatZeroLeads) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({4});
  st.hands[1] = p.Hand({7, 8});
  st.hands[3] = p.Hand({2, 2});
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3);
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0-1");
  KK_DO(*s, "play 0-1");
  EXPECT_TRUE(s->IsChance());
  EXPECT_EQ(s->round_loss(1), SeatBit(0) | SeatBit(1));
  EXPECT_EQ(s->chips(0), 1);
  EXPECT_EQ(s->chips(1), 1);
  EXPECT_EQ(s->chips(3), 2);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(s->current_seat(), 0);
}

TEST(KrassKariertExamples, E19_VariantSeatZeroNotALoserStillLeads) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({4});
  st.hands[2] = p.Hand({7, 8});
  st.hands[3] = p.Hand({2, 2});
  st.active = SeatBit(1) | SeatBit(2) | SeatBit(3);
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0-1");
  KK_DO(*s, "play 0-1");
  EXPECT_EQ(s->round_loss(1), SeatBit(1) | SeatBit(2));
  EXPECT_EQ(s->chips(0), 2);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(s->current_seat(), 0);
}

// E20 (game end, KK-13).
std::unique_ptr<KrassKariertState> E19WithChips(const KrassKariertGame& game,
                                                std::array<int, 5> chips) {
  auto s = NewState(game);
  CardPicker p;
  KrassKariertSetup st;
  st.chips = chips;
  st.hands[0] = p.Hand({4});
  st.hands[1] = p.Hand({7, 8});
  st.hands[3] = p.Hand({2, 2});
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3);
  st.leader = 0;
  EXPECT_TRUE(s->SetUpForTest(st).ok());
  for (const char* a : {"play 0", "play 0-1", "play 0-1"}) {
    EXPECT_TRUE(testing::Do(*s, a).ok()) << a;
  }
  return s;
}

// Hole H4: terminal at once; round_losses includes the eliminated seat.
TEST(KrassKariertExamples, E20a_OneSeatCannotPay) {
  auto game = MakeGame(4);
  auto s = E19WithChips(*game, {1, 0, 2, 2, -1});
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->chips(0), 0);  // KK-13.2: S0 still pays
  EXPECT_EQ(s->chips(1), 0);
  const KrassKariertResult r = s->Result();
  EXPECT_THAT(r.losers, ElementsAre(1));
  EXPECT_THAT(r.winners, ElementsAre(0, 2, 3));
  EXPECT_THAT(r.chips, ElementsAre(0, 0, 2, 2));
  ASSERT_EQ(r.round_losses.size(), 1u);
  EXPECT_THAT(r.round_losses[0].seats, ElementsAre(0, 1));
  const GameOutcome o = s->Outcome();
  EXPECT_THAT(o.winners, ElementsAre(0, 2, 3));
  EXPECT_THAT(o.ranks, ElementsAre(1, 4, 1, 1));
  EXPECT_THAT(o.scores, ElementsAre(0, 0, 2, 2));
}

TEST(KrassKariertExamples, E20b_StuckSeatWithoutChip) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.chips = {2, 2, 0, 2, -1};
  st.hands[1] = p.Hand({5, 5, 1});
  st.hands[2] = p.Hand({3, 1, 12});
  st.hands[3] = p.Hand({1});
  st.hands[0] = p.Hand({1});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0-1");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_THAT(s->Result().losers, ElementsAre(2));
  EXPECT_THAT(s->Result().winners, ElementsAre(0, 1, 3));
}

TEST(KrassKariertExamples, E20c_TwoLosers) {
  auto game = MakeGame(4);
  auto s = E19WithChips(*game, {0, 0, 2, 2, -1});
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_THAT(s->Result().losers, ElementsAre(0, 1));
  EXPECT_THAT(s->Result().winners, ElementsAre(2, 3));
  EXPECT_THAT(s->Outcome().ranks, ElementsAre(3, 3, 1, 1));
}

// E21 (DRAW winner ends as the only player with cards, KK-8.4, KK-11.1a).
TEST(KrassKariertExamples, E21_DrawWinnerPlacesThenLosesChip) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[0] = p.Hand({DRAW});
  st.hands[1] = p.Hand({5});
  st.hands[3] = p.Hand({8});
  st.active = SeatBit(0) | SeatBit(1) | SeatBit(3);
  st.pile = p.Hand({1, 2, 3, 4, 6, 7});
  st.leader = 0;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  ASSERT_EQ(s->current_seat(), 3);
  EXPECT_THAT(LegalStrings(*s), ElementsAre("place 0"));
  KK_DO(*s, "place 0");
  EXPECT_THAT(LegalStrings(*s), ElementsAre("place 0", "place 1"));
  EXPECT_TRUE(s->is_active(0));  // nobody has left yet
  KK_DO(*s, "place 1");
  EXPECT_THAT(LegalStrings(*s), ElementsAre("place 0", "place 1", "place 2"));
  KK_DO(*s, "place 0");
  EXPECT_TRUE(s->IsChance());
  EXPECT_EQ(s->round_loss(1), SeatBit(3));
  EXPECT_EQ(s->chips(3), 1);
  ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal, Identity()).ok());
  EXPECT_EQ(s->current_seat(), 3);
}

// E22 (STOP after a DRAW, KK-7.3).
TEST(KrassKariertExamples, E22_StopAfterDrawDraws) {
  auto game = MakeGame(4);
  auto s = NewState(*game);
  CardPicker p;
  KrassKariertSetup st;
  st.hands[1] = p.Hand({6, 1});
  st.hands[2] = p.Hand({DRAW, 1});
  st.hands[3] = p.Hand({STOP, 1});
  st.hands[0] = p.Hand({1});
  st.reserves[0] = {p.Num(2), p.Num(3)};
  st.pile = p.Hand({4, 5, 7, 8});
  st.leader = 1;
  ASSERT_TRUE(s->SetUpForTest(st).ok());
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  KK_DO(*s, "play 0");
  ASSERT_EQ(s->current_seat(), 3);
  EXPECT_EQ(s->pending_drawn().size(), 3u);
  for (int i = 0; i < 3; ++i) KK_DO(*s, "place 0");
  EXPECT_EQ(s->hand_length(3), 4);
  EXPECT_EQ(s->leader(), 3);
  EXPECT_EQ(s->hand_length(0), 1);  // S0 did not act
  EXPECT_EQ(s->pile_size(), 1);
}

}  // namespace
}  // namespace cardref::krass_kariert
