// E9 and E10: the two full rounds of the spec, replayed card by card through
// the engine, with every listed score and variant. Also E6 (stuk) and E12
// (claim window), which use the E9 round.
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/kraken/kraken.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

using testing::Apply;
using testing::CardList;
using testing::Cards;
using testing::DealADeck;
using testing::ExpectRejected;
using ::testing::ElementsAre;
using testing::LegalStrings;
using testing::MakeGame;
using testing::MsgStartsWith;
using testing::Parse;

using Moves = std::vector<std::pair<int, std::string>>;

// Challenge sequences of E9/E10 (maker s3: L = s0, R = s2, P = s1).
const Moves kNoChallenge = {{0, "pass-challenge"}, {2, "pass-challenge"}};
const Moves kContra = {{0, "pass-challenge"},
                       {2, "challenge"},
                       {3, "pass-challenge"},
                       {1, "pass-challenge"}};
const Moves kReContra = {{0, "pass-challenge"},
                         {2, "challenge"},
                         {3, "challenge"},
                         {0, "pass-challenge"},
                         {2, "pass-challenge"}};
const Moves kSuperKraken = {{0, "pass-challenge"},
                            {2, "challenge"},
                            {3, "challenge"},
                            {0, "challenge"}};

struct TrickRow {
  int leader;
  const char* cards;  // play order
  int winner;
  int points;
  const char* bonus;  // "" = no window; else "claim X" / "decline"
};

// E9 tricks (trump H).
const TrickRow kE9Tricks[8] = {
    {1, "7C 9C TC 8C", 3, 10, "claim RUN4"},
    {3, "8S 7H 7S AS", 0, 11, ""},
    {0, "7D JD 9D 9H", 3, 16, ""},
    {3, "9S AH AC JS", 0, 24, ""},
    {0, "8D KD AD KH+stuk", 3, 19, ""},
    {3, "QH TH 8H JH", 2, 33, "claim RUN3"},
    {2, "KS QS QC JC", 2, 12, ""},
    {2, "QD TS TD KC", 0, 27, ""},
};

// E10 tricks (trump S).
const TrickRow kE10Tricks[8] = {
    {1, "7C 9C TC 8C", 3, 10, "claim RUN4"},
    {3, "8S 7D 7S AS", 2, 11, ""},
    {2, "9D 9S 8D JD", 3, 16, ""},
    {3, "9H 7H 8H JH", 2, 2, "claim RUN3"},
    {2, "AD QS TD KD", 3, 28, ""},
    {3, "KH AH AC JS", 2, 46, ""},
    {2, "KS TS QC JC", 3, 19, ""},
    {3, "QH TH KC QD", 0, 20, ""},
};

