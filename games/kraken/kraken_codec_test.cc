// The Kraken protobuf codec: every legal action of random games (every
// trump mode, both rule sets) round-trips through the typed form and the
// notation, malformed typed actions are refused naming the field and the
// rule, observations walked by reflection never show a hidden card
// (KR-16.3), and the worked example E9 comes out with every KR-14
// component in the round result.
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "cardref/v1/game.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/codec/codec.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/codec/testing/round_trip.h"
#include "games/all_games.h"
#include "games/kraken/kraken.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::codec {
namespace {

namespace kr = ::cardref::kraken;
using ::cardref::codec::proto_cards::CardFieldNames;
using ::cardref::codec::proto_cards::CollectCards;
using ::cardref::codec::round_trip::ExpectDecodesBack;
using ::cardref::codec::round_trip::ExpectEncodesAs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

// Parameter sets covering every trump mode, both rule sets, both deal
// patterns and the Klaverjas extras.
std::vector<GameParams> Variants(int rounds) {
  struct V {
    const char* mode;
    const char* all_pass;
    const char* first;
    const char* rule_set;
    const char* pattern;
    bool spades_double;
    int last_trick, pit;
  };
  const V variants[] = {
      {"UTRECHT", "SECOND_CARD", "LEFT_OF_DEALER", "AMSTERDAM", "3-2-3", true,
       0, 0},
      {"FREE", "SECOND_CARD", "LEFT_OF_DEALER", "ROTTERDAM", "4-4", true, 10,
       0},
      {"FREE", "SECOND_CARD", "DEALER", "AMSTERDAM", "3-2-3", false, 0, 100},
      {"RANDOM", "SECOND_CARD", "LEFT_OF_DEALER", "AMSTERDAM", "4-4", true, 0,
       0},
      {"RANDOM", "CALL_OTHER", "LEFT_OF_DEALER", "ROTTERDAM", "3-2-3", true, 10,
       100},
  };
  std::vector<GameParams> out;
  for (const V& v : variants) {
    GameParams p;
    p.Set("trump_mode", std::string(v.mode));
    p.Set("random_all_pass", std::string(v.all_pass));
    p.Set("free_first_speaker", std::string(v.first));
    p.Set("rule_set", std::string(v.rule_set));
    p.Set("deal_pattern", std::string(v.pattern));
    p.Set("spades_double", v.spades_double);
    p.Set("last_trick_bonus", int64_t{v.last_trick});
    p.Set("pit_bonus", int64_t{v.pit});
    p.Set("rounds", int64_t{rounds});
    out.push_back(p);
  }
  return out;
}

std::unique_ptr<Game> MakeGame(const GameParams& params) {
  absl::StatusOr<std::unique_ptr<Game>> game =
      AllGames().Create("kraken", params);
  EXPECT_TRUE(game.ok()) << game.status();
  return std::move(game).value();
}

const kr::KrakenState& AsKraken(const State& state) {
  return static_cast<const kr::KrakenState&>(state);
}

// What a random game has shown so far, tracked from the chance events and
// actions this test applies (not from the engine's observation).
struct PublicLog {
  std::vector<Card> trump_deck;  // this round's RANDOM trump deck
  int trump_passes = 0;          // PASS_TRUMP actions this round
  bool trump_by_action = false;  // CHOOSE/ACCEPT fixed trump this round
  std::set<uint32_t> shown;      // cards played or declared this round
};

// Plays a random game; calls visit(state, log) at every decision node and
// at the end, after dealing any chance events.
template <typename Visit>
void PlayRandomGame(const Game& game, uint64_t seed, Visit&& visit) {
  std::unique_ptr<State> state = game.NewInitialState();
  Rng rng(seed);
  PublicLog log;
  std::array<Card, 64> cards;
  for (int steps = 0;; ++steps) {
    ASSERT_LT(steps, 100000) << "the game does not end";
    while (state->IsChance()) {
      const ChanceKind kind = state->chance_kind();
      const int n = state->ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards.data(), n));
      if (kind == ChanceKind::kDeal) {
        log = PublicLog();
      } else {
        log.trump_deck.assign(cards.begin(), cards.begin() + n);
      }
      ASSERT_TRUE(
          state->ApplyChance(kind, absl::MakeConstSpan(cards.data(), n)).ok());
    }
    visit(*state, log);
    if (state->IsTerminal()) return;
    ActionList legal;
    state->LegalActions(legal);
    ASSERT_FALSE(legal.empty());
    const Action a = legal[rng.Uniform(legal.size())];
    const kr::KrakenAction typed = *kr::Decode(a);
    switch (typed.kind) {
      case kr::ActionKind::kPassTrump:
        ++log.trump_passes;
        break;
      case kr::ActionKind::kChooseTrump:
      case kr::ActionKind::kAcceptTrump:
        log.trump_by_action = true;
        break;
      case kr::ActionKind::kPlay:
        log.shown.insert(typed.card);
        break;
      case kr::ActionKind::kDeclare:
        for (int i = 0; i < typed.declaration.size; ++i) {
          for (kr::CardMask m = typed.declaration.combos[i].cards; m;
               m &= m - 1) {
            log.shown.insert(__builtin_ctz(m));
          }
        }
        break;
      default:
        break;
    }
    state->ApplyLegalAction(a);
  }
}

