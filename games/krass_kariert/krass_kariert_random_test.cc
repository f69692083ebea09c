// 10,000 seeded random games over every parameter combination, checking
// the engine's invariants at every step (RandomSimTest-style):
//  - KK-0.1: all 54 cards accounted for once (hands, reserves, pending
//    drawn cards, pile, discards);
//  - chips in 0..C; every game terminates; KK-13 results are consistent;
//  - a decision node has a non-empty, strictly ascending legal list, and
//    the chosen action is accepted by the validating ApplyAction;
//  - KK-2.1-2.3: actions never reorder a hand (PLAY removes a block,
//    TAKE_RESERVE / PLACE_DRAWN insert one card at the given position);
//  - Clone() equals the original and replays identically;
//  - KK-15.3: Observe(i) holds no card hidden from seat i;
//  - the notation round-trips every distinct legal action seen;
//  - KK-16.5: random illegal actions are rejected naming a KK rule and
//    leave the state unchanged, and IsLegalAction agrees with the legal
//    list on them and on every legal action (first 1,000 games).
#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/base/rng.h"
#include "games/krass_kariert/krass_kariert.h"
#include "games/krass_kariert/krass_kariert_test_util.h"

namespace cardref::krass_kariert {
namespace {

using testing::MakeGame;
using testing::NewState;

constexpr int kGames = testing_util::GamesForThisBuild(10000);
constexpr int kMaxDecisionsPerGame = 20000;

struct Config {
  int n, chips, hand;
  const char* fallback;
};

std::vector<Config> AllConfigs() {
  std::vector<Config> out;
  for (int n = 3; n <= 5; ++n) {
    for (int h = 1; h <= 10; ++h) {
      if (n * (h + 2) > 48) continue;
      for (int c : {2, 3}) {
        for (const char* f : {"CCW", "CW"}) out.push_back({n, c, h, f});
      }
    }
  }
  return out;
}

using CardSet = uint64_t;
CardSet Bit(Card c) { return CardSet{1} << c; }

// Every card's location; fails on a duplicate or a missing card. Hole H5:
// between rounds, hands and untaken reserves stay until the next deal.
void CheckConservation(const KrassKariertState& s) {
  CardSet seen = 0;
  int count = 0;
  auto add = [&](Card c) {
    ASSERT_LT(c, kNumCards);
    ASSERT_FALSE(seen & Bit(c)) << "card " << int(c) << " twice\n"
                                << s.DebugString();
    seen |= Bit(c);
    ++count;
  };
  for (int p = 0; p < s.config().num_players; ++p) {
    for (Card c : s.hand(p)) add(c);
    for (int r = 0; r < kReserveSlots; ++r) {
      if (s.reserve(p, r) != kNoCard) add(s.reserve(p, r));
    }
  }
  for (Card c : s.pending_drawn()) add(c);
  for (Card c : s.pile()) add(c);
  for (Card c : s.discards()) add(c);
  ASSERT_EQ(count, kNumCards) << s.DebugString();
}

// KK-15.3: every card in Observe(seat) is public now or seat's own.
void CheckObservation(const KrassKariertState& s, int seat) {
  const KrassKariertObservation o = s.Observe(seat);
  CardSet allowed = 0;
  const int n = s.config().num_players;
  for (Card c : s.discards()) allowed |= Bit(c);
  for (int p = 0; p < n; ++p) {
    for (int r = 0; r < kReserveSlots; ++r) {
      if (s.reserve(p, r) != kNoCard) allowed |= Bit(s.reserve(p, r));
    }
  }
  CardSet own = 0;
  for (Card c : s.hand(seat)) own |= Bit(c);
  if (s.current_seat() == seat) {
    for (Card c : s.pending_drawn()) own |= Bit(c);
  }
  auto check = [&](Card c, const char* field) {
    if (c == kNoCard) return;
    ASSERT_LT(c, kNumCards) << field;
    ASSERT_TRUE((allowed | own) & Bit(c))
        << "seat " << seat << " sees hidden card " << int(c) << " in "
        << field << "\n"
        << s.DebugString();
  };
  ASSERT_EQ(o.hand_length, s.hand_length(seat));
  for (int i = 0; i < o.hand_length; ++i) {
    ASSERT_EQ(o.hand[i], s.hand(seat)[i]);
    check(o.hand[i], "hand");
  }
  for (int i = o.hand_length; i < kMaxHand; ++i) ASSERT_EQ(o.hand[i], 0);
  for (int i = 0; i < o.own_pending_count; ++i) {
    check(o.own_pending[i], "own_pending");
  }
  if (o.drawing_seat != seat) {
    ASSERT_EQ(o.own_pending_count, 0);
    for (Card c : o.own_pending) ASSERT_EQ(c, 0);
  }
  for (int p = 0; p < kMaxSeats; ++p) {
    for (Card c : o.reserves[p]) check(c, "reserves");
    ASSERT_EQ(o.hand_sizes[p], p < n ? s.hand_length(p) : 0);
  }
  for (int i = 0; i < o.num_discards; ++i) check(o.discards[i], "discards");
  for (int i = o.num_discards; i < kNumCards; ++i) {
    ASSERT_EQ(o.discards[i], 0);
  }
  for (int i = 0; i < o.trick_length; ++i) {
    for (int j = 0; j < o.trick_actions[i].num_cards; ++j) {
      check(o.trick_actions[i].cards[j], "trick_actions");
    }
  }
  ASSERT_EQ(o.pile_size, s.pile_size());
  ASSERT_EQ(o.seat_to_act, s.current_seat());
}

// KK-2.1-2.3: the acting seat's hand after `action` follows from before.
void CheckHandOrder(const std::vector<Card>& before, Card inserted,
                    Action action, const KrassKariertState& after, int seat) {
  std::vector<Card> expected = before;
  const KrassKariertAction a = *DecodeAction(action);
  if (a.type == ActionType::kPlay) {
    expected.erase(expected.begin() + a.start,
                   expected.begin() + a.start + a.count);
  } else {
    expected.insert(expected.begin() + a.position, inserted);
  }
  ASSERT_EQ(std::vector<Card>(after.hand(seat).begin(), after.hand(seat).end()),
            expected)
      << after.ActionToString(action);
}

// Notation round trip, once per distinct action.
class SeenActions {
 public:
  void Check(const State& s, Action a) {
    const int index = Index(a);
    if (seen_[index]) return;
    seen_[index] = true;
    ++count_;
    absl::StatusOr<Action> back = s.ParseAction(s.ActionToString(a));
    ASSERT_TRUE(back.ok()) << s.ActionToString(a) << ": " << back.status();
    ASSERT_EQ(*back, a) << s.ActionToString(a);
  }
  int count() const { return count_; }

