#include "games/kraken/kraken_rules.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "referee/base/rule_error.h"

namespace cardref::kraken {

namespace {

// KR-5.1 order, index = rank (7 8 9 T J Q K A), value = strength (7 = 0).
constexpr int kTrumpOrder[kNumRanks] = {0, 1, 6, 4, 7, 2, 3, 5};
constexpr int kPlainOrder[kNumRanks] = {0, 1, 2, 6, 3, 4, 5, 7};
// KR-5.2 points by rank.
constexpr int kTrumpPoints[kNumRanks] = {0, 0, 14, 10, 20, 3, 4, 11};
constexpr int kPlainPoints[kNumRanks] = {0, 0, 0, 10, 2, 3, 4, 11};

// For each trump rank, the 8-bit rank mask of the trump ranks above it.
constexpr std::array<uint32_t, kNumRanks> MakeHigherTrumpRanks() {
  std::array<uint32_t, kNumRanks> out{};
  for (int r = 0; r < kNumRanks; ++r) {
    for (int s = 0; s < kNumRanks; ++s) {
      if (kTrumpOrder[s] > kTrumpOrder[r]) out[r] |= 1u << s;
    }
  }
  return out;
}
constexpr std::array<uint32_t, kNumRanks> kHigherTrumpRanks =
    MakeHigherTrumpRanks();

// Longest run of consecutive set bits of an 8-bit rank mask.
int LongestRun(uint32_t ranks) {
  int n = 0;
  for (; ranks != 0; ++n) ranks &= ranks << 1;
  return n;
}

// Index of the highest trump in the trick, or -1.
int TopTrumpIndex(absl::Span<const Card> trick, int trump) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(trick.size()); ++i) {
    if (SuitOf(trick[i]) != trump) continue;
    if (best < 0 ||
        kTrumpOrder[RankOf(trick[i])] > kTrumpOrder[RankOf(trick[best])]) {
      best = i;
    }
  }
  return best;
}

}  // namespace

std::string SeatName(int seat) { return absl::StrCat("seat ", seat); }

int CardPoints(Card c, int trump) {
  return SuitOf(c) == trump ? kTrumpPoints[RankOf(c)] : kPlainPoints[RankOf(c)];
}

int CardStrength(Card c, int trump, int led) {
  if (SuitOf(c) == trump) return 16 + kTrumpOrder[RankOf(c)];
  if (SuitOf(c) == led) return 8 + kPlainOrder[RankOf(c)];
  return 0;
}

CardMask TrumpsAbove(Card top) {
  return kHigherTrumpRanks[RankOf(top)] << (8 * SuitOf(top));
}

int TrickWinnerIndex(absl::Span<const Card> trick, int trump) {
  const int led = SuitOf(trick[0]);
  int best = 0;
  int best_strength = CardStrength(trick[0], trump, led);
  for (int i = 1; i < static_cast<int>(trick.size()); ++i) {
    const int s = CardStrength(trick[i], trump, led);
    if (s > best_strength) {
      best = i;
      best_strength = s;
    }
  }
  return best;
}

int TrickPoints(absl::Span<const Card> trick, int trump) {
  int points = 0;
  for (Card c : trick) points += CardPoints(c, trump);
  return points;
}

CardMask LegalCards(CardMask hand, absl::Span<const Card> trick, int trump,
                    RuleSet rule_set, bool partner_winning) {
  if (trick.empty()) return hand;  // KR-9.5a
  const int led = SuitOf(trick[0]);
  const CardMask trumps = hand & SuitCards(trump);
  const int top = TopTrumpIndex(trick, trump);
  const CardMask over = top < 0 ? trumps : trumps & TrumpsAbove(trick[top]);
  if (led == trump) {  // KR-9.5b
    return trumps ? (over ? over : trumps) : hand;
  }
  const CardMask led_cards = hand & SuitCards(led);
  if (led_cards) return led_cards;        // KR-9.5c
  if (rule_set == RuleSet::kRotterdam) {  // KR-11
    return trumps ? (over ? over : trumps) : hand;
  }
  const CardMask plain = hand & ~trumps;
  if (partner_winning) {  // KR-10.1
    if (top < 0) return hand;
    return (plain | over) ? (plain | over) : hand;
  }
  if (over) return over;  // KR-10.2
  return (top < 0 || plain == 0) ? hand : plain;
}

