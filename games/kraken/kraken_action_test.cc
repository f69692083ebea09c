// Card ids, the Action bit fields, Encode/Decode and the text notation.
#include "games/kraken/kraken_action.h"

#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "games/kraken/kraken_notation.h"
#include "games/kraken/kraken_rules.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

using testing::Cards;
using ::testing::HasSubstr;
using testing::MsgHasSubstr;
using testing::MsgStartsWith;
using testing::Parse;
using ::testing::StartsWith;

// Conventions + KR-1 components, KR-1.1: 32 cards, id = 8*suit + rank, 7C = 0,
// AS = 31.
TEST(KrakenCardsTest, IdsFollowTheConventions_KR_1_1) {
  EXPECT_EQ(*ParseCard("7C"), 0);
  EXPECT_EQ(*ParseCard("AS"), 31);
  EXPECT_EQ(*ParseCard("TD"), 8 + 3);
  EXPECT_EQ(*ParseCard("10d"), 8 + 3);
  EXPECT_EQ(*ParseCard("jh"), 16 + 4);
  std::set<std::string> names;
  for (int c = 0; c < kNumCards; ++c) {
    const std::string name = CardName(static_cast<Card>(c));
    EXPECT_EQ(*ParseCard(name), c);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 32u);
  EXPECT_FALSE(ParseCard("6C").ok());  // KR-1.1: 2-6 removed
  EXPECT_FALSE(ParseCard("AX").ok());
  EXPECT_FALSE(ParseCard("").ok());
  EXPECT_EQ(CardsToString(Cards("QC 8C 7D")), "8C QC 7D");
}

TEST(KrakenActionTest, BitFieldsAreAsDocumented) {
  EXPECT_EQ(ChooseTrumpAction(kHearts), (1u << 27) | 2u);
  EXPECT_EQ(PassTrumpAction(), 2u << 27);
  EXPECT_EQ(PlayAction(*ParseCard("KH"), true), (7u << 27) | (22u << 1) | 1u);
  EXPECT_EQ(ClaimBonusAction(Bonus::kRun4), (8u << 27) | 2u);
  EXPECT_EQ(DeclineBonusAction(), 9u << 27);
  // DECLARE: FOUR kings (bit 3) + run 8S 9S TS (suit 3, start 1, length 3).
  KrakenAction d;
  d.kind = ActionKind::kDeclare;
  d.declaration.Add({ComboKind::kRun, Cards("8S 9S TS")});
  d.declaration.Add({ComboKind::kFour, Cards("KC KD KH KS")});
  absl::StatusOr<Action> a = Encode(d);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(*a,
            (6u << 27) | 8u | ((1u | (3u << 1) | (1u << 3) | (0u << 6)) << 5));
}

TEST(KrakenActionTest, EveryKindRoundTrips) {
  std::vector<KrakenAction> all;
  for (int s = 0; s < 4; ++s) {
    KrakenAction a;
    a.kind = ActionKind::kChooseTrump;
    a.suit = s;
    all.push_back(a);
  }
  for (ActionKind k : {ActionKind::kPassTrump, ActionKind::kAcceptTrump,
                       ActionKind::kChallenge, ActionKind::kPassChallenge,
                       ActionKind::kDeclineBonus}) {
    KrakenAction a;
    a.kind = k;
    all.push_back(a);
  }
  for (int c = 0; c < kNumCards; ++c) {
    for (bool stuk : {false, true}) {
      KrakenAction a;
      a.kind = ActionKind::kPlay;
      a.card = static_cast<Card>(c);
      a.declare_stuk = stuk;
      all.push_back(a);
    }
  }
  for (int b = 1; b < kNumBonusTypes; ++b) {
    KrakenAction a;
    a.kind = ActionKind::kClaimBonus;
    a.bonus = static_cast<Bonus>(b);
    all.push_back(a);
  }
  std::set<Action> seen;
  for (const KrakenAction& a : all) {
    absl::StatusOr<Action> e = Encode(a);
    ASSERT_TRUE(e.ok()) << e.status();
    absl::StatusOr<KrakenAction> d = Decode(*e);
    ASSERT_TRUE(d.ok()) << d.status();
    EXPECT_EQ(*d, a);
    EXPECT_TRUE(seen.insert(*e).second);
    absl::StatusOr<Action> parsed = ParseKrakenAction(KrakenActionToString(*e));
    ASSERT_TRUE(parsed.ok()) << KrakenActionToString(*e);
    EXPECT_EQ(*parsed, *e);
  }
}