TEST(KrakenCodecTest, HasACodec) {
  const GameCodec* codec = FindCodec("kraken");
  ASSERT_NE(codec, nullptr);
  EXPECT_EQ(codec->game_id(), "kraken");
  v1::Action a;
  a.mutable_kraken()->mutable_decline_bonus();
  EXPECT_TRUE(codec->HasTypedAction(a));
  EXPECT_FALSE(codec->HasTypedAction(v1::Action()));
}

v1::Action Typed(const std::string& k) {
  v1::Action a;
  v1::KrakenAction* typed = a.mutable_kraken();
  if (k == "pass") typed->mutable_pass_trump();
  if (k == "accept") typed->mutable_accept_trump();
  if (k == "challenge") typed->mutable_challenge();
  if (k == "pass-challenge") typed->mutable_pass_challenge();
  if (k == "declare") typed->mutable_declare();
  if (k == "decline") typed->mutable_decline_bonus();
  return a;
}

v1::KrakenCombination Combo(v1::KrakenComboKind kind, const char* cards) {
  v1::KrakenCombination c;
  c.set_kind(kind);
  for (Card card : kr::testing::CardList(cards)) c.add_cards(card);
  return c;
}

v1::Action Declare(const std::vector<v1::KrakenCombination>& combos) {
  v1::Action a;
  auto* d = a.mutable_kraken()->mutable_declare();
  for (const v1::KrakenCombination& c : combos) *d->add_combinations() = c;
  return a;
}