CardMask LegalCards(CardMask hand, absl::Span<const Card> trick, int trump,
                    RuleSet rule_set) {
  const int n = static_cast<int>(trick.size());
  const bool partner_winning =
      n >= 2 && TrickWinnerIndex(trick, trump) == n - 2;
  return LegalCards(hand, trick, trump, rule_set, partner_winning);
}

absl::Status ExplainIllegalCard(CardMask hand, absl::Span<const Card> trick,
                                int trump, RuleSet rule_set, Card card) {
  if (card >= kNumCards || (hand & CardBit(card)) == 0) {
    return IllegalAction("KR-9.2", "you do not hold ", CardName(card),
                         " (your hand: ", CardsToString(hand), ")");
  }
  const CardMask legal = LegalCards(hand, trick, trump, rule_set);
  if (legal & CardBit(card)) return absl::OkStatus();
  // Only a non-empty trick restricts (KR-9.5a).
  const int n = static_cast<int>(trick.size());
  const int led = SuitOf(trick[0]);
  const std::string led_letter(1, SuitLetter(led));
  const CardMask trumps = hand & SuitCards(trump);
  const int top_index = TopTrumpIndex(trick, trump);
  const std::string top =
      top_index < 0 ? std::string() : CardName(trick[top_index]);
  const std::string legal_list = CardsToString(legal);
  if (led == trump) {
    if (top_index >= 0 && (trumps & TrumpsAbove(trick[top_index]))) {
      return IllegalAction("KR-9.5b",
                           "trump was led: you must play a trump "
                           "higher than ",
                           top, " (", legal_list, ")");
    }
    return IllegalAction("KR-9.5b", "trump was led: you must play a trump (",
                         legal_list, ")");
  }
  if (hand & SuitCards(led)) {
    return IllegalAction("KR-9.5c", "you must follow suit ", led_letter, " (",
                         legal_list, ")");
  }
  if (rule_set == RuleSet::kRotterdam) {
    if (top_index < 0) {
      return IllegalAction("KR-11.1", "void in ", led_letter,
                           ", you must play a trump (", legal_list, ")");
    }
    if (trumps & TrumpsAbove(trick[top_index])) {
      return IllegalAction("KR-11.1", "void in ", led_letter,
                           ", you must overtrump ", top, " (", legal_list, ")");
    }
    return IllegalAction("KR-11.1", "void in ", led_letter,
                         ", you must play a trump even below ", top,
                         " (undertrumping is compulsory): ", legal_list);
  }
  const bool partner_winning =
      n >= 2 && TrickWinnerIndex(trick, trump) == n - 2;
  if (partner_winning) {
    return IllegalAction("KR-10.1", "your partner is winning with ", top,
                         ": you may not undertrump while you hold another "
                         "card; play a non-trump or a trump higher than ",
                         top, " (", legal_list, ")");
  }
  if (top_index < 0) {
    return IllegalAction("KR-10.2",
                         "must trump: the opponent is winning and "
                         "you hold ",
                         legal_list);
  }
  if (trumps & TrumpsAbove(trick[top_index])) {
    return IllegalAction("KR-10.2",
                         "must overtrump: the opponent is winning "
                         "with a trump and you hold ",
                         legal_list);
  }
  return IllegalAction("KR-10.2",
                       "may not undertrump: the opponent is "
                       "winning with ",
                       top,
                       ", which you cannot beat; play "
                       "a non-trump (",
                       legal_list, ")");
}

Bonus TrickBonus(const std::array<Card, 4>& cards, int trump) {
  const int r = RankOf(cards[0]);
  if (RankOf(cards[1]) == r && RankOf(cards[2]) == r && RankOf(cards[3]) == r) {
    if (r == kJack) return Bonus::kFourJacks;
    if (r == kAce || r == kKing || r == kQueen || r == kTen) {
      return Bonus::kFourOfAKind;
    }
    return Bonus::kNone;
  }
  const CardMask m = CardBit(cards[0]) | CardBit(cards[1]) | CardBit(cards[2]) |
                     CardBit(cards[3]);
  int run = 0;
  for (int s = 0; s < kNumSuits; ++s) {
    run = std::max(run, LongestRun((m >> (8 * s)) & 0xFF));
  }
  const CardMask kq =
      CardBit(MakeCard(trump, kKing)) | CardBit(MakeCard(trump, kQueen));
  const bool stuk = (m & kq) == kq;
  if (run == 4) return stuk ? Bonus::kTrumpRun4Stuk : Bonus::kRun4;
  if (run == 3) return stuk ? Bonus::kTrumpRun3Stuk : Bonus::kRun3;
  return stuk ? Bonus::kStuk : Bonus::kNone;
}