// KR-8.3: a declaration is a set; Encode gives one canonical value whatever
// the order of the combinations.
TEST(KrakenActionTest, DeclarationIsCanonical_KR_8_3) {
  const Combo jacks{ComboKind::kFourJacks, Cards("JC JD JH JS")};
  const Combo run1{ComboKind::kRun, Cards("9C TC JC")};
  const Combo run2{ComboKind::kRun, Cards("9D TD JD")};
  KrakenAction a;
  a.kind = ActionKind::kDeclare;
  a.declaration.Add(run2);
  a.declaration.Add(run1);
  a.declaration.Add(jacks);
  KrakenAction b;
  b.kind = ActionKind::kDeclare;
  b.declaration.Add(jacks);
  b.declaration.Add(run1);
  b.declaration.Add(run2);
  ASSERT_TRUE(Encode(a).ok());
  EXPECT_EQ(*Encode(a), *Encode(b));
  absl::StatusOr<KrakenAction> d = Decode(*Encode(a));
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->declaration.size, 3);
  EXPECT_EQ(d->declaration.combos[0], jacks);  // FOUR_JACKS, FOUR, RUN
  EXPECT_EQ(d->declaration.combos[1], run1);   // then by card ids
  EXPECT_EQ(d->declaration.combos[2], run2);
  // Same first card, different length: the shorter first (lexicographic).
  EXPECT_EQ(KrakenActionToString(Parse("declare run:7C,8C,9C,TC run:7C,8C,9C")),
            "declare run:7C,8C,9C run:7C,8C,9C,TC");
  EXPECT_EQ(DeclarationPoints(PayloadOf(*Encode(a))), 240);
  EXPECT_EQ(DeclarationBestCombo(PayloadOf(*Encode(a))), 200);
}

// KR-8.2 shapes and KR-8.3 "named twice" are caught by Encode, with the rule.
// Ruling: a FOUR of jacks is malformed (FOUR_JACKS is its own kind).
TEST(KrakenActionTest, EncodeRejectsMalformedCombinations_KR_8_2) {
  auto encode = [](ComboKind kind, absl::string_view cards) {
    KrakenAction a;
    a.kind = ActionKind::kDeclare;
    a.declaration.Add({kind, Cards(cards)});
    return Encode(a).status();
  };
  EXPECT_THAT(encode(ComboKind::kFour, "9C 9D 9H 9S"),
              MsgStartsWith("KR-8.2: four 9s are not a combination"));
  EXPECT_THAT(encode(ComboKind::kFour, "7C 7D 7H 7S"), MsgStartsWith("KR-8.2"));
  EXPECT_THAT(encode(ComboKind::kFour, "JC JD JH JS"),
              MsgStartsWith("KR-8.2: four jacks are declared as FOUR_JACKS"));
  EXPECT_THAT(encode(ComboKind::kFour, "KC KD KH"), MsgStartsWith("KR-8.2"));
  EXPECT_THAT(encode(ComboKind::kFourJacks, "KC KD KH KS"),
              MsgStartsWith("KR-8.2"));
  EXPECT_THAT(encode(ComboKind::kRun, "7C 8C"), MsgStartsWith("KR-8.2"));
  EXPECT_THAT(encode(ComboKind::kRun, "7C 9C TC"), MsgStartsWith("KR-8.2"));
  EXPECT_THAT(encode(ComboKind::kRun, "7C 8C 9D"), MsgStartsWith("KR-8.2"));
  // KR-5.3: A is not adjacent to 7.
  EXPECT_THAT(encode(ComboKind::kRun, "7C 8C AC"), MsgStartsWith("KR-8.2"));
  EXPECT_TRUE(encode(ComboKind::kRun, "7H 8H 9H TH JH QH KH AH").ok());
  EXPECT_THAT(ParseKrakenAction("declare run:8S,9S,TS run:8S9STS").status(),
              MsgStartsWith("KR-8.3: RUN 8S 9S TS is named twice"));
  EXPECT_THAT(
      ParseKrakenAction("declare four:KC,KD,KH,KS four:KS,KH,KD,KC").status(),
      MsgStartsWith("KR-8.3"));
  EXPECT_THAT(
      ParseKrakenAction("declare run:7C8C9C run:7D8D9D run:7H8H9H").status(),
      MsgStartsWith("KR-8.3"));
}

