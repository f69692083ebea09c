// Krass Kariert cards (KK-0.1) and combinations (KK-3): pure functions with
// no state, shared by the engine, the notation and the analyzer.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CARDS_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CARDS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "games/api/game.h"

namespace cardref::krass_kariert {

// KK-0.1 canonical ids: 0-47 number value id/4+1; 48-49 X; 50-51 STOP;
// 52-53 DRAW.
inline constexpr int kNumCards = 54;
inline constexpr int kNumNumberCards = 48;
inline constexpr Card kFirstX = 48;
inline constexpr Card kFirstStop = 50;
inline constexpr Card kFirstDraw = 52;
inline constexpr Card kNoCard = 0xFF;  // an empty slot
inline constexpr int kMinValue = 1;
inline constexpr int kMaxValue = 12;

enum class CardKind : uint8_t { kNumber, kX, kStop, kDraw };

constexpr CardKind KindOf(Card c) {
  return c < kFirstX      ? CardKind::kNumber
         : c < kFirstStop ? CardKind::kX
         : c < kFirstDraw ? CardKind::kStop
                          : CardKind::kDraw;
}
// 1..12 for a number card, 0 for any other card.
constexpr int ValueOf(Card c) { return c < kFirstX ? c / 4 + 1 : 0; }
// The id of copy `copy` (0..3) of number value `value` (1..12).
constexpr Card NumberCard(int value, int copy = 0) {
  return static_cast<Card>((value - 1) * 4 + copy);
}

// "7", "X", "STOP", "DRAW" (values only: copies are interchangeable).
std::string CardName(Card c);

// KK-3.5 type rank: SOLO 1 < RUN2 2 < PAIR 3 < RUN3 4 < TRIPS 5.
enum class ComboType : uint8_t {
  kNone = 0,
  kSolo = 1,
  kRun2 = 2,
  kPair = 3,
  kRun3 = 4,
  kTrips = 5,
};

// A combination's strength packed in one byte: rank * 16 + key, so that
// "A beats B" (KK-3.5) is plain `>` and 0 means "no combination / no target".
using Strength = uint8_t;
inline constexpr Strength kNoStrength = 0;

constexpr Strength MakeStrength(ComboType type, int key) {
  return static_cast<Strength>(static_cast<int>(type) * 16 + key);
}
constexpr ComboType TypeOf(Strength s) { return static_cast<ComboType>(s >> 4); }
constexpr int KeyOf(Strength s) { return s & 15; }
// KK-3.5: rank first, then key; equal strength does not beat.
constexpr bool Beats(Strength a, Strength b) { return a > b; }

// KK-3.1/3.2: the combination formed by k = 1..3 values (1..12, X already
// replaced by its declared value), in any order; kNoStrength if none.
// Inline: it is the inner loop of legal-action generation.
inline Strength Classify(const int* values, int k) {
  if (k == 1) return MakeStrength(ComboType::kSolo, values[0]);
  if (k == 2) {
    const int a = values[0], b = values[1];
    if (a == b) return MakeStrength(ComboType::kPair, a);
    // KK-3.2: no wrap-around, so consecutive means |a - b| == 1.
    if (a - b == 1) return MakeStrength(ComboType::kRun2, a);
    if (b - a == 1) return MakeStrength(ComboType::kRun2, b);
    return kNoStrength;
  }
  if (k != 3) return kNoStrength;
  int lo = values[0], mid = values[1], hi = values[2];
  if (lo > mid) std::swap(lo, mid);
  if (mid > hi) std::swap(mid, hi);
  if (lo > mid) std::swap(lo, mid);
  if (lo == hi) return MakeStrength(ComboType::kTrips, hi);
  if (mid == lo + 1 && hi == mid + 1) return MakeStrength(ComboType::kRun3, hi);
  return kNoStrength;
}

// "SOLO 8", "RUN2 5-6", "PAIR 7", "RUN3 8-9-10", "TRIPS 11"; "none".
std::string StrengthName(Strength s);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_CARDS_H_
