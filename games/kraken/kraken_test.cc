// The Kraken state: parameters, the deal, trump selection, challenges,
// declarations, play, rejections, observations and results.
#include "games/kraken/kraken.h"

#include <set>
#include <string>

#include "absl/algorithm/container.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

using testing::Apply;
using testing::Cards;
using testing::DealADeck;
using testing::ExpectRejected;
using ::testing::ElementsAre;
using testing::LegalStrings;
using testing::MakeGame;
using testing::MsgHasSubstr;
using testing::MsgStartsWith;
using testing::Parse;

std::vector<Card> IdentityDeck() {
  std::vector<Card> d;
  d.reserve(kNumCards);
  for (int c = 0; c < kNumCards; ++c) d.push_back(static_cast<Card>(c));
  return d;
}

// --- Parameters (KR-3) -----------------------------------------------------

TEST(KrakenGameTest, GameInfoAndParameters_KR_3) {
  const GameInfo info = MakeGameInfo();
  EXPECT_EQ(info.id, "kraken");
  EXPECT_EQ(info.display_name, "Kraken");
  EXPECT_EQ(info.rules_prefix, "KR");
  EXPECT_EQ(info.rules_version, 1);
  EXPECT_EQ(info.min_seats, 4);  // KR-2.1
  EXPECT_EQ(info.max_seats, 4);
  std::vector<std::string> names;
  for (const ParamSpec& p : info.params) names.push_back(p.name);
  EXPECT_THAT(names,
              ElementsAre("trump_mode", "free_first_speaker", "random_all_pass",
                          "rule_set", "spades_double", "deal_pattern", "rounds",
                          "last_trick_bonus", "pit_bonus", "first_dealer"));
  absl::StatusOr<std::unique_ptr<Game>> game = info.create(GameParams{});
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ((*game)->params().ToString(),
            "deal_pattern=3-2-3,first_dealer=0,free_first_speaker=LEFT_OF_"
            "DEALER,last_trick_bonus=0,pit_bonus=0,random_all_pass=SECOND_"
            "CARD,rounds=16,rule_set=AMSTERDAM,spades_double=true,trump_mode="
            "UTRECHT");
  EXPECT_EQ((*game)->num_seats(), 4);
  EXPECT_EQ((*game)->id(), "kraken");
}

TEST(KrakenGameTest, RejectsValuesOutsideTheTable_KR_3) {
  auto create = [](const char* text) {
    absl::StatusOr<GameParams> p = ParseParams(text, MakeGameInfo().params);
    EXPECT_TRUE(p.ok()) << text;
    return MakeGameInfo().create(*p).status();
  };
  EXPECT_THAT(create("last_trick_bonus=5"),
              MsgStartsWith("KR-3: last_trick_bonus must be 0 or 10, got 5"));
  EXPECT_THAT(create("pit_bonus=50"),
              MsgStartsWith("KR-3: pit_bonus must be 0 or 100, got 50"));
  EXPECT_THAT(create("rounds=17"), MsgStartsWith("KR-3: parameter 'rounds'"));
  EXPECT_THAT(create("rounds=0"), MsgStartsWith("KR-3"));
  EXPECT_THAT(create("first_dealer=4"), MsgStartsWith("KR-3"));
  EXPECT_THAT(create("deal_pattern=5-3"), MsgStartsWith("KR-3"));
  EXPECT_THAT(create("trump_mode=ROYAL"), MsgStartsWith("KR-3"));
  GameParams unknown;
  unknown.Set("num_players", int64_t{4});
  EXPECT_THAT(MakeGameInfo().create(unknown).status(),
              MsgStartsWith("KR-3: unknown parameter 'num_players'"));
  EXPECT_TRUE(create("last_trick_bonus=10,pit_bonus=100,deal_pattern=4-4,"
                     "rounds=1,first_dealer=3")
                  .ok());
}

// --- Deal and structure (KR-4, KR-17.1) --------------------------------------