// KR-17: the nine action kinds of the KR-17.1 table are the only actions;
// KR-2 / KR-2.2: there is no other channel between seats (no table talk), so
// any other value is malformed (KR-17.3).
TEST(KrakenActionTest, DecodeRejectsMalformedValues_KR_17_3) {
  for (Action bad :
       {Action{0}, Action{10u << 27}, Action{15u << 27}, Action{0x80000000u},
        ChooseTrumpAction(0) | 4u, PassTrumpAction() | 1u,
        ChallengeAction() | 2u, MakeAction(ActionKind::kPlay, 64),
        MakeAction(ActionKind::kClaimBonus, 0),
        MakeAction(ActionKind::kClaimBonus, 8), DeclareAction(1u << 23),
        // run B without run A
        DeclareAction(RunField(0, 0, 3) << kRunBShift),
        // Ruling: run A after run B (not canonical) is malformed
        DeclareAction((RunField(1, 0, 3) << kRunAShift) |
                      (RunField(0, 0, 3) << kRunBShift)),
        // the same run twice
        DeclareAction((RunField(1, 0, 3) << kRunAShift) |
                      (RunField(1, 0, 3) << kRunBShift)),
        // run past the ace
        DeclareAction(RunField(0, 6, 3) << kRunAShift),
        // length field 6 (= 9 cards)
        DeclareAction((RunField(0, 0, 3) | (6u << 6)) << kRunAShift),
        // absent run with other bits
        DeclareAction(2u << kRunAShift)}) {
    absl::StatusOr<KrakenAction> d = Decode(bad);
    EXPECT_FALSE(d.ok()) << std::hex << bad;
    EXPECT_THAT(d.status(), MsgStartsWith("KR-17.3: malformed action"));
    EXPECT_THAT(KrakenActionToString(bad), StartsWith("invalid(0x"));
  }
}

TEST(KrakenNotationTest, DocumentedForms) {
  const std::pair<const char*, Action> cases[] = {
      {"trump H", ChooseTrumpAction(kHearts)},
      {"pass", PassTrumpAction()},
      {"accept", AcceptTrumpAction()},
      {"challenge", ChallengeAction()},
      {"pass-challenge", PassChallengeAction()},
      {"declare", DeclareAction(0)},
      {"play KH", PlayAction(*ParseCard("KH"), false)},
      {"play KH+stuk", PlayAction(*ParseCard("KH"), true)},
      {"claim RUN4", ClaimBonusAction(Bonus::kRun4)},
      {"claim TRUMP_RUN3_STUK", ClaimBonusAction(Bonus::kTrumpRun3Stuk)},
      {"decline", DeclineBonusAction()},
      {"declare four_jacks:JC,JD,JH,JS run:9C,TC,JC",
       DeclareAction(kFourJacksBit |
                     (RunField(kClubs, kNine, 3) << kRunAShift))},
  };
  for (const auto& [text, action] : cases) {
    EXPECT_EQ(KrakenActionToString(action), text);
    EXPECT_EQ(Parse(text), action) << text;
  }
  // Input forms: any case, run-together cards, any combination order.
  EXPECT_EQ(Parse("declare run:8S9STS four:KC,KD,KH,KS"),
            Parse("declare four:KC,KD,KH,KS run:8S,9S,TS"));
  EXPECT_EQ(KrakenActionToString(Parse("declare run:8S9STS four:KC,KD,KH,KS")),
            "declare four:KC,KD,KH,KS run:8S,9S,TS");
  EXPECT_EQ(Parse("PLAY kh+STUK"), PlayAction(*ParseCard("KH"), true));
  EXPECT_EQ(Parse("Trump s"), ChooseTrumpAction(kSpades));
  EXPECT_EQ(Parse("claim run3"), ClaimBonusAction(Bonus::kRun3));
  for (const char* bad :
       {"", "jump", "trump", "trump X", "play", "play 6H", "play KH+foo",
        "claim", "claim NONE", "claim RUN5", "pass H", "decline now",
        "declare pair:KC,KD", "declare run:8S9", "declare run:8S,8S,9S"}) {
    EXPECT_FALSE(ParseKrakenAction(bad).ok()) << bad;
  }
}

// Every declaration payload the rules can list decodes, prints and parses
// back to itself.
TEST(KrakenNotationTest, DeclarationsOfRandomHandsRoundTrip) {
  Rng rng(99);
  std::array<Card, kNumCards> deck;
  for (int i = 0; i < kNumCards; ++i) deck[i] = static_cast<Card>(i);
  int with_combos = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    rng.Shuffle(absl::MakeSpan(deck));
    CardMask hand = 0;
    for (int i = 0; i < 8; ++i) hand |= CardBit(deck[i]);
    std::array<uint32_t, kMaxDeclarations> list;
    const int n = ListDeclarations(hand, list);
    with_combos += n > 1;
    for (int i = 0; i < n; ++i) {
      const Action a = DeclareAction(list[i]);
      absl::StatusOr<KrakenAction> d = Decode(a);
      ASSERT_TRUE(d.ok()) << d.status();
      EXPECT_EQ(*Encode(*d), a);
      EXPECT_EQ(Parse(KrakenActionToString(a)), a);
    }
  }
  EXPECT_GT(with_combos, 1000);
}

}  // namespace
}  // namespace cardref::kraken