// One action of each of the nine kinds (KR-17.1) with its typed form and
// notation, both ways.
TEST(KrakenCodecTest, EveryActionKindEncodesAsDocumented) {  // KR-17.1
  std::unique_ptr<Game> game = MakeGame(GameParams());
  std::unique_ptr<State> state = game->NewInitialState();
  struct Case {
    Action action;
    v1::Action typed;
    std::string notation;
  };
  std::vector<Case> cases;
  {
    v1::Action a;
    a.mutable_kraken()->mutable_choose_trump()->set_suit(v1::SUIT_HEARTS);
    cases.push_back({kr::ChooseTrumpAction(kr::kHearts), a, "trump H"});
  }
  cases.push_back({kr::PassTrumpAction(), Typed("pass"), "pass"});
  cases.push_back({kr::AcceptTrumpAction(), Typed("accept"), "accept"});
  cases.push_back({kr::ChallengeAction(), Typed("challenge"), "challenge"});
  cases.push_back(
      {kr::PassChallengeAction(), Typed("pass-challenge"), "pass-challenge"});
  cases.push_back({kr::DeclareAction(0), Typed("declare"), "declare"});
  {
    v1::Action a;
    auto* d = a.mutable_kraken()->mutable_declare();
    *d->add_combinations() =
        Combo(v1::KRAKEN_COMBO_KIND_FOUR_JACKS, "JC JD JH JS");
    *d->add_combinations() = Combo(v1::KRAKEN_COMBO_KIND_RUN, "9C TC JC");
    cases.push_back({kr::DeclareAction(kr::kFourJacksBit |
                                       (kr::RunField(kr::kClubs, kr::kNine, 3)
                                        << kr::kRunAShift)),
                     a, "declare four_jacks:JC,JD,JH,JS run:9C,TC,JC"});
  }
  {
    v1::Action a;
    a.mutable_kraken()->mutable_play()->set_card(
        kr::MakeCard(kr::kHearts, kr::kKing));
    a.mutable_kraken()->mutable_play()->set_declare_stuk(true);
    cases.push_back({kr::PlayAction(kr::MakeCard(kr::kHearts, kr::kKing), true),
                     a, "play KH+stuk"});
  }
  {
    v1::Action a;
    a.mutable_kraken()->mutable_claim_bonus()->set_bonus(v1::KRAKEN_BONUS_RUN4);
    cases.push_back({kr::ClaimBonusAction(kr::Bonus::kRun4), a, "claim RUN4"});
  }
  cases.push_back({kr::DeclineBonusAction(), Typed("decline"), "decline"});
  ASSERT_EQ(cases.size(), 10u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.notation);
    ASSERT_NO_FATAL_FAILURE(
        ExpectEncodesAs(*state, c.action, c.typed, c.notation));
  }
}

// KR-8.3: a declaration is a set; the order of its combinations and of the
// cards inside each does not matter, and the referee writes it canonically.
TEST(KrakenCodecTest, DeclarationOrderDoesNotMatter) {  // KR-8.3
  std::unique_ptr<Game> game = MakeGame(GameParams());
  std::unique_ptr<State> state = game->NewInitialState();
  v1::Action shuffled;
  auto* d = shuffled.mutable_kraken()->mutable_declare();
  *d->add_combinations() = Combo(v1::KRAKEN_COMBO_KIND_RUN, "JC 9C TC");
  *d->add_combinations() = Combo(v1::KRAKEN_COMBO_KIND_FOUR, "KS KC KH KD");
  *d->add_combinations() =
      Combo(v1::KRAKEN_COMBO_KIND_FOUR_JACKS, "JS JH JD JC");
  absl::StatusOr<Action> a = DecodeAction(*state, shuffled);
  ASSERT_TRUE(a.ok()) << a.status();
  const v1::Action canonical = EncodeAction(*state, *a);
  EXPECT_EQ(canonical.notation(),
            "declare four_jacks:JC,JD,JH,JS four:KC,KD,KH,KS run:9C,TC,JC");
  const auto& combos = canonical.kraken().declare().combinations();
  ASSERT_EQ(combos.size(), 3);
  EXPECT_EQ(combos[0].kind(), v1::KRAKEN_COMBO_KIND_FOUR_JACKS);
  EXPECT_EQ(combos[1].kind(), v1::KRAKEN_COMBO_KIND_FOUR);
  EXPECT_EQ(combos[2].kind(), v1::KRAKEN_COMBO_KIND_RUN);
  EXPECT_THAT(combos[2].cards(), ElementsAre(2, 3, 4));  // 9C TC JC
  shuffled.set_notation(canonical.notation());           // both forms agree
  EXPECT_EQ(*DecodeAction(*state, shuffled), *a);
}