void ApplyAll(KrakenState& state, const Moves& moves) {
  for (const auto& [seat, text] : moves) {
    Apply(state, seat, text);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// Plays the eight tricks; `claim_override` replaces the bonus action of
// trick 1 when not empty.
void PlayTricks(KrakenState& state, const TrickRow* tricks,
                const std::string& first_bonus_override = "") {
  for (int t = 0; t < 8; ++t) {
    const TrickRow& row = tricks[t];
    ASSERT_EQ(state.phase(), Phase::kPlay) << "trick " << t + 1;
    ASSERT_EQ(state.current_seat(), row.leader) << "trick " << t + 1;
    int seat = row.leader;
    for (absl::string_view card : absl::StrSplit(row.cards, ' ')) {
      Apply(state, seat, absl::StrCat("play ", card));
      if (::testing::Test::HasFatalFailure()) return;
      seat = LeftOf(seat);
    }
    const KrakenTrick& done = state.trick(t);
    EXPECT_EQ(done.winner, row.winner) << "trick " << t + 1;
    EXPECT_EQ(done.points, row.points) << "trick " << t + 1;
    std::string bonus = row.bonus;
    if (t == 0 && !first_bonus_override.empty()) bonus = first_bonus_override;
    if (bonus.empty()) {
      EXPECT_EQ(done.bonus, Bonus::kNone) << "trick " << t + 1;
      EXPECT_NE(state.phase(), Phase::kClaim) << "trick " << t + 1;
    } else {
      ASSERT_EQ(state.phase(), Phase::kClaim) << "trick " << t + 1;
      ASSERT_EQ(state.current_seat(), row.winner);
      Apply(state, row.winner, bonus);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// E9 up to the first trick: FREE, AMSTERDAM, dealer 0, Deal A; s1 PASS,
// s2 PASS, s3 CHOOSE_TRUMP(H); `challenges`; declarations.
std::unique_ptr<KrakenState> E9Start(const KrakenGame& game,
                                     const Moves& challenges) {
  auto state = game.NewKrakenState();
  EXPECT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
  ApplyAll(*state, {{1, "pass"}, {2, "pass"}, {3, "trump H"}});
  ApplyAll(*state, challenges);
  ApplyAll(*state, {{1, "declare"},
                    {2, "declare"},
                    {3, "declare run:8S,9S,TS"},
                    {0, "declare"}});
  return state;
}

std::unique_ptr<KrakenGame> E9Game(int last_trick_bonus = 0) {
  return MakeGame({{"trump_mode", std::string("FREE")},
                   {"rule_set", std::string("AMSTERDAM")},
                   {"rounds", int64_t{1}},
                   {"last_trick_bonus", int64_t{last_trick_bonus}}});
}

// E9: the full round with every challenge variant.
TEST(KrakenExamplesTest, E9_FullRoundDealA_KR_14) {
  struct Variant {
    const char* name;
    const Moves* challenges;
    int level;
    int burden;
    bool success;
    int score0, score1;
  };
  const Variant variants[] = {
      {"no challenge", &kNoChallenge, 0, 1, true, 127, 135},
      {"contra", &kContra, 1, 0, false, 0, 524},
      {"re-contra", &kReContra, 2, 1, true, 508, 540},
      {"Super Kraken", &kSuperKraken, 3, 0, false, 0, 2096},
  };
  auto game = E9Game();
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    auto state = E9Start(*game, *v.challenges);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    EXPECT_EQ(state->trump(), kHearts);
    EXPECT_EQ(state->maker(), 3);
    EXPECT_EQ(state->level(), v.level);
    EXPECT_EQ(state->contest_winner(), 3);
    EXPECT_EQ(state->declaration_points()[1], 20);
    PlayTricks(*state, kE9Tricks);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    ASSERT_TRUE(state->IsTerminal());
    ASSERT_EQ(state->round_results().size(), 1u);
    const RoundScore& s = state->round_results()[0].score;
    EXPECT_EQ(s.card_points[0], 107);
    EXPECT_EQ(s.card_points[1], 45);
    EXPECT_EQ(s.trick_bonus[0], 20);
    EXPECT_EQ(s.trick_bonus[1], 50);
    EXPECT_EQ(s.stuk[1], 20);
    EXPECT_EQ(s.declarations[1], 20);
    EXPECT_EQ(s.raw[0], 127);
    EXPECT_EQ(s.raw[1], 135);
    EXPECT_EQ(s.level, v.level);
    EXPECT_EQ(s.factor, 1 << v.level);
    EXPECT_EQ(s.burden_team, v.burden);
    EXPECT_EQ(s.success, v.success);
    EXPECT_EQ(s.score[0], v.score0);
    EXPECT_EQ(s.score[1], v.score1);
    EXPECT_EQ(state->totals()[0], v.score0);
    EXPECT_EQ(state->totals()[1], v.score1);
  }
}

// E9 variants: last_trick_bonus = 10, and s3 declining the RUN4.
TEST(KrakenExamplesTest, E9_Variants_KR_14_1_KR_12_3) {
  {
    auto game = E9Game(/*last_trick_bonus=*/10);
    auto state = E9Start(*game, kNoChallenge);
    PlayTricks(*state, kE9Tricks);
    ASSERT_TRUE(state->IsTerminal());
    const RoundScore& s = state->round_results()[0].score;
    EXPECT_EQ(s.last_trick[0], 10);
    EXPECT_EQ(s.raw[0], 137);
    EXPECT_EQ(s.raw[1], 135);
    EXPECT_FALSE(s.success);  // makers fail
    EXPECT_EQ(s.score[0], 272);
    EXPECT_EQ(s.score[1], 0);
  }
  {
    auto game = E9Game();
    auto state = E9Start(*game, kNoChallenge);
    PlayTricks(*state, kE9Tricks, "decline");
    ASSERT_TRUE(state->IsTerminal());
    const RoundScore& s = state->round_results()[0].score;
    EXPECT_EQ(state->trick(0).claim, ClaimStatus::kDeclined);
    EXPECT_EQ(s.raw[0], 127);
    EXPECT_EQ(s.raw[1], 85);
    EXPECT_EQ(s.score[0], 212);
    EXPECT_EQ(s.score[1], 0);
  }
}

// E9 check at trick 4: s1's legal cards under both rule sets.
TEST(KrakenExamplesTest, E9_Trick4LegalCards_KR_10_2_KR_11_1) {
  for (const char* rule_set : {"AMSTERDAM", "ROTTERDAM"}) {
    auto game = MakeGame({{"trump_mode", std::string("FREE")},
                          {"rule_set", std::string(rule_set)}});
    auto state = E9Start(*game, kNoChallenge);
    // Tricks 1-3 are legal under both rule sets.
    const TrickRow* first3 = kE9Tricks;
    for (int t = 0; t < 3; ++t) {
      int seat = first3[t].leader;
      for (absl::string_view card : absl::StrSplit(first3[t].cards, ' ')) {
        Apply(*state, seat, absl::StrCat("play ", card));
        seat = LeftOf(seat);
      }
      if (state->phase() == Phase::kClaim) {
        Apply(*state, first3[t].winner, first3[t].bonus);
      }
    }
    Apply(*state, 3, "play 9S");
    Apply(*state, 0, "play AH");
    ASSERT_EQ(state->current_seat(), 1);
    EXPECT_EQ(CardsToString(state->hand(1)), "JC KC AC KD 8H");
    if (std::string(rule_set) == "AMSTERDAM") {
      EXPECT_THAT(LegalStrings(*state),
                  ElementsAre("play JC", "play KC", "play AC", "play KD"));
    } else {
      EXPECT_THAT(LegalStrings(*state), ElementsAre("play 8H"));
      EXPECT_THAT(state->ApplyActionAs(1, Parse("play AC")),
                  MsgStartsWith("KR-11.1"));
    }
  }
}

void PlayCards(KrakenState& state, int seat, const char* cards) {
  for (absl::string_view card : absl::StrSplit(cards, ' ')) {
    Apply(state, seat, absl::StrCat("play ", card));
    seat = LeftOf(seat);
  }
}

// E6 (KR-13): stuk on play, along the E9 round.
TEST(KrakenExamplesTest, E6_Stuk_KR_13_1_KR_13_2_KR_13_3) {
  auto game = E9Game();
  auto state = E9Start(*game, kNoChallenge);
  PlayCards(*state, 1, "7C 9C TC 8C");
  Apply(*state, 3, "claim RUN4");
  Apply(*state, 3, "play 8S");
  // s0 may trump with TH, but TH is not the trump K or Q.
  EXPECT_TRUE(absl::c_linear_search(LegalStrings(*state), "play TH"));
  ExpectRejected(*state, 0, "play TH+stuk",
                 "KR-13.2: declare_stuk needs the trump K or Q (KH, QH); TH");
  PlayCards(*state, 0, "7H 7S AS");
  PlayCards(*state, 0, "7D JD 9D 9H");
  PlayCards(*state, 3, "9S AH AC JS");
  PlayCards(*state, 0, "8D KD AD");
  // KR-13.1: s3 was dealt KH and QH: either may carry the declaration.
  EXPECT_THAT(LegalStrings(*state), ElementsAre("play QH", "play QH+stuk",
                                                "play KH", "play KH+stuk"));
  Apply(*state, 3, "play KH+stuk");
  EXPECT_TRUE(state->Observe(1).stuk_declared[3]);  // public (KR-16.1)
  EXPECT_EQ(state->trick(4).stuk_mask, 1 << 3);
  // Trick 6: a second declaration with QH is rejected; plain QH is legal.
  ASSERT_EQ(state->current_seat(), 3);
  EXPECT_THAT(LegalStrings(*state),
              ::testing::Not(::testing::Contains(std::string("play QH+stuk"))));
  ExpectRejected(*state, 3, "play QH+stuk",
                 "KR-13.2: seat 3 has already declared stuk this round");
  PlayCards(*state, 3, "QH TH 8H");
  ExpectRejected(*state, 2, "play JH+stuk", "KR-13.2: declare_stuk needs");
  Apply(*state, 2, "play JH");
  Apply(*state, 2, "claim RUN3");
  PlayCards(*state, 2, "KS QS QC JC");
  PlayCards(*state, 2, "QD TS TD KC");
  ASSERT_TRUE(state->IsTerminal());
  // KR-13.3: 20 to s3's team whoever won the stuk cards' tricks and the
  // contest.
  EXPECT_EQ(state->round_results()[0].score.stuk[1], 20);
  EXPECT_EQ(state->round_results()[0].score.stuk[0], 0);
}

// E12 (KR-12.3, KR-17.3): the claim window after trick 1 of E9.
TEST(KrakenExamplesTest, E12_ClaimWindow_KR_12_3_KR_17_3) {
  auto game = E9Game();
  auto state = E9Start(*game, kNoChallenge);
  PlayCards(*state, 1, "7C 9C TC 8C");
  ASSERT_EQ(state->phase(), Phase::kClaim);
  EXPECT_EQ(state->current_seat(), 3);
  EXPECT_THAT(LegalStrings(*state), ElementsAre("claim RUN4", "decline"));
  EXPECT_TRUE(state->Observe(0).claim_window_open);
  EXPECT_EQ(state->Observe(0).completed_tricks.at(0).bonus, Bonus::kRun4);
  ExpectRejected(*state, 3, "claim RUN3",
                 "KR-12.3: the trick's bonus is RUN4, not RUN3");
  ExpectRejected(*state, 1, "claim RUN4",
                 "KR-12.3: only the trick winner (seat 3) may claim");
  ExpectRejected(*state, 1, "decline", "KR-12.3");
  ExpectRejected(*state, 3, "play 8S",
                 "KR-12.3: the trick winner (seat 3) "
                 "must CLAIM_BONUS(RUN4) or DECLINE_BONUS");
  Apply(*state, 3, "claim RUN4");
  EXPECT_FALSE(state->Observe(0).claim_window_open);
  EXPECT_EQ(state->trick(0).claim, ClaimStatus::kClaimed);
  // Trick 2 has no type: no window, s0 must lead trick 3.
  PlayCards(*state, 3, "8S 7H 7S AS");
  EXPECT_EQ(state->trick(1).bonus, Bonus::kNone);
  EXPECT_EQ(state->phase(), Phase::kPlay);
  EXPECT_EQ(state->current_seat(), 0);
  ExpectRejected(*state, 0, "claim RUN4", "KR-12.3: no claim window is open");
  ExpectRejected(*state, 0, "decline", "KR-12.3: no claim window is open");
  ExpectRejected(*state, 2, "claim RUN4", "KR-9.1: out of turn");
}

// E10: RANDOM, ROTTERDAM, spades; every challenge variant; the same plays
// under AMSTERDAM give the same scores.
TEST(KrakenExamplesTest, E10_FullRoundSpades_KR_14_4) {
  struct Variant {
    const char* name;
    const Moves* challenges;
    int score0, score1;
  };
  const Variant variants[] = {
      {"no challenge", &kNoChallenge, 198, 286},
      {"contra", &kContra, 0, 968},
      {"re-contra", &kReContra, 792, 1144},
      {"Super Kraken", &kSuperKraken, 0, 3872},
  };
  std::vector<Card> trump_deck = {*ParseCard("8S")};
  for (int c = 0; c < kNumCards; ++c) {
    if (c != trump_deck[0]) trump_deck.push_back(static_cast<Card>(c));
  }
  for (const char* rule_set : {"ROTTERDAM", "AMSTERDAM"}) {
    auto game = MakeGame({{"trump_mode", std::string("RANDOM")},
                          {"rule_set", std::string(rule_set)},
                          {"rounds", int64_t{1}}});
    for (const Variant& v : variants) {
      SCOPED_TRACE(absl::StrCat(rule_set, " ", v.name));
      auto state = game->NewKrakenState();
      ASSERT_TRUE(state->ApplyChance(ChanceKind::kDeal, DealADeck()).ok());
      ASSERT_EQ(state->chance_kind(), ChanceKind::kTrumpDeck);
      ASSERT_TRUE(state->ApplyChance(ChanceKind::kTrumpDeck, trump_deck).ok());
      EXPECT_EQ(state->proposed_suit(), kSpades);
      ApplyAll(*state, {{1, "pass"}, {2, "pass"}, {3, "accept"}});
      EXPECT_EQ(state->trump(), kSpades);
      EXPECT_EQ(state->maker(), 3);
      ApplyAll(*state, *v.challenges);
      EXPECT_THAT(LegalStrings(*state), ElementsAre("declare"));  // s1
      ApplyAll(*state, {{1, "declare"},
                        {2, "declare"},
                        {3, "declare run:8S,9S,TS"},
                        {0, "declare"}});
      // No stuk possible: KS with s2, QS with s3.
      for (int t = 0; t < 6; ++t) {
        int seat = kE10Tricks[t].leader;
        for (absl::string_view card :
             absl::StrSplit(kE10Tricks[t].cards, ' ')) {
          Apply(*state, seat, absl::StrCat("play ", card));
          seat = LeftOf(seat);
        }
        EXPECT_EQ(state->trick(t).winner, kE10Tricks[t].winner);
        EXPECT_EQ(state->trick(t).points, kE10Tricks[t].points);
        if (*kE10Tricks[t].bonus) {
          Apply(*state, kE10Tricks[t].winner, kE10Tricks[t].bonus);
        } else {
          EXPECT_EQ(state->phase(), Phase::kPlay) << "trick " << t + 1;
        }
      }
      ExpectRejected(*state, 2, "play KS+stuk",
                     "KR-13.2: seat 2 was not dealt both KS and QS");
      for (int t = 6; t < 8; ++t) {
        int seat = kE10Tricks[t].leader;
        for (absl::string_view card :
             absl::StrSplit(kE10Tricks[t].cards, ' ')) {
          Apply(*state, seat, absl::StrCat("play ", card));
          seat = LeftOf(seat);
        }
        EXPECT_EQ(state->trick(t).winner, kE10Tricks[t].winner);
        EXPECT_EQ(state->trick(t).points, kE10Tricks[t].points);
      }
      ASSERT_TRUE(state->IsTerminal());
      const RoundScore& s = state->round_results()[0].score;
      EXPECT_EQ(s.card_points[0], 79);
      EXPECT_EQ(s.card_points[1], 73);
      EXPECT_EQ(s.trick_bonus[0], 20);
      EXPECT_EQ(s.trick_bonus[1], 50);
      EXPECT_EQ(s.declarations[1], 20);
      EXPECT_EQ(s.stuk[0] + s.stuk[1], 0);
      EXPECT_EQ(s.raw[0], 99);
      EXPECT_EQ(s.raw[1], 143);
      EXPECT_EQ(s.factor, (1 << state->level()) * 2);  // spades double
      EXPECT_EQ(s.score[0], v.score0);
      EXPECT_EQ(s.score[1], v.score1);
    }
  }
}

}  // namespace
}  // namespace cardref::kraken