namespace {

// The items a hand can declare: fours bits and maximal runs (run A slot).
struct HandItems {
  int count = 0;
  std::array<uint32_t, 8> bits{};  // payload bits; runs in slot A form
  std::array<bool, 8> is_run{};
};

HandItems FindItems(CardMask hand) {
  HandItems items;
  if ((hand & RankCards(kJack)) == RankCards(kJack)) {
    items.is_run[items.count] = false;
    items.bits[items.count++] = kFourJacksBit;
  }
  for (int rank : {kTen, kQueen, kKing, kAce}) {
    if ((hand & RankCards(rank)) == RankCards(rank)) {
      items.is_run[items.count] = false;
      items.bits[items.count++] = FourBit(rank);
    }
  }
  for (int s = 0; s < kNumSuits && items.count < 8; ++s) {
    uint32_t m = (hand >> (8 * s)) & 0xFF;
    while (m != 0 && items.count < 8) {
      const int start = __builtin_ctz(m);
      const int len = __builtin_ctz(~(m >> start));
      if (len >= 3) {
        items.is_run[items.count] = true;
        items.bits[items.count++] = RunField(s, start, len);
      }
      m &= ~(((1u << len) - 1) << start);
    }
  }
  return items;
}

}  // namespace

int ListDeclarations(CardMask hand,
                     std::array<uint32_t, kMaxDeclarations>& out) {
  const HandItems items = FindItems(hand);
  // An 8-card hand holds at most 4 items (two fours use all 8 cards; one
  // four leaves 4 cards, so at most two runs sharing its cards).
  const int count = std::min(items.count, 4);
  int n = 0;
  for (uint32_t subset = 0; subset < (1u << count); ++subset) {
    uint32_t payload = 0;
    int runs = 0;
    for (int i = 0; i < count; ++i) {
      if (!(subset & (1u << i))) continue;
      if (items.is_run[i]) {
        payload |= items.bits[i] << (runs++ == 0 ? kRunAShift : kRunBShift);
      } else {
        payload |= items.bits[i];
      }
    }
    // Insertion keeps the list ascending.
    int j = n++;
    for (; j > 0 && out[j - 1] > payload; --j) out[j] = out[j - 1];
    out[j] = payload;
  }
  return n;
}

absl::Status CheckDeclaration(CardMask hand, uint32_t payload) {
  const Declaration d = DecodeDeclaration(payload);
  for (int i = 0; i < d.size; ++i) {
    const Combo& c = d.combos[i];
    const CardMask missing = c.cards & ~hand;
    if (missing) {
      return IllegalAction("KR-8.3", ComboKindName(c.kind), " ",
                           CardsToString(c.cards), " is not in your hand (",
                           CardsToString(missing), " not held)");
    }
    if (c.kind != ComboKind::kRun) continue;
    const int low = __builtin_ctz(c.cards);
    const int high = 31 - __builtin_clz(c.cards);
    CardMask extension = 0;
    if (RankOf(static_cast<Card>(low)) > 0) extension |= CardBit(low - 1);
    if (RankOf(static_cast<Card>(high)) < kAce) extension |= CardBit(high + 1);
    if (hand & extension) {
      return IllegalAction("KR-8.3", "RUN ", CardsToString(c.cards),
                           " is not maximal: you also hold ",
                           CardsToString(hand & extension),
                           "; declare the whole run");
    }
  }
  return absl::OkStatus();
}

ContestResult DeclarationContest(const std::array<uint32_t, 4>& payloads,
                                 int eldest) {
  ContestResult r;
  for (int i = 0; i < kNumSeats; ++i) {
    const int seat = (eldest + i) & 3;
    const int best = DeclarationBestCombo(payloads[seat]);
    if (best > r.best_value) {  // strict: the earliest seat keeps a tie
      r.best_value = best;
      r.winner_seat = seat;
    }
  }
  if (r.winner_seat < 0) return r;
  const int team = TeamOf(r.winner_seat);
  r.points[team] =
      DeclarationPoints(payloads[team]) + DeclarationPoints(payloads[team + 2]);
  return r;
}