// Every legal action seen in random games of every variant decodes back to
// itself from the typed form, from the notation and from both together.
TEST(KrakenCodecTest, EveryLegalActionOfRandomGamesRoundTrips) {
  std::set<kr::ActionKind> kinds;
  int checked = 0, stuk = 0, combos = 0;
  uint64_t seed = 0;
  for (const GameParams& params : Variants(6)) {
    std::unique_ptr<Game> game = MakeGame(params);
    for (int g = 0; g < 10; ++g) {
      PlayRandomGame(*game, ++seed, [&](const State& state, const PublicLog&) {
        if (state.IsTerminal()) return;
        ActionList legal;
        state.LegalActions(legal);
        for (Action a : legal) {
          const v1::Action both = EncodeAction(state, a);
          ASSERT_TRUE(both.has_kraken()) << both.ShortDebugString();
          ASSERT_NE(both.kraken().kind_case(), v1::KrakenAction::KIND_NOT_SET);
          ASSERT_NO_FATAL_FAILURE(ExpectDecodesBack(state, both, a));
          const kr::KrakenAction k = *kr::Decode(a);
          kinds.insert(k.kind);
          stuk += k.declare_stuk;
          combos += k.declaration.size;
          ++checked;
        }
      });
    }
  }
  EXPECT_GT(checked, 25000);
  EXPECT_EQ(kinds.size(), 9u);  // all nine kinds of KR-17.1
  EXPECT_GT(stuk, 0);
  EXPECT_GT(combos, 0);
}

// Shape errors are the codec's: INVALID_ARGUMENT naming the field and the
// rule. Legality (which cards are held, which bonus the trick has) stays
// the engine's.
TEST(KrakenCodecTest, MalformedActionsAreRefusedNamingFieldAndRule) {
  std::unique_ptr<Game> game = MakeGame(GameParams());
  std::unique_ptr<State> state = game->NewInitialState();
  struct Case {
    v1::Action action;
    std::string message;
  };
  std::vector<Case> cases;
  auto add = [&](v1::Action a, std::string message) {
    cases.push_back({std::move(a), std::move(message)});
  };
  {
    v1::Action a;
    a.mutable_kraken();
    add(a,
        "kraken action has no kind: set choose_trump, pass_trump, "
        "accept_trump, challenge, pass_challenge, declare, play, "
        "claim_bonus or decline_bonus (KR-17.1)");
  }
  {
    v1::Action a;
    a.mutable_kraken()->mutable_choose_trump();
    add(a,
        "kraken.choose_trump.suit must be a suit: CLUBS, DIAMONDS, HEARTS "
        "or SPADES (KR-17.1)");
    a.mutable_kraken()->mutable_choose_trump()->set_suit(
        static_cast<v1::Suit>(9));
    add(a,
        "kraken.choose_trump.suit must be a suit: CLUBS, DIAMONDS, HEARTS "
        "or SPADES (KR-17.1)");
  }
  {
    v1::Action a;
    a.mutable_kraken()->mutable_play()->set_card(32);
    add(a, "kraken.play.card 32 is not a card id (0..31, KR-1.1)");
  }
  {
    v1::Action a;
    a.mutable_kraken()->mutable_claim_bonus();
    add(a,
        "kraken.claim_bonus.bonus must be one of the seven bonus types "
        "(KR-12.1)");
    a.mutable_kraken()->mutable_claim_bonus()->set_bonus(
        static_cast<v1::KrakenBonus>(8));
    add(a,
        "kraken.claim_bonus.bonus must be one of the seven bonus types "
        "(KR-12.1)");
  }
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_UNSPECIFIED, "7C 8C 9C")}),
      "kraken.declare.combinations[0].kind must be FOUR_JACKS, FOUR or RUN "
      "(KR-8.2)");
  {
    v1::KrakenCombination bad = Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C");
    bad.add_cards(40);
    add(Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "7D 8D 9D"), bad}),
        "kraken.declare.combinations[1].cards[2] 40 is not a card id (0..31, "
        "KR-1.1)");
  }
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C 8C 9C")}),
      "kraken.declare.combinations[0].cards[2] 8C is named twice in one "
      "combination (KR-8.2)");
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C TC")}),
      "kraken.declare.combinations[0]: KR-8.2: a RUN is 3 or more "
      "consecutive cards of one suit (order 7 8 9 T J Q K A, KR-5.3), got "
      "7C 8C TC");
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_FOUR, "9C 9D 9H 9S")}),
      "kraken.declare.combinations[0]: KR-8.2: four 9s are not a combination "
      "(only A, K, Q, T)");
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_FOUR_JACKS, "JC JD JH")}),
      "kraken.declare.combinations[0]: KR-8.2: FOUR_JACKS must be JC JD JH "
      "JS, got JC JD JH");
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C 9C"),
               Combo(v1::KRAKEN_COMBO_KIND_RUN, "9C 8C 7C")}),
      "kraken.declare.combinations: KR-8.3: RUN 7C 8C 9C is named twice");
  add(Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C 9C"),
               Combo(v1::KRAKEN_COMBO_KIND_RUN, "7D 8D 9D"),
               Combo(v1::KRAKEN_COMBO_KIND_RUN, "7H 8H 9H")}),
      "kraken.declare.combinations: KR-8.3: an 8-card hand holds at most two "
      "runs of 3+ cards; this declaration names three");
  {
    std::vector<v1::KrakenCombination> many(
        8, Combo(v1::KRAKEN_COMBO_KIND_RUN, "7C 8C 9C"));
    add(Declare(many),
        "kraken.declare.combinations has 8 entries; an 8-card hand holds at "
        "most 7 combinations (KR-8.3)");
  }
  {
    v1::Action other_game;
    other_game.mutable_craits()->mutable_draw();
    add(other_game,
        "action carries another game's message; this match plays 'kraken'");
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.action.ShortDebugString());
    absl::StatusOr<Action> a = DecodeAction(*state, c.action);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(a.status().message()), c.message);
  }
}