 private:
  static int Index(Action a) {
    switch (a >> kTypeShift) {
      case 0:
        return static_cast<int>(((a >> kStartShift) & 31) * 1024 +
                                ((a >> kCountShift) & 3) * 256 + (a & 255));
      case 1:
        return 32768 + static_cast<int>(((a >> kSlotShift) & 1) * 32 + (a & 31));
      default:
        return 32768 + 64 + static_cast<int>(a & 31);
    }
  }
  std::vector<bool> seen_ = std::vector<bool>(32768 + 128);
  int count_ = 0;
};

// A random action value near the legal ones: mostly well-formed PLAY /
// TAKE_RESERVE / PLACE_DRAWN with fields slightly out of range, sometimes
// raw bits.
Action RandomNearAction(Rng& rng, int hand_length) {
  switch (rng.Uniform(4)) {
    case 0: {
      const int x0 = static_cast<int>(rng.Uniform(14));
      const int x1 = x0 == 0 ? 0 : static_cast<int>(rng.Uniform(14));
      return EncodePlay(static_cast<int>(rng.Uniform(hand_length + 2)),
                        static_cast<int>(rng.Uniform(4)), x0, x1);
    }
    case 1:
      return EncodeTakeReserve(static_cast<int>(rng.Uniform(2)),
                               static_cast<int>(rng.Uniform(hand_length + 3)));
    case 2:
      return EncodePlaceDrawn(static_cast<int>(rng.Uniform(hand_length + 3)));
    default:
      return static_cast<Action>(rng.Next());
  }
}

// KK-16.5: an illegal action is rejected naming a KK rule, state unchanged.
void CheckRejections(KrassKariertState& s, Rng& rng, const ActionList& legal,
                     int tries) {
  const int len = s.hand_length(s.current_seat());
  // IsLegalAction (which finds a play without listing the others) agrees
  // with the list on every legal action and on every near miss.
  for (Action a : legal) ASSERT_TRUE(s.IsLegalAction(a)) << s.ActionToString(a);
  for (int t = 0; t < tries; ++t) {
    const Action a = RandomNearAction(rng, len);
    ASSERT_EQ(s.IsLegalAction(a), legal.contains(a)) << a;
    if (legal.contains(a)) continue;
    auto before = s.Clone();
    absl::Status st = s.ApplyAction(a);
    ASSERT_FALSE(st.ok()) << s.ActionToString(a);
    ASSERT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
    ASSERT_TRUE(absl::StartsWith(st.message(), "KK-")) << st;
    ASSERT_TRUE(s == static_cast<const KrassKariertState&>(*before))
        << "rejected " << s.ActionToString(a) << " changed the state";
  }
}

struct Totals {
  int64_t decisions = 0;
  int64_t rounds = 0;
  int64_t stuck_or_multi = 0;
  int64_t draws_placed = 0;
};

void PlayOneGame(const KrassKariertGame& game, uint64_t seed,
                 bool check_rejections, SeenActions& seen, Totals& totals) {
  Rng rng(seed);
  auto s = NewState(game);
  const int n = game.config().num_players;
  const int c = game.config().chips_per_player;
  int decisions = 0;
  while (!s->IsTerminal()) {
    if (s->rounds_completed() > 0 || !s->IsChance()) {
      ASSERT_NO_FATAL_FAILURE(CheckConservation(*s));
    }
    for (int p = 0; p < n; ++p) {
      ASSERT_GE(s->chips(p), 0);
      ASSERT_LE(s->chips(p), c);
    }
    if (s->IsChance()) {
      std::array<Card, 64> cards;
      const int k = s->ChanceCards(absl::MakeSpan(cards));
      ASSERT_EQ(k, kNumCards);
      rng.Shuffle(absl::MakeSpan(cards.data(), k));
      ASSERT_TRUE(s->ApplyChance(ChanceKind::kDeal,
                                 absl::MakeConstSpan(cards.data(), k))
                      .ok());
      ++totals.rounds;
      continue;
    }
    ASSERT_LT(++decisions, kMaxDecisionsPerGame) << "game does not end";
    const int seat = s->current_seat();
    ASSERT_GE(seat, 0);
    ASSERT_LT(seat, n);
    ActionList legal;
    s->LegalActions(legal);
    ASSERT_FALSE(legal.empty()) << s->DebugString();
    for (int i = 0; i < legal.size(); ++i) {
      if (i > 0) {
        ASSERT_LT(legal[i - 1], legal[i]);
      }
      ASSERT_NO_FATAL_FAILURE(seen.Check(*s, legal[i]));
    }
    for (int p = 0; p < n; ++p) {
      ASSERT_NO_FATAL_FAILURE(CheckObservation(*s, p));
    }
    if (!s->pending_drawn().empty()) {
      // KK-14.3: with valid parameters the pile never runs short, so the
      // winner drew exactly 3 cards per DRAW.
      const KrassKariertObservation o = s->Observe(seat);
      ASSERT_EQ(o.drawn_count, 3 * o.draws_in_trick);
    }
    if (check_rejections) {
      ASSERT_NO_FATAL_FAILURE(CheckRejections(*s, rng, legal, 4));
    }
    const Action action = legal[rng.Uniform(legal.size())];
    const std::vector<Card> hand_before(s->hand(seat).begin(),
                                        s->hand(seat).end());
    Card inserted = kNoCard;
    const KrassKariertAction typed = *DecodeAction(action);
    if (typed.type == ActionType::kTakeReserve) {
      inserted = s->reserve(seat, typed.slot);
    } else if (typed.type == ActionType::kPlaceDrawn) {
      inserted = s->pending_drawn()[0];
      ++totals.draws_placed;
    }
    auto clone = s->Clone();
    auto* kk_clone = static_cast<KrassKariertState*>(clone.get());
    ASSERT_TRUE(*kk_clone == *s);
    absl::Status st = s->ApplyAction(action);
    ASSERT_TRUE(st.ok()) << s->ActionToString(action) << ": " << st;
    kk_clone->ApplyLegalAction(action);
    ASSERT_TRUE(*kk_clone == *s) << "clone diverged";
    ASSERT_NO_FATAL_FAILURE(
        CheckHandOrder(hand_before, inserted, action, *s, seat));
    ++totals.decisions;
  }
  ASSERT_NO_FATAL_FAILURE(CheckConservation(*s));
  // KK-13: the results follow from the chip-loss events.
  const KrassKariertResult r = s->Result();
  ASSERT_EQ(static_cast<int>(r.round_losses.size()), s->rounds_completed());
  std::array<int, kMaxSeats> chips = {};
  for (int p = 0; p < n; ++p) chips[p] = c;
  SeatMask eliminated = 0;
  for (size_t i = 0; i < r.round_losses.size(); ++i) {
    ASSERT_EQ(r.round_losses[i].round, static_cast<int>(i) + 1);
    ASSERT_FALSE(r.round_losses[i].seats.empty());
    ASSERT_EQ(eliminated, 0) << "a round after the game ended";
    SeatMask charged = 0;
    for (int p : r.round_losses[i].seats) charged |= SeatBit(p);
    if (CountSeats(charged) > 1) ++totals.stuck_or_multi;
    const ChipLossResult step = ApplyChipLoss(chips, charged);
    chips = step.chips;
    eliminated = step.eliminated;
  }
  ASSERT_NE(eliminated, 0);
  ASSERT_EQ(eliminated, s->losers());
  for (int p = 0; p < n; ++p) ASSERT_EQ(r.chips[p], chips[p]);
  const GameOutcome o = s->Outcome();
  ASSERT_EQ(static_cast<int>(r.winners.size() + r.losers.size()), n);
  ASSERT_EQ(o.winners, r.winners);
  for (int p : r.losers) {
    ASSERT_EQ(r.chips[p], 0);
    ASSERT_EQ(o.ranks[p], 1 + static_cast<int>(r.winners.size()));
  }
  for (int p : r.winners) ASSERT_EQ(o.ranks[p], 1);
}

TEST(KrassKariertRandom, TenThousandGamesKeepInvariants) {
  const std::vector<Config> configs = AllConfigs();
  ASSERT_EQ(configs.size(), 108u);  // N=3: H 1..10, N=4: 1..10, N=5: 1..7
  std::vector<std::unique_ptr<KrassKariertGame>> games;
  games.reserve(configs.size());
  for (const Config& c : configs) {
    games.push_back(MakeGame(c.n, c.chips, c.hand, c.fallback));
  }
  SeenActions seen;
  Totals totals;
  for (int g = 0; g < kGames; ++g) {
    const size_t k = static_cast<size_t>(g) % games.size();
    ASSERT_NO_FATAL_FAILURE(PlayOneGame(*games[k], 1000003ull * g + 17,
                                        /*check_rejections=*/g < 1000, seen,
                                        totals))
        << "game " << g << " config " << configs[k].n << "/"
        << configs[k].chips << "/" << configs[k].hand << "/"
        << configs[k].fallback;
  }
  // The games reach the interesting corners (sanity, not exact numbers).
  EXPECT_GT(totals.draws_placed, 0);
  EXPECT_GT(totals.stuck_or_multi, 0);
  EXPECT_GT(seen.count(), 1000);
  std::cout << "[ random ] " << kGames << " games, " << totals.rounds
            << " rounds, " << totals.decisions << " decisions, "
            << seen.count() << " distinct actions round-tripped\n";
}

}  // namespace
}  // namespace cardref::krass_kariert