RawScoring ScoreFromRaw(const std::array<int, 2>& raw, int level, int trump,
                        int maker_team, bool spades_double) {
  RawScoring s;
  s.burden_team = BurdenTeam(level, maker_team);
  s.factor = (1 << level) * ((spades_double && trump == kSpades) ? 2 : 1);
  const int b = s.burden_team;
  s.success = raw[b] > raw[1 - b];
  if (s.success) {
    s.score = {raw[0] * s.factor, raw[1] * s.factor};
  } else {
    s.score[b] = 0;
    s.score[1 - b] = (raw[0] + raw[1]) * s.factor;
  }
  return s;
}

RoundScore ScoreRound(const RoundFacts& f) {
  RoundScore s;
  s.level = f.level;
  for (int t = 0; t < kNumTricks; ++t) {
    const std::array<Card, 4>& cards = f.tricks[t];
    const int winner =
        (f.leaders[t] + TrickWinnerIndex(absl::MakeConstSpan(cards), f.trump)) &
        3;
    const int team = TeamOf(winner);
    ++s.tricks_won[team];
    s.card_points[team] += TrickPoints(absl::MakeConstSpan(cards), f.trump);
    if (t == kNumTricks - 1) s.last_trick[team] += f.last_trick_bonus;
    if (f.claimed[t])
      s.trick_bonus[team] += BonusValue(TrickBonus(cards, f.trump));
  }
  for (int seat = 0; seat < kNumSeats; ++seat) {
    if (f.stuk[seat]) s.stuk[TeamOf(seat)] += 20;
  }
  for (int team = 0; team < 2; ++team) {
    s.declarations[team] = f.declarations[team];
    if (s.tricks_won[team] == kNumTricks) s.pit[team] = f.pit_bonus;
    s.raw[team] = s.card_points[team] + s.last_trick[team] +
                  s.trick_bonus[team] + s.stuk[team] + s.declarations[team] +
                  s.pit[team];
  }
  const RawScoring rs =
      ScoreFromRaw(s.raw, f.level, f.trump, TeamOf(f.maker), f.spades_double);
  s.factor = rs.factor;
  s.burden_team = rs.burden_team;
  s.success = rs.success;
  s.score = rs.score;
  return s;
}

namespace {

template <typename Fn>
void ForEachDealtCard(int dealer, DealPattern pattern, Fn fn) {
  static constexpr int k323[] = {3, 2, 3};
  static constexpr int k44[] = {4, 4};
  const int* sizes = pattern == DealPattern::k323 ? k323 : k44;
  const int num_packets = pattern == DealPattern::k323 ? 3 : 2;
  const int eldest = LeftOf(dealer);
  int index = 0;
  for (int p = 0; p < num_packets; ++p) {
    for (int i = 0; i < kNumSeats; ++i) {
      const int seat = (eldest + i) & 3;
      for (int k = 0; k < sizes[p]; ++k) fn(seat, index++);
    }
  }
}

}  // namespace

std::array<CardMask, kNumSeats> DealHands(absl::Span<const Card> deck,
                                          int dealer, DealPattern pattern) {
  std::array<CardMask, kNumSeats> hands{};
  ForEachDealtCard(dealer, pattern, [&](int seat, int index) {
    hands[seat] |= CardBit(deck[index]);
  });
  return hands;
}

std::array<Card, kNumCards> DeckForHands(
    const std::array<CardMask, kNumSeats>& hands, int dealer,
    DealPattern pattern) {
  std::array<Card, kNumCards> deck{};
  std::array<CardMask, kNumSeats> left = hands;
  ForEachDealtCard(dealer, pattern, [&](int seat, int index) {
    // A short hand (broken precondition) yields 0s rather than UB.
    const Card c =
        left[seat] == 0 ? 0 : static_cast<Card>(__builtin_ctz(left[seat]));
    left[seat] &= left[seat] - 1;
    deck[index] = c;
  });
  return deck;
}

}  // namespace cardref::kraken