// Well-formed but illegal is the engine's call, with its rule (KR-17.3): a
// run not held, and a claim of the wrong type in E12's claim window.
TEST(KrakenCodecTest, WellFormedIllegalActionsAreLeftToTheEngine) {
  std::unique_ptr<kr::KrakenGame> game =
      kr::testing::MakeGame({{"trump_mode", std::string("FREE")}});
  std::unique_ptr<kr::KrakenState> state = game->NewKrakenState();
  ASSERT_TRUE(
      state->ApplyChance(ChanceKind::kDeal, kr::testing::DealADeck()).ok());
  kr::testing::Apply(*state, 1, "pass");
  kr::testing::Apply(*state, 2, "pass");
  kr::testing::Apply(*state, 3, "trump H");
  kr::testing::Apply(*state, 0, "pass-challenge");
  kr::testing::Apply(*state, 2, "pass-challenge");
  // s1 holds 7C JC KC AC JD KD 8H 7S: no run 8C 9C TC (E4).
  v1::Action run = Declare({Combo(v1::KRAKEN_COMBO_KIND_RUN, "8C 9C TC")});
  absl::StatusOr<Action> a = DecodeAction(*state, run);
  ASSERT_TRUE(a.ok()) << a.status();
  absl::Status st = state->ApplyAction(*a);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()), StartsWith("KR-8.3: "));
}

// Every card field of the schema that an observation can carry is marked,
// so the reflection walk below sees them all.
TEST(KrakenCodecTest, CardFieldsAreMarked) {
  EXPECT_THAT(
      CardFieldNames(v1::KrakenObservation::descriptor()),
      UnorderedElementsAre("cardref.v1.KrakenObservation.hand",
                           "cardref.v1.KrakenObservation.turned_trump_cards",
                           "cardref.v1.KrakenAction.Play.card",
                           "cardref.v1.KrakenCombination.cards",
                           "cardref.v1.KrakenTrick.PlayedCard.card"));
}