TEST(KrakenStateTest, DealIsAChanceEvent_KR_4_2_KR_17_1) {
  auto game = MakeGame({{"deal_pattern", std::string("4-4")}});
  auto state = game->NewKrakenState();
  EXPECT_TRUE(state->IsChance());
  EXPECT_EQ(state->current_seat(), -1);  // no seat acts before a deal
  EXPECT_EQ(state->chance_kind(), ChanceKind::kDeal);
  std::array<Card, 64> cards;
  ASSERT_EQ(state->ChanceCards(absl::MakeSpan(cards)), 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(cards[i], i);
  EXPECT_EQ(state->round(), 1);
  EXPECT_EQ(state->rounds_completed(), 0);
  // Not a permutation / wrong kind: rejected, state unchanged.
  std::vector<Card> bad = IdentityDeck();
  bad[5] = 4;
  EXPECT_THAT(state->ApplyChance(ChanceKind::kDeal, bad),
              MsgStartsWith("KR-4.2"));
  EXPECT_FALSE(
      state->ApplyChance(ChanceKind::kDeal, absl::MakeSpan(bad).subspan(1))
          .ok());
  EXPECT_FALSE(state->ApplyChance(ChanceKind::kTrumpDeck, IdentityDeck()).ok());
  EXPECT_TRUE(state->IsChance());
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  EXPECT_EQ(CardsToString(state->hand(0)), "KC TD QD AD 7H 8H AH 8S");  // E1
  EXPECT_EQ(CardsToString(state->hand(3)), "7D 8D TH JH QH KH 9S KS");
  EXPECT_FALSE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  ActionList none;
  EXPECT_EQ(state->ApplyAction(0).code(), absl::StatusCode::kInvalidArgument);
}

// KR-2.1, spec "Conventions": teams and neighbours.
TEST(KrakenStateTest, Partnerships_KR_2_1) {
  EXPECT_EQ(TeamOf(0), 0);
  EXPECT_EQ(TeamOf(2), 0);
  EXPECT_EQ(TeamOf(1), 1);
  EXPECT_EQ(TeamOf(3), 1);
  EXPECT_EQ(PartnerOf(3), 1);
  EXPECT_EQ(LeftOf(3), 0);
  EXPECT_EQ(RightOf(0), 3);
}

// KR-6 trump selection. KR-6.2: Utrecht, eldest must name a suit; KR-6.1
// eldest is maker.
TEST(KrakenTrumpTest, Utrecht_KR_6_2) {
  auto game = MakeGame({{"first_dealer", int64_t{2}}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  EXPECT_EQ(state->current_seat(), 3);
  EXPECT_THAT(LegalStrings(*state),
              ElementsAre("trump C", "trump D", "trump H", "trump S"));
  ExpectRejected(*state, 3, "pass",
                 "KR-6.2: Utrecht: eldest (seat 3) must name a trump suit");
  ExpectRejected(*state, 3, "accept", "KR-6.2");
  ExpectRejected(*state, 0, "trump H", "KR-6.2: out of turn");
  ExpectRejected(*state, 3, "play 7C", "KR-6.2: play has not started");
  ExpectRejected(*state, 3, "challenge", "KR-7.1: challenges start only once");
  Apply(*state, 3, "trump D");
  EXPECT_EQ(state->trump(), kDiamonds);
  EXPECT_EQ(state->maker(), 3);
  EXPECT_EQ(state->phase(), Phase::kChallenge);
  EXPECT_EQ(state->current_seat(), 0);  // KR-7.2: left of the maker
  ExpectRejected(*state, 0, "trump C", "KR-6.1: trump is already fixed");
}

// KR-6.3: FREE; speakers from F; all pass forces F.
TEST(KrakenTrumpTest, FreeChoice_KR_6_3) {
  for (const char* first : {"LEFT_OF_DEALER", "DEALER"}) {
    auto game = MakeGame({{"trump_mode", std::string("FREE")},
                          {"free_first_speaker", std::string(first)},
                          {"first_dealer", int64_t{1}}});
    auto state = game->NewKrakenState();
    ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
    const int f = std::string(first) == "DEALER" ? 1 : 2;
    for (int i = 0; i < 4; ++i) {
      ASSERT_EQ(state->current_seat(), (f + i) % 4);
      EXPECT_THAT(
          LegalStrings(*state),
          ElementsAre("trump C", "trump D", "trump H", "trump S", "pass"));
      ExpectRejected(*state, (f + i) % 4, "accept", "KR-6.3");
      Apply(*state, (f + i) % 4, "pass");
    }
    ASSERT_EQ(state->phase(), Phase::kTrumpForced);
    ASSERT_EQ(state->current_seat(), f);
    EXPECT_THAT(LegalStrings(*state),
                ElementsAre("trump C", "trump D", "trump H", "trump S"));
    ExpectRejected(*state, f, "pass",
                   "KR-6.3: all four passed: seat " + std::to_string(f) +
                       " must now name a trump suit");
    Apply(*state, f, "trump S");
    EXPECT_EQ(state->maker(), f);  // KR-6.1: the forced seat is maker
    const KrakenObservation o = state->Observe((f + 1) % 4);
    ASSERT_EQ(o.trump_actions.size(), 5u);  // KR-16.1: every trump action
    EXPECT_EQ(o.trump_actions[4].seat, f);
    EXPECT_EQ(o.trump_actions[4].action, ChooseTrumpAction(kSpades));
  }
  // A speaker naming a suit ends selection at once.
  auto game = MakeGame({{"trump_mode", std::string("FREE")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
  Apply(*state, 1, "pass");
  Apply(*state, 2, "trump C");
  EXPECT_EQ(state->maker(), 2);
  EXPECT_EQ(state->phase(), Phase::kChallenge);
  EXPECT_EQ(state->current_seat(), 3);
}

std::vector<Card> TrumpDeckStarting(absl::string_view first) {
  std::vector<Card> d = testing::CardList(first);
  for (int c = 0; c < kNumCards; ++c) {
    if (!absl::c_linear_search(d, c)) d.push_back(static_cast<Card>(c));
  }
  return d;
}

// E7 (KR-6.4, KR-6.4a, KR-6.4b, KR-6.5). KR-1.2: the trump deck is a second,
// independent 32-card deck, ordered by its own chance event.
TEST(KrakenTrumpTest, E7_RandomAllPass_KR_6_4) {
  for (const char* all_pass : {"SECOND_CARD", "CALL_OTHER"}) {
    SCOPED_TRACE(all_pass);
    auto game = MakeGame({{"trump_mode", std::string("RANDOM")},
                          {"random_all_pass", std::string(all_pass)},
                          {"first_dealer", int64_t{2}}});
    auto state = game->NewKrakenState();
    ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
    // Ruling: every RANDOM round records its whole trump deck right after
    // the deal, as a chance event of its own.
    ASSERT_TRUE(state->IsChance());
    EXPECT_EQ(state->chance_kind(), ChanceKind::kTrumpDeck);
    EXPECT_EQ(state->current_seat(), -1);
    ASSERT_TRUE(
        state
            ->ApplyChance(ChanceKind::kTrumpDeck, TrumpDeckStarting("9S 7S QD"))
            .ok());
    EXPECT_EQ(state->proposed_suit(), kSpades);
    // KR-6.5: only the turned card is visible.
    EXPECT_THAT(state->Observe(0).turned_trump_cards,
                ElementsAre(*ParseCard("9S")));
    for (int seat : {3, 0, 1, 2}) {
      ASSERT_EQ(state->current_seat(), seat);
      EXPECT_THAT(LegalStrings(*state), ElementsAre("pass", "accept"));
      ExpectRejected(*state, seat, "trump S",
                     "KR-6.4: seat " + std::to_string(seat) +
                         " may only ACCEPT_TRUMP (proposed S) or PASS_TRUMP");
      Apply(*state, seat, "pass");
    }
    if (std::string(all_pass) == "SECOND_CARD") {
      // 7S turned (same suit, go on), QD turned: trump D, maker s3, no
      // seat acted for it (KR-17.1).
      EXPECT_EQ(state->trump(), kDiamonds);
      EXPECT_EQ(state->maker(), 3);
      EXPECT_EQ(state->phase(), Phase::kChallenge);
      EXPECT_THAT(
          state->Observe(1).turned_trump_cards,
          ElementsAre(*ParseCard("9S"), *ParseCard("7S"), *ParseCard("QD")));
      EXPECT_EQ(state->Observe(1).trump_actions.size(), 4u);
    } else {
      ASSERT_EQ(state->current_seat(), 3);
      EXPECT_THAT(LegalStrings(*state),
                  ElementsAre("trump C", "trump D", "trump H"));
      ExpectRejected(*state, 3, "trump S",
                     "KR-6.4b: all four passed on S: eldest (seat 3) must "
                     "name a suit other than S");
      ExpectRejected(*state, 3, "pass", "KR-6.4b");
      Apply(*state, 3, "trump H");
      EXPECT_EQ(state->maker(), 3);
      EXPECT_EQ(state->trump(), kHearts);
      EXPECT_EQ(state->Observe(1).turned_trump_cards.size(), 1u);
    }
  }
}

// KR-6.4: ACCEPT makes the accepting seat maker with the proposed suit.
TEST(KrakenTrumpTest, RandomAccept_KR_6_4) {
  auto game = MakeGame({{"trump_mode", std::string("RANDOM")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
  ASSERT_TRUE(
      state->ApplyChance(ChanceKind::kTrumpDeck, TrumpDeckStarting("AH")).ok());
  Apply(*state, 1, "pass");
  Apply(*state, 2, "accept");
  EXPECT_EQ(state->trump(), kHearts);
  EXPECT_EQ(state->maker(), 2);
  EXPECT_EQ(state->current_seat(), 3);
}

// Ruling (KR-6.4a [fill]): SECOND_CARD turns on past every card of the
// refused suit, however many (here seven more spades).
TEST(KrakenTrumpTest, Ruling_SecondCardTurnsPastTheRefusedSuit_KR_6_4a) {
  auto game = MakeGame({{"trump_mode", std::string("RANDOM")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
  ASSERT_TRUE(state
                  ->ApplyChance(ChanceKind::kTrumpDeck,
                                TrumpDeckStarting("AS 7S 8S 9S TS JS QS KS 7C"))
                  .ok());
  for (int seat : {1, 2, 3, 0}) Apply(*state, seat, "pass");
  EXPECT_EQ(state->trump(), kClubs);
  EXPECT_EQ(state->maker(), 1);
  EXPECT_EQ(state->Observe(0).turned_trump_cards.size(), 9u);
}

// --- Challenges (KR-7) -----------------------------------------------------

// A UTRECHT state with dealer 2, so eldest s3 is maker (trump H).
std::unique_ptr<KrakenState> MakerS3(const KrakenGame& game) {
  auto state = game.NewKrakenState();
  EXPECT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  Apply(*state, 3, "trump H");
  return state;
}

// E8: maker s3, L = s0, R = s2, P = s1.
TEST(KrakenChallengeTest, E8_ChallengeOrder_KR_7) {
  auto game = MakeGame({{"first_dealer", int64_t{2}}});
  auto state = MakerS3(*game);
  ASSERT_EQ(state->current_seat(), 0);
  EXPECT_THAT(LegalStrings(*state), ElementsAre("challenge", "pass-challenge"));
  // A CHALLENGE by s1 in step 1 is out of turn.
  ExpectRejected(*state, 1, "challenge", "KR-7.2: out of turn");
  Apply(*state, 0, "pass-challenge");
  Apply(*state, 2, "challenge");
  EXPECT_EQ(state->level(), 1);
  ExpectRejected(*state, 0, "challenge", "KR-7.3: out of turn");
  Apply(*state, 3, "pass-challenge");
  Apply(*state, 1, "challenge");
  EXPECT_EQ(state->level(), 2);
  ExpectRejected(*state, 2, "challenge", "KR-7.4: out of turn");
  Apply(*state, 0, "challenge");
  EXPECT_EQ(state->level(), 3);  // KR-7.4: nothing follows
  EXPECT_EQ(state->phase(), Phase::kDeclare);
  // An out-of-order challenge after the phase.
  ExpectRejected(*state, 3, "challenge", "KR-7.1: the challenges are over");
  // KR-7.5: the level and every challenge action are public.
  const KrakenObservation o = state->Observe(2);
  EXPECT_EQ(o.level, 3);
  ASSERT_EQ(o.challenge_actions.size(), 5u);
  EXPECT_EQ(o.challenge_actions[1].seat, 2);
  EXPECT_EQ(o.challenge_actions[1].action, ChallengeAction());
  // KR-7.6: burden = defenders (team 0) at level 3.
  EXPECT_EQ(BurdenTeam(3, TeamOf(3)), 0);
}

// E8 second half: had s0 challenged in step 1, s2 does not speak in step 1.
TEST(KrakenChallengeTest, FirstChallengeEndsTheStep_KR_7_2) {
  auto game = MakeGame({{"first_dealer", int64_t{2}}});
  auto state = MakerS3(*game);
  Apply(*state, 0, "challenge");
  EXPECT_EQ(state->current_seat(), 3);  // step 2: the maker
  ExpectRejected(*state, 2, "challenge", "KR-7.3: out of turn");
  ExpectRejected(*state, 2, "pass-challenge", "KR-7.3: out of turn");
}

// KR-7.2..7.4: levels after each way of ending.
TEST(KrakenChallengeTest, Levels_KR_7_2_KR_7_3_KR_7_4_KR_7_5) {
  struct Case {
    std::vector<std::pair<int, const char*>> moves;
    int level;
  };
  const Case cases[] = {
      {{{0, "pass-challenge"}, {2, "pass-challenge"}}, 0},
      {{{0, "challenge"}, {3, "pass-challenge"}, {1, "pass-challenge"}}, 1},
      {{{0, "pass-challenge"},
        {2, "challenge"},
        {3, "pass-challenge"},
        {1, "challenge"},
        {0, "pass-challenge"},
        {2, "pass-challenge"}},
       2},
      {{{0, "challenge"},
        {3, "challenge"},
        {0, "pass-challenge"},
        {2, "challenge"}},
       3},
  };
  auto game = MakeGame({{"first_dealer", int64_t{2}}});
  for (const Case& c : cases) {
    auto state = MakerS3(*game);
    for (const auto& [seat, text] : c.moves) {
      ASSERT_EQ(state->phase(), Phase::kChallenge);
      Apply(*state, seat, text);
    }
    EXPECT_EQ(state->phase(), Phase::kDeclare);
    EXPECT_EQ(state->level(), c.level);
    EXPECT_EQ(state->current_seat(), 3);  // KR-8.1: eldest declares first
  }
}

// --- Declarations (KR-8) ---------------------------------------------------

TEST(KrakenDeclareTest, LegalListAndRejections_KR_8_1_KR_8_3) {
  auto game = MakeGame({{"trump_mode", std::string("FREE")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  Apply(*state, 1, "pass");
  Apply(*state, 2, "pass");
  Apply(*state, 3, "trump H");
  Apply(*state, 0, "pass-challenge");
  Apply(*state, 2, "pass-challenge");
  // KR-8.1: eldest, ..., dealer; a single legal action is still asked:
  // KR-17.2, the engine never acts for a seat, even with no choice.
  ASSERT_EQ(state->current_seat(), 1);
  EXPECT_THAT(LegalStrings(*state), ElementsAre("declare"));
  EXPECT_EQ(state->node_type(), NodeType::kDecision);
  ExpectRejected(*state, 1, "declare run:7C8C9C",
                 "KR-8.3: RUN 7C 8C 9C is not in your hand (8C 9C not held)");
  ExpectRejected(*state, 1, "play 7C", "KR-8.1: play has not started");
  ExpectRejected(*state, 3, "declare", "KR-8.1: out of turn");
  Apply(*state, 1, "declare");
  Apply(*state, 2, "declare");
  ASSERT_EQ(state->current_seat(), 3);
  EXPECT_THAT(LegalStrings(*state),
              ElementsAre("declare", "declare run:8S,9S,TS"));
  // A malformed combination is refused when the text is read (KR-8.2).
  EXPECT_THAT(ParseKrakenAction("declare run:8S,9S").status(),
              MsgStartsWith("KR-8.2: a RUN is 3 or more consecutive cards"));
  ExpectRejected(*state, 3, "declare four:QC,QD,QH,QS",
                 "KR-8.3: FOUR QC QD QH QS is not in your hand");
  Apply(*state, 3, "declare run:8S,9S,TS");
  // KR-8.1: accepted declarations are public at once; KR-16.1: the winner
  // only after the fourth.
  KrakenObservation o = state->Observe(0);
  EXPECT_TRUE(o.declared[3]);
  EXPECT_EQ(DeclarationPoints(o.declarations[3]), 20);
  EXPECT_FALSE(o.contest_decided);
  EXPECT_EQ(o.contest_winner, -1);
  EXPECT_EQ(o.declaration_points[1], 0);
  Apply(*state, 0, "declare");
  o = state->Observe(0);
  EXPECT_TRUE(o.contest_decided);
  EXPECT_EQ(o.contest_winner, 3);
  EXPECT_EQ(o.declaration_points[1], 20);
  ExpectRejected(*state, 1, "declare", "KR-8.1: every seat has declared");
  // KR-9.1: eldest leads trick 1 although s3 made trump.
  EXPECT_EQ(state->phase(), Phase::kPlay);
  EXPECT_EQ(state->current_seat(), 1);
}

// E5 through the state: s1 50, s2 100, s3 100, s0 20 -> s2 wins (KR-8.4).
TEST(KrakenDeclareTest, E5_ContestThroughTheState_KR_8_4) {
  const std::array<CardMask, 4> hands = {
      Cards("7H 8H 9H JH QH AH QC AS"), Cards("7C 8C 9C TC QD 7S 9S JS"),
      Cards("7D 8D 9D TD JD AC 8S TS"), Cards("KC KD KH KS JC AD TH QS")};
  const auto deck = DeckForHands(hands, 0, DealPattern::k323);
  for (bool s2_declares : {true, false}) {
    auto game = MakeGame();
    auto state = game->NewKrakenState();
    ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, deck).ok());
    Apply(*state, 1, "trump C");
    Apply(*state, 2, "pass-challenge");
    Apply(*state, 0, "pass-challenge");
    Apply(*state, 1, "declare run:7C8C9CTC");
    Apply(*state, 2, s2_declares ? "declare run:7D8D9DTDJD" : "declare");
    Apply(*state, 3, "declare four:KC,KD,KH,KS");
    Apply(*state, 0, "declare run:7H8H9H");
    if (s2_declares) {
      EXPECT_EQ(state->contest_winner(), 2);
      EXPECT_EQ(state->declaration_points()[0], 120);
      EXPECT_EQ(state->declaration_points()[1], 0);
    } else {
      EXPECT_EQ(state->contest_winner(), 3);
      EXPECT_EQ(state->declaration_points()[0], 0);
      EXPECT_EQ(state->declaration_points()[1], 150);
    }
  }
}

// KR-8.5 / KR-13: trump K+Q in hand is no hand combination.
TEST(KrakenDeclareTest, StukIsNotAHandCombination_KR_8_5) {
  std::array<uint32_t, kMaxDeclarations> list;
  EXPECT_EQ(ListDeclarations(Cards("KH QH 7C 9D JS AS 8D TC"), list), 1);
}

// --- Play ------------------------------------------------------------------

TEST(KrakenPlayTest, FromPositionAndRejections_KR_9_KR_10) {
  auto game = MakeGame();
  // E2 row h under AMSTERDAM: s0 AC, s1 9H; s2 holds 8H JH QS.
  KrakenPosition pos;
  pos.dealer = 3;
  pos.trump = kHearts;
  pos.maker = 1;
  pos.trick_index = 5;
  pos.leader = 0;
  pos.trick = testing::CardList("AC 9H");
  pos.hands = {Cards("7C 8C"), Cards("7D 8D"), Cards("8H JH QS"),
               Cards("7S 8S 9S")};
  absl::StatusOr<std::unique_ptr<KrakenState>> st =
      KrakenState::FromPosition(*game, pos);
  ASSERT_TRUE(st.ok()) << st.status();
  KrakenState& state = **st;
  EXPECT_EQ(state.current_seat(), 2);
  EXPECT_THAT(LegalStrings(state), ElementsAre("play JH"));
  ExpectRejected(state, 2, "play QS",
                 "KR-10.2: must overtrump: the opponent is winning with a "
                 "trump and you hold JH");
  ExpectRejected(state, 2, "play 8H", "KR-10.2: must overtrump");
  ExpectRejected(state, 2, "play AS", "KR-9.2: you do not hold AS");
  ExpectRejected(state, 2, "trump H", "KR-6.1: trump is already fixed");
  ExpectRejected(state, 3, "play 7S", "KR-9.2: out of turn");
  // Malformed values are rejected too (KR-17.3).
  std::unique_ptr<State> before = state.Clone();
  EXPECT_THAT(state.ApplyAction(0x7FFFFFFF), MsgStartsWith("KR-17.3"));
  EXPECT_TRUE(state == static_cast<const KrakenState&>(*before));
  // Inconsistent positions are refused.
  KrakenPosition bad = pos;
  bad.hands[0] = Cards("7C 8C 9C");
  EXPECT_FALSE(KrakenState::FromPosition(*game, bad).ok());
  bad = pos;
  bad.hands[1] = Cards("7C 8D");
  EXPECT_FALSE(KrakenState::FromPosition(*game, bad).ok());
}

// Under-trump under Amsterdam: E2 row g.
TEST(KrakenPlayTest, UnderTrumpUnderAmsterdamIsRejected_KR_10_2) {
  auto game = MakeGame();
  KrakenPosition pos;
  pos.trump = kHearts;
  pos.trick_index = 4;
  pos.leader = 0;
  pos.trick = testing::CardList("AC 9H");
  pos.hands = {Cards("7C 8C 9C"), Cards("7D 9D TD"), Cards("8D 8H AH QS"),
               Cards("7S 8S 9S TS")};
  auto st = KrakenState::FromPosition(*game, pos);
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_THAT(LegalStrings(**st), ElementsAre("play 8D", "play QS"));
  ExpectRejected(**st, 2, "play AH", "KR-10.2: may not undertrump");
}

// KR-9 trick play. KR-9.1, KR-9.2, KR-9.4: the winner leads; every seat plays
// once per trick; the winner's team takes the points.
TEST(KrakenPlayTest, WinnerLeadsAndTakesTheTrick_KR_9_1_KR_9_2_KR_9_4) {
  auto game = MakeGame({{"rounds", int64_t{1}}});
  KrakenPosition pos;
  pos.trump = kSpades;
  pos.trick_index = 6;
  pos.leader = 2;
  pos.hands = {Cards("7C AH"), Cards("8C KH"), Cards("9C QD"), Cards("JC 7H")};
  auto st = KrakenState::FromPosition(*game, pos);
  ASSERT_TRUE(st.ok()) << st.status();
  KrakenState& state = **st;
  Apply(state, 2, "play 9C");
  Apply(state, 3, "play JC");
  Apply(state, 0, "play 7C");
  Apply(state, 1, "play 8C");
  // 7C 8C 9C JC: a run of 3 (7-8-9): a window for the winner s3.
  ASSERT_EQ(state.phase(), Phase::kClaim);
  EXPECT_EQ(state.current_seat(), 3);
  Apply(state, 3, "decline");
  EXPECT_EQ(state.current_seat(), 3);
  EXPECT_EQ(state.trick(6).winner, 3);
  EXPECT_EQ(state.trick(6).points, 2);
  Apply(state, 3, "play 7H");
  Apply(state, 0, "play AH");
  Apply(state, 1, "play KH");
  Apply(state, 2, "play QD");
  ASSERT_TRUE(state.IsTerminal());  // KR-9.2: eight tricks, then scoring
  EXPECT_EQ(state.trick(7).winner, 0);
  EXPECT_EQ(state.round_results()[0].score.tricks_won[0] +
                state.round_results()[0].score.tricks_won[1],
            8);
}

// KR-13.1: the stuk may ride on the second of the two cards too.
TEST(KrakenPlayTest, StukOnTheSecondCard_KR_13_1) {
  auto game = MakeGame();
  KrakenPosition pos;
  pos.trump = kHearts;
  pos.trick_index = 5;
  pos.leader = 0;
  pos.stuk_holder = 0;
  pos.hands = {Cards("KH QH 7C"), Cards("7D 8D 9D"), Cards("7S 8S 9S"),
               Cards("TS JS QS")};
  auto st = KrakenState::FromPosition(*game, pos);
  ASSERT_TRUE(st.ok()) << st.status();
  KrakenState& state = **st;
  EXPECT_THAT(LegalStrings(state),
              ElementsAre("play 7C", "play QH", "play QH+stuk", "play KH",
                          "play KH+stuk"));
  Apply(state, 0, "play KH");  // no declaration with the first card
  Apply(state, 1, "play 7D");
  Apply(state, 2, "play 7S");
  Apply(state, 3, "play TS");
  ASSERT_EQ(state.current_seat(), 0);
  EXPECT_THAT(LegalStrings(state),
              ElementsAre("play 7C", "play QH", "play QH+stuk"));
  Apply(state, 0, "play QH+stuk");
  EXPECT_TRUE(state.Observe(2).stuk_declared[0]);
}

// Ruling: a PLAY that breaks a card obligation and carries an unjustified
// stuk is rejected for the card first (KR-9.x/10.x/11.x before KR-13.2):
// the card is the action's main content.
TEST(KrakenPlayTest, Ruling_CardObligationIsReportedBeforeStuk_KR_13_2) {
  auto game = MakeGame();
  KrakenPosition pos;
  pos.trump = kHearts;
  pos.trick_index = 5;
  pos.leader = 3;
  pos.stuk_holder = 0;
  pos.trick = testing::CardList("7C");
  pos.hands = {Cards("KH QH 8C"), Cards("7D 8D 9D"), Cards("7S 8S 9S"),
               Cards("TS JS")};
  auto st = KrakenState::FromPosition(*game, pos);
  ASSERT_TRUE(st.ok()) << st.status();
  ExpectRejected(**st, 0, "play KH+stuk", "KR-9.5c: you must follow suit C");
}

// Ruling: parameters of another trump mode (free_first_speaker outside
// FREE, random_all_pass outside RANDOM) are accepted and have no effect: the
// conformance files give every parameter whatever the mode (KR-3).
TEST(KrakenGameTest, Ruling_OtherModesParametersAreIgnored_KR_3) {
  auto game = MakeGame({{"trump_mode", std::string("UTRECHT")},
                        {"free_first_speaker", std::string("DEALER")},
                        {"random_all_pass", std::string("CALL_OTHER")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
  EXPECT_EQ(state->current_seat(), 1);  // eldest, not the dealer
  EXPECT_THAT(LegalStrings(*state),
              ElementsAre("trump C", "trump D", "trump H", "trump S"));
}

// --- Observation (KR-16) -----------------------------------------------------

TEST(KrakenObservationTest, OwnHandAndPublicInformationOnly_KR_16) {
  auto game = MakeGame({{"trump_mode", std::string("RANDOM")}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  ASSERT_TRUE(
      state->ApplyChance(ChanceKind::kTrumpDeck, TrumpDeckStarting("8S")).ok());
  for (int seat = 0; seat < 4; ++seat) {
    const KrakenObservation o = state->Observe(seat);
    EXPECT_EQ(o.seat, seat);
    EXPECT_EQ(o.hand, state->hand(seat));  // KR-16.2
    EXPECT_THAT(o.hand_sizes, ElementsAre(8, 8, 8, 8));
    EXPECT_EQ(o.turned_trump_cards.size(), 1u);  // KR-16.3
    EXPECT_EQ(o.proposed_suit, kSpades);
    EXPECT_EQ(o.dealer, 0);
    EXPECT_EQ(o.eldest, 1);
    EXPECT_EQ(o.round, 1);
    EXPECT_EQ(o.seat_to_act, 1);
    // KR-16.2: legal actions for the seat to act only.
    EXPECT_EQ(o.legal_actions.size(), seat == 1 ? 2u : 0u);
    EXPECT_EQ(o.config.trump_mode, TrumpMode::kRandom);  // KR-16.1 params
  }
}

// Ruling: the tricks of a finished round stay in every observation (they
// are public, KR-16.1) until the next deal; then they are cleared.
TEST(KrakenObservationTest, Ruling_FinishedRoundStaysVisibleUntilTheDeal) {
  auto game = MakeGame({{"rounds", int64_t{2}}});
  auto state = game->NewKrakenState();
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  while (state->rounds_completed() == 0) {
    ActionList legal;
    state->LegalActions(legal);
    state->ApplyLegalAction(legal[0]);
  }
  KrakenObservation o = state->Observe(1);
  EXPECT_EQ(o.phase, Phase::kDeal);
  EXPECT_EQ(o.completed_tricks.size(), 8u);
  EXPECT_EQ(o.hand, 0u);
  EXPECT_EQ(o.round_scores.size(), 1u);
  EXPECT_EQ(o.dealer, 1);  // KR-4.1: the deal passes left
  ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, IdentityDeck()).ok());
  o = state->Observe(1);
  EXPECT_TRUE(o.completed_tricks.empty());
  EXPECT_EQ(o.trump, -1);
  EXPECT_EQ(CountCards(o.hand), 8);
}

// --- Results (KR-14.6, KR-15) ----------------------------------------------

// KR-4.1: dealer(r) = (first_dealer + r) mod 4; KR-4.4: the phases of a
// round come in order; KR-15.1: the game ends after `rounds`.
TEST(KrakenResultTest, RoundsDealerRotationAndEnd_KR_4_1_KR_15_1) {
  auto game = MakeGame({{"rounds", int64_t{3}}, {"first_dealer", int64_t{3}}});
  auto state = game->NewKrakenState();
  std::vector<int> dealers;
  std::vector<Phase> phases;
  while (!state->IsTerminal()) {
    if (phases.empty() || phases.back() != state->phase()) {
      phases.push_back(state->phase());
    }
    if (state->IsChance()) {
      if (state->chance_kind() == ChanceKind::kDeal) {
        dealers.push_back(state->dealer());
      }
      ASSERT_TRUE(
          state->ApplyChance(state->chance_kind(), IdentityDeck()).ok());
      continue;
    }
    ActionList legal;
    state->LegalActions(legal);
    ASSERT_FALSE(legal.empty());
    state->ApplyLegalAction(legal[legal.size() - 1]);
  }
  EXPECT_THAT(dealers, ElementsAre(3, 0, 1));
  // KR-4.4: deal -> trump selection -> challenges -> declarations -> tricks
  // (with claim windows) -> scoring, then the next deal.
  std::vector<Phase> round_phases;
  for (Phase p : phases) {
    if (p == Phase::kClaim) continue;
    if (round_phases.empty() || round_phases.back() != p)
      round_phases.push_back(p);
  }
  EXPECT_THAT(
      round_phases,
      ElementsAre(Phase::kDeal, Phase::kTrumpForced, Phase::kChallenge,
                  Phase::kDeclare, Phase::kPlay, Phase::kDeal,
                  Phase::kTrumpForced, Phase::kChallenge, Phase::kDeclare,
                  Phase::kPlay, Phase::kDeal, Phase::kTrumpForced,
                  Phase::kChallenge, Phase::kDeclare, Phase::kPlay));
  EXPECT_EQ(state->rounds_completed(), 3);
  EXPECT_EQ(state->round(), 3);
  const KrakenGameResult r = state->Result();
  ASSERT_EQ(r.round_scores.size(), 3u);
  std::array<int64_t, 2> sum{};
  for (const auto& row : r.round_scores) {
    sum[0] += row[0];
    sum[1] += row[1];
  }
  EXPECT_EQ(r.totals, sum);  // KR-14.6
  const GameOutcome out = state->Outcome();
  ASSERT_NE(r.totals[0], r.totals[1]);
  EXPECT_EQ(r.winner_team, r.totals[0] > r.totals[1] ? 0 : 1);
  EXPECT_THAT(out.winners,
              r.winner_team == 0 ? ElementsAre(0, 2) : ElementsAre(1, 3));
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(out.scores[s], r.totals[TeamOf(s)]);
    EXPECT_EQ(out.ranks[s], TeamOf(s) == r.winner_team ? 1 : 3);
  }
  ActionList legal;
  state->LegalActions(legal);
  EXPECT_TRUE(legal.empty());
  EXPECT_EQ(state->current_seat(), -1);
  EXPECT_FALSE(state->ApplyAction(DeclineBonusAction()).ok());
}

// KR-15.1: equal totals are a draw: no winners, winner_team -1.
TEST(KrakenResultTest, EqualTotalsAreADraw_KR_15_1) {
  auto game = MakeGame({{"rounds", int64_t{1}}});
  KrakenPosition pos;
  pos.trump = kSpades;
  pos.maker = 0;
  pos.trick_index = 7;
  pos.leader = 0;
  pos.hands = {Cards("AC"), Cards("7C"), Cards("8C"), Cards("9C")};
  auto finish = [&](const KrakenPosition& p) {
    auto st = KrakenState::FromPosition(*game, p);
    EXPECT_TRUE(st.ok()) << st.status();
    KrakenState& state = **st;
    while (!state.IsTerminal()) {
      ActionList legal;
      state.LegalActions(legal);
      state.ApplyLegalAction(legal[legal.size() - 1]);  // decline windows
    }
    return std::move(*st);
  };
  auto first = finish(pos);
  const std::array<int, 2> score = first->round_results()[0].score.score;
  ASSERT_NE(score[0], score[1]);
  EXPECT_EQ(first->Result().winner_team, score[0] > score[1] ? 0 : 1);
  // Totals before the round chosen so that the game ends level.
  pos.totals = {score[1], score[0]};
  auto second = finish(pos);
  EXPECT_EQ(second->totals()[0], second->totals()[1]);
  const KrakenGameResult r = second->Result();
  EXPECT_EQ(r.winner_team, -1);
  const GameOutcome out = second->Outcome();
  EXPECT_TRUE(out.winners.empty());
  EXPECT_THAT(out.ranks, ElementsAre(1, 1, 1, 1));
  EXPECT_THAT(out.scores,
              ElementsAre(r.totals[0], r.totals[1], r.totals[0], r.totals[1]));
}

}  // namespace
}  // namespace cardref::kraken
