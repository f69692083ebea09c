// 5,000 seeded random games over every parameter combination, checking the
// invariants of the engine at every node, the notation round trip of every
// legal action seen, and that no observation holds a card that is not public
// (or the seat's own) at that moment.
#include <array>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/base/rng.h"
#include "games/kraken/kraken.h"
#include "games/kraken/kraken_notation.h"
#include "games/kraken/kraken_test_util.h"

namespace cardref::kraken {
namespace {

// Everything the test knows independently of the engine, from the events it
// applied: hands from the deal, public cards from the actions.
struct Tracker {
  KrakenConfig config;
  std::array<CardMask, 4> hands{};
  std::vector<Card> trump_deck;
  std::vector<Card> turned;  // KR-6.5
  int trump_passes = 0;
  std::array<bool, 4> declared{};
  std::array<uint32_t, 4> declarations{};
  CardMask declared_cards = 0;
  std::vector<std::vector<Card>> tricks;  // play order, per trick begun
  CardMask played = 0;

  void Deal(absl::Span<const Card> deck, int dealer) {
    hands = DealHands(deck, dealer, config.deal_pattern);
    trump_deck.clear();
    turned.clear();
    trump_passes = 0;
    declared = {};
    declarations = {};
    declared_cards = 0;
    tricks.clear();
    played = 0;
  }
  void TrumpDeck(absl::Span<const Card> deck) {
    trump_deck.assign(deck.begin(), deck.end());
    turned = {deck[0]};
  }
  void Applied(int seat, Action a) {
    switch (KindOf(a)) {
      case ActionKind::kPassTrump:
        if (++trump_passes == 4 && config.trump_mode == TrumpMode::kRandom &&
            config.random_all_pass == AllPass::kSecondCard) {
          const int p = SuitOf(trump_deck[0]);
          for (size_t i = 1; i < trump_deck.size(); ++i) {
            turned.push_back(trump_deck[i]);
            if (SuitOf(trump_deck[i]) != p) break;
          }
        }
        break;
      case ActionKind::kDeclare: {
        declared[seat] = true;
        declarations[seat] = PayloadOf(a);
        const Declaration d = DecodeDeclaration(PayloadOf(a));
        for (int i = 0; i < d.size; ++i) declared_cards |= d.combos[i].cards;
        break;
      }
      case ActionKind::kPlay: {
        const Card c = PlayedCard(a);
        if (tricks.empty() || tricks.back().size() == 4) tricks.emplace_back();
        tricks.back().push_back(c);
        hands[seat] &= ~CardBit(c);
        played |= CardBit(c);
        break;
      }
      default:
        break;
    }
  }
};

// Checks Observe(seat) against the tracker: exact for what the tracker
// knows, and every card anywhere in it must be the seat's own or public.
void CheckObservation(const KrakenState& state, const Tracker& t, int seat) {
  const KrakenObservation o = state.Observe(seat);
  const CardMask own = t.hands[seat];
  CardMask public_cards = t.played | t.declared_cards;
  for (Card c : t.turned) public_cards |= CardBit(c);
  auto check_card = [&](Card c, const char* field) {
    ASSERT_LT(c, kNumCards) << field;
    ASSERT_TRUE((own | public_cards) & CardBit(c))
        << "seat " << seat << " sees hidden " << CardName(c) << " in " << field
        << "\n"
        << state.DebugString();
  };
  ASSERT_EQ(o.hand, own);
  for (int s = 0; s < 4; ++s)
    ASSERT_EQ(o.hand_sizes[s], CountCards(t.hands[s]));
  ASSERT_EQ(o.turned_trump_cards, t.turned);
  for (Card c : o.turned_trump_cards) check_card(c, "turned_trump_cards");
  for (int s = 0; s < 4; ++s) {
    ASSERT_EQ(o.declared[s], t.declared[s]);
    ASSERT_EQ(o.declarations[s], t.declarations[s]);
    const Declaration d = DecodeDeclaration(o.declarations[s]);
    for (int i = 0; i < d.size; ++i) {
      for (CardMask m = d.combos[i].cards; m; m &= m - 1) {
        check_card(static_cast<Card>(__builtin_ctz(m)), "declarations");
      }
    }
  }
  ASSERT_EQ(o.contest_decided,
            t.declared[0] && t.declared[1] && t.declared[2] && t.declared[3]);
  // Tricks: exactly the cards played, in order.
  std::vector<std::vector<Card>> seen;
  for (const KrakenTrick& tr : o.completed_tricks) {
    ASSERT_EQ(tr.size, 4);
    seen.emplace_back(tr.cards.begin(), tr.cards.end());
  }
  if (o.current_trick.size > 0) {
    seen.emplace_back(o.current_trick.cards.begin(),
                      o.current_trick.cards.begin() + o.current_trick.size);
  }
  for (int i = o.current_trick.size; i < 4; ++i) {
    ASSERT_EQ(o.current_trick.cards[i], kNoCard);
  }
  ASSERT_EQ(seen, t.tricks);
  for (const auto& tr : seen) {
    for (Card c : tr) check_card(c, "tricks");
  }
  // Legal actions: only for the seat to act, and only its own cards.
  if (o.seat_to_act != seat) {
    ASSERT_TRUE(o.legal_actions.empty());
  }
  for (Action a : o.legal_actions) {
    if (KindOf(a) == ActionKind::kPlay) {
      ASSERT_TRUE(own & CardBit(PlayedCard(a)));
    } else if (KindOf(a) == ActionKind::kDeclare) {
      const Declaration d = DecodeDeclaration(PayloadOf(a));
      for (int i = 0; i < d.size; ++i) ASSERT_EQ(d.combos[i].cards & ~own, 0u);
    }
  }
}

GameParams ParamsFor(int index, Rng& rng) {
  GameParams p;
  static const char* kModes[] = {"UTRECHT", "FREE", "RANDOM"};
  p.Set("trump_mode", std::string(kModes[index % 3]));
  index /= 3;
  p.Set("free_first_speaker",
        std::string(index % 2 ? "DEALER" : "LEFT_OF_DEALER"));
  index /= 2;
  p.Set("random_all_pass",
        std::string(index % 2 ? "CALL_OTHER" : "SECOND_CARD"));
  index /= 2;
  p.Set("rule_set", std::string(index % 2 ? "ROTTERDAM" : "AMSTERDAM"));
  index /= 2;
  p.Set("spades_double", index % 2 == 1);
  index /= 2;
  p.Set("deal_pattern", std::string(index % 2 ? "4-4" : "3-2-3"));
  index /= 2;
  p.Set("last_trick_bonus", int64_t{index % 2 ? 10 : 0});
  index /= 2;
  p.Set("pit_bonus", int64_t{index % 2 ? 100 : 0});
  p.Set("rounds", int64_t{1 + rng.Uniform(16)});
  p.Set("first_dealer", int64_t{rng.Uniform(4)});
  return p;
}

TEST(KrakenRandomTest, FiveThousandGamesKeepEveryInvariant) {
  constexpr int kGames = testing_util::GamesForThisBuild(5000);
  constexpr int kCombos = 3 * 2 * 2 * 2 * 2 * 2 * 2 * 2;  // 384
  std::set<Action> round_tripped;
  std::array<int, 10> kinds_seen{};
  int stuk_rounds = 0, pit_rounds = 0, draws = 0;
  int64_t decisions = 0;
  for (int g = 0; g < kGames; ++g) {
    Rng rng(1000003ull * g + 17);
    const GameParams given = ParamsFor(g % kCombos, rng);
    absl::StatusOr<std::unique_ptr<KrakenGame>> game =
        KrakenGame::Create(given);
    ASSERT_TRUE(game.ok()) << game.status();
    auto state = (*game)->NewKrakenState();
    Tracker t;
    t.config = (*game)->config();
    int last_completed = 0;
    std::array<Card, kNumCards> deck;
    while (!state->IsTerminal()) {
      SCOPED_TRACE(absl::StrCat("game ", g, " params ", given.ToString()));
      if (state->IsChance()) {
        ASSERT_EQ(state->current_seat(), -1);
        std::array<Card, 64> cards;
        ASSERT_EQ(state->ChanceCards(absl::MakeSpan(cards)), kNumCards);
        for (int i = 0; i < kNumCards; ++i) deck[i] = cards[i];
        rng.Shuffle(absl::MakeSpan(deck));
        const ChanceKind kind = state->chance_kind();
        ASSERT_TRUE(state->ApplyChance(kind, deck).ok());
        if (kind == ChanceKind::kDeal) {
          t.Deal(deck, state->dealer());
        } else {
          t.TrumpDeck(deck);
        }
        continue;
      }
      // KR-17.1: exactly one seat acts, with a non-empty ascending list.
      const int seat = state->current_seat();
      ASSERT_GE(seat, 0);
      ASSERT_LT(seat, 4);
      ActionList legal;
      state->LegalActions(legal);
      ASSERT_FALSE(legal.empty()) << state->DebugString();
      for (int i = 1; i < legal.size(); ++i) ASSERT_LT(legal[i - 1], legal[i]);
      for (Action a : legal) {
        if (round_tripped.insert(a).second) {
          const std::string text = state->ActionToString(a);
          absl::StatusOr<Action> back = state->ParseAction(text);
          ASSERT_TRUE(back.ok()) << text << ": " << back.status();
          ASSERT_EQ(*back, a) << text;
          absl::StatusOr<KrakenAction> typed = Decode(a);
          ASSERT_TRUE(typed.ok());
          ASSERT_EQ(*Encode(*typed), a);
        }
      }
      // 32 cards conserved: hands plus cards played this round.
      CardMask all = t.played;
      for (int s = 0; s < 4; ++s) {
        ASSERT_EQ(state->hand(s), t.hands[s]);
        ASSERT_EQ(all & t.hands[s], 0u);
        all |= t.hands[s];
      }
      ASSERT_EQ(all, 0xFFFFFFFFu);
      // Observations hide what they must.
      for (int s = 0; s < 4; ++s) {
        CheckObservation(*state, t, s);
        if (::testing::Test::HasFatalFailure()) return;
      }
      // A random illegal action is rejected with a rule and changes nothing.
      if (decisions % 7 == 0) {
        Action bad = legal[0];
        for (int tries = 0; tries < 20 && legal.contains(bad); ++tries) {
          const auto kind = static_cast<ActionKind>(1 + rng.Uniform(9));
          switch (kind) {
            case ActionKind::kChooseTrump:
              bad = ChooseTrumpAction(static_cast<int>(rng.Uniform(4)));
              break;
            case ActionKind::kDeclare:  // a run of 3 anywhere
              bad = DeclareAction(RunField(static_cast<int>(rng.Uniform(4)),
                                           static_cast<int>(rng.Uniform(6)), 3)
                                  << kRunAShift);
              break;
            case ActionKind::kPlay:
              bad = PlayAction(static_cast<Card>(rng.Uniform(32)),
                               rng.Uniform(2) == 1);
              break;
            case ActionKind::kClaimBonus:
              bad = ClaimBonusAction(static_cast<Bonus>(1 + rng.Uniform(7)));
              break;
            default:
              bad = MakeAction(kind);
          }
          if (tries == 19) bad = static_cast<Action>(rng.Next());
        }
        if (!legal.contains(bad)) {
          std::unique_ptr<State> before = state->Clone();
          absl::Status st = state->ApplyAction(bad);
          ASSERT_FALSE(st.ok());
          ASSERT_EQ(st.message().substr(0, 3), "KR-") << st;
          ASSERT_TRUE(*state == static_cast<const KrakenState&>(*before));
        }
      }
      // Clone equality before and after the same action.
      const Action a = legal[static_cast<int>(rng.Uniform(legal.size()))];
      std::unique_ptr<State> clone = state->Clone();
      auto& copy = static_cast<KrakenState&>(*clone);
      ASSERT_TRUE(copy == *state);
      ASSERT_TRUE(state->ApplyAction(a).ok()) << state->ActionToString(a);
      ASSERT_FALSE(copy == *state);
      copy.ApplyLegalAction(a);
      ASSERT_TRUE(copy == *state);
      t.Applied(seat, a);
      ++kinds_seen[static_cast<int>(KindOf(a))];
      ++decisions;
      // Round end: card points and scores.
      if (state->rounds_completed() != last_completed) {
        last_completed = state->rounds_completed();
        const KrakenRoundResult& r = state->round_results().back();
        const RoundScore& s = r.score;
        ASSERT_EQ(s.card_points[0] + s.card_points[1], 152);
        ASSERT_EQ(s.last_trick[0] + s.last_trick[1], t.config.last_trick_bonus);
        ASSERT_EQ(s.tricks_won[0] + s.tricks_won[1], 8);
        ASSERT_EQ(t.played, 0xFFFFFFFFu);
        for (int team = 0; team < 2; ++team) {
          ASSERT_GE(s.score[team], 0);  // KR-1.3
          ASSERT_GE(s.raw[team], 0);
          ASSERT_EQ(s.raw[team], s.card_points[team] + s.last_trick[team] +
                                     s.trick_bonus[team] + s.stuk[team] +
                                     s.declarations[team] + s.pit[team]);
        }
        const RawScoring check = ScoreFromRaw(
            s.raw, s.level, r.trump, TeamOf(r.maker), t.config.spades_double);
        ASSERT_EQ(check.score, s.score);
        stuk_rounds += s.stuk[0] + s.stuk[1] > 0;
        pit_rounds += s.pit[0] + s.pit[1] > 0;
      }
    }
    const KrakenGameResult r = state->Result();
    ASSERT_EQ(static_cast<int>(r.round_scores.size()), t.config.rounds);
    draws += r.winner_team < 0;
    const GameOutcome out = state->Outcome();
    ASSERT_EQ(out.winners.size(), r.winner_team < 0 ? 0u : 2u);
  }
  for (int k = 1; k <= 9; ++k) EXPECT_GT(kinds_seen[k], 0) << k;
  EXPECT_GT(stuk_rounds, 0);
  EXPECT_GT(pit_rounds, 0);
  // The full 5,000 games reach over 500 distinct actions; the sanitizer
  // lane's tenth (500 games) reaches about 245.
  EXPECT_GT(round_tripped.size(),
            testing_util::kSanitizerDivisor == 1 ? 500u : 200u);
  std::cout << decisions << " decisions, " << round_tripped.size()
            << " distinct actions round-tripped, " << stuk_rounds
            << " rounds with stuk, " << pit_rounds << " pit rounds, " << draws
            << " drawn games\n";
}

}  // namespace
}  // namespace cardref::kraken