// KR-16.1-16.3: walks every card field of every seat's proto observation at
// every decision (and the end) of random games of every variant. Visible to
// seat s: its own hand (KR-16.2) and the cards played or declared this
// round (KR-16.1), as this test tracked them from the actions it applied.
// The turned trump-deck cards (another deck, KR-1.2) must be exactly the
// turned prefix of the recorded trump deck: the first card, and after four
// passes under SECOND_CARD up to the first card of another suit (KR-6.4a,
// KR-6.5); never an unturned one.
TEST(KrakenCodecTest, ObservationsNeverShowAHiddenCard) {
  // 16 games per variant; under a sanitizer 4 for the variants without a
  // random trump, whose turned cards (KR-6.4a) need the 16 to show up.
  const int few = testing_util::GamesForThisBuild(16, 4);
  int played = 0, checked = 0, turned_extra = 0, windows = 0, declared = 0;
  size_t legal_cards = 0;
  uint64_t seed = 100;
  for (const GameParams& params : Variants(8)) {
    std::unique_ptr<Game> game = MakeGame(params);
    const bool random = params.GetEnum("trump_mode") == "RANDOM";
    const int games = random ? 16 : few;
    played += games;
    for (int g = 0; g < games; ++g) {
      PlayRandomGame(
          *game, ++seed, [&](const State& state, const PublicLog& log) {
            const kr::KrakenState& ks = AsKraken(state);
            // The expected turned prefix.
            size_t turned = 0;
            if (random && !log.trump_deck.empty()) {
              turned = 1;
              const int proposed = kr::SuitOf(log.trump_deck[0]);
              if (ks.trump() >= 0 && !log.trump_by_action &&
                  log.trump_passes == 4) {
                while (kr::SuitOf(log.trump_deck[turned]) == proposed) ++turned;
                ++turned;
              }
            }
            for (int seat = 0; seat < kr::kNumSeats; ++seat) {
              SCOPED_TRACE(seat);
              v1::Observation obs;
              FillObservation(state, seat, &obs);
              ASSERT_TRUE(obs.has_kraken());
              v1::KrakenObservation view = obs.kraken();
              // KR-16.2: exactly this seat's own hand.
              std::vector<uint32_t> hand;
              for (kr::CardMask m = ks.hand(seat); m; m &= m - 1) {
                hand.push_back(__builtin_ctz(m));
              }
              ASSERT_EQ(
                  std::vector<uint32_t>(view.hand().begin(), view.hand().end()),
                  hand);
              // KR-6.5: the turned prefix of the trump deck, nothing more.
              ASSERT_EQ(static_cast<size_t>(view.turned_trump_cards_size()),
                        turned);
              for (size_t i = 0; i < turned; ++i) {
                ASSERT_EQ(view.turned_trump_cards(i), log.trump_deck[i]);
              }
              turned_extra += turned > 1;
              view.clear_turned_trump_cards();
              v1::Observation rest = obs;
              *rest.mutable_kraken() = view;
              std::vector<uint32_t> cards;
              CollectCards(rest, &cards);
              for (uint32_t c : cards) {
                ASSERT_TRUE(log.shown.count(c) ||
                            (ks.hand(seat) & kr::CardBit(static_cast<Card>(c))))
                    << "seat " << seat << " sees hidden card "
                    << kr::CardName(static_cast<Card>(c)) << "\n"
                    << obs.DebugString() << ks.DebugString();
              }
              // KR-16.2: the legal actions (skipped above) name only cards
              // of the seat's own hand.
              for (const v1::Action& legal : obs.legal_actions()) {
                std::vector<uint32_t> own;
                CollectCards(legal, &own);
                for (uint32_t c : own) {
                  ASSERT_TRUE(ks.hand(seat) & kr::CardBit(static_cast<Card>(c)))
                      << legal.ShortDebugString();
                }
                legal_cards += own.size();
              }
              windows += view.claim_window_open();
              declared += view.declarations_size();
              ++checked;
            }
          });
    }
  }
  EXPECT_GT(checked, 600 * played);  // views, 4 seats a step
  EXPECT_GT(turned_extra, 0);  // KR-6.4a happened
  EXPECT_GT(windows, 0);
  EXPECT_GT(declared, 0);
  EXPECT_GT(legal_cards, 0u);
}

// E9 (no challenge), played through the codec's view: the claim window
// after trick 1 (E12), the public declarations and contest, stuk, and the
// round result with every KR-14 component per team.
TEST(KrakenCodecTest, WorkedExampleE9InProto) {  // KR-14.1-14.5, KR-16.1
  using kr::testing::Apply;
  std::unique_ptr<kr::KrakenGame> game = kr::testing::MakeGame(
      {{"trump_mode", std::string("FREE")}, {"rounds", int64_t{1}}});
  std::unique_ptr<kr::KrakenState> state = game->NewKrakenState();
  ASSERT_TRUE(
      state->ApplyChance(ChanceKind::kDeal, kr::testing::DealADeck()).ok());
  Apply(*state, 1, "pass");
  Apply(*state, 2, "pass");
  Apply(*state, 3, "trump H");
  Apply(*state, 0, "pass-challenge");
  Apply(*state, 2, "pass-challenge");
  Apply(*state, 1, "declare");
  Apply(*state, 2, "declare");
  Apply(*state, 3, "declare run:8S,9S,TS");
  {
    v1::Observation obs;
    FillObservation(*state, 1, &obs);
    const v1::KrakenObservation& v = obs.kraken();
    EXPECT_EQ(v.phase(), v1::KRAKEN_PHASE_DECLARE);
    EXPECT_FALSE(v.has_contest());  // public only after the 4th (KR-16.1)
    ASSERT_EQ(v.declarations_size(), 3);
    EXPECT_EQ(v.declarations(2).seat(), 3);
    EXPECT_EQ(v.declarations(2).points(), 20);
    ASSERT_EQ(v.declarations(2).combinations_size(), 1);
    EXPECT_THAT(v.declarations(2).combinations(0).cards(),
                ElementsAre(25, 26, 27));  // 8S 9S TS
    EXPECT_EQ(v.trump(), v1::SUIT_HEARTS);
    EXPECT_EQ(v.maker(), 3);
    EXPECT_EQ(v.makers_team(), 1);
    EXPECT_EQ(v.burden_team(), 1);
    EXPECT_EQ(v.team(), 1);
    EXPECT_EQ(v.partner(), 3);
    ASSERT_EQ(v.trump_actions_size(), 3);
    EXPECT_TRUE(v.trump_actions(0).action().has_pass_trump());
    EXPECT_EQ(v.trump_actions(2).action().choose_trump().suit(),
              v1::SUIT_HEARTS);
    EXPECT_EQ(v.challenge_actions_size(), 2);
  }
  Apply(*state, 0, "declare");
  for (const char* play : {"7C", "9C", "TC", "8C"}) {
    Apply(*state, state->current_seat(), std::string("play ") + play);
  }
  {
    v1::Observation obs;
    FillObservation(*state, 0, &obs);
    const v1::KrakenObservation& v = obs.kraken();
    EXPECT_EQ(v.contest().winner_seat(), 3);
    EXPECT_EQ(v.contest().best_value(), 20);
    EXPECT_THAT(v.contest().points(), ElementsAre(0, 20));
    EXPECT_TRUE(v.claim_window_open());  // E12
    EXPECT_EQ(v.phase(), v1::KRAKEN_PHASE_CLAIM);
    EXPECT_FALSE(v.has_current_trick());
    ASSERT_EQ(v.completed_tricks_size(), 1);
    const v1::KrakenTrick& t = v.completed_tricks(0);
    EXPECT_EQ(t.number(), 1);
    EXPECT_EQ(t.leader(), 1);
    EXPECT_EQ(t.winner(), 3);
    EXPECT_EQ(t.points(), 10);
    EXPECT_EQ(t.bonus(), v1::KRAKEN_BONUS_RUN4);
    EXPECT_EQ(t.claim(), v1::KRAKEN_CLAIM_STATUS_OPEN);
    ASSERT_EQ(t.cards_size(), 4);
    EXPECT_EQ(t.cards(3).seat(), 0);
    EXPECT_EQ(t.cards(3).card(), 1u);  // 8C
    EXPECT_THAT(v.hand_sizes(), ElementsAre(7, 7, 7, 7));
  }
  Apply(*state, 3, "claim RUN4");
  const char* tricks[] = {"8S 7H 7S AS",      "7D JD 9D 9H", "9S AH AC JS",
                          "8D KD AD KH+stuk", "QH TH 8H JH", "KS QS QC JC",
                          "QD TS TD KC"};
  for (const char* trick : tricks) {
    for (absl::string_view card : absl::StrSplit(trick, ' ')) {
      Apply(*state, state->current_seat(), absl::StrCat("play ", card));
      if (card == "KH+stuk") {
        v1::Observation obs;
        FillObservation(*state, 0, &obs);
        EXPECT_THAT(obs.kraken().stuk_declared(),
                    ElementsAre(false, false, false, true));
        EXPECT_TRUE(obs.kraken().current_trick().cards_size() == 0 ||
                    obs.kraken().current_trick().cards(3).declare_stuk());
      }
    }
    if (state->phase() == kr::Phase::kClaim) {
      Apply(*state, state->current_seat(), "claim RUN3");  // trick 6, s2
    }
  }
  ASSERT_TRUE(state->IsTerminal());
  const v1::RoundResult rr = MakeRoundResult(*state, 1);
  ASSERT_TRUE(rr.has_kraken());
  const v1::KrakenRoundResult& r = rr.kraken();
  EXPECT_EQ(rr.round(), 1);
  EXPECT_EQ(r.dealer(), 0);
  EXPECT_EQ(r.trump(), v1::SUIT_HEARTS);
  EXPECT_EQ(r.maker(), 3);
  EXPECT_EQ(r.makers_team(), 1);
  EXPECT_EQ(r.level(), 0);
  EXPECT_EQ(r.contest_winner(), 3);
  ASSERT_EQ(r.teams_size(), 2);
  // E9: card points 107 / 45; RUN4 50 to team 1, RUN3 20 to team 0; stuk
  // and the declaration 20 each to team 1; raw 127 / 135.
  EXPECT_EQ(r.teams(0).card_points(), 107);
  EXPECT_EQ(r.teams(1).card_points(), 45);
  EXPECT_EQ(r.teams(0).trick_bonus(), 20);
  EXPECT_EQ(r.teams(1).trick_bonus(), 50);
  EXPECT_EQ(r.teams(0).stuk(), 0);
  EXPECT_EQ(r.teams(1).stuk(), 20);
  EXPECT_EQ(r.teams(0).declarations(), 0);
  EXPECT_EQ(r.teams(1).declarations(), 20);
  EXPECT_EQ(r.teams(0).last_trick() + r.teams(1).last_trick(), 0);
  EXPECT_EQ(r.teams(0).pit() + r.teams(1).pit(), 0);
  EXPECT_EQ(r.teams(0).tricks_won() + r.teams(1).tricks_won(), 8);
  EXPECT_EQ(r.teams(0).raw(), 127);  // 107 + 20 (RUN3 claimed by s2)
  EXPECT_EQ(r.teams(1).raw(), 135);
  EXPECT_EQ(r.factor(), 1);
  EXPECT_EQ(r.burden_team(), 1);
  EXPECT_TRUE(r.success());  // 135 > 127
  EXPECT_THAT(r.scores(), ElementsAre(127, 135));
  const v1::FinalResult f = MakeFinalResult(*state);
  ASSERT_TRUE(f.has_kraken());
  ASSERT_EQ(f.kraken().round_scores_size(), 1);
  EXPECT_THAT(f.kraken().round_scores(0).scores(), ElementsAre(127, 135));
  EXPECT_THAT(f.kraken().totals(), ElementsAre(127, 135));
  ASSERT_TRUE(f.kraken().has_winner_team());
  EXPECT_EQ(f.kraken().winner_team(), 1);
  EXPECT_THAT(f.scores(), ElementsAre(127, 135, 127, 135));
  EXPECT_THAT(f.winners(), ElementsAre(1, 3));
  EXPECT_TRUE(f.higher_score_is_better());
}

}  // namespace
}  // namespace cardref::codec
