// Krass Kariert chip accounting (KK-11.3, KK-12.2, KK-13) as pure functions
// over seat bitmasks, so the analyzer can recompute results from a log
// without a State.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_SCORING_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_SCORING_H_

#include <array>
#include <cstdint>

#include "games/api/game.h"

namespace cardref::krass_kariert {

using SeatMask = uint8_t;  // bit s = seat s

constexpr SeatMask SeatBit(int seat) { return static_cast<SeatMask>(1u << seat); }
constexpr bool HasSeat(SeatMask mask, int seat) { return (mask >> seat) & 1; }
constexpr int CountSeats(SeatMask mask) {
  int n = 0;
  for (; mask; mask &= mask - 1) ++n;
  return n;
}
// Lowest seat of a non-empty mask.
constexpr int FirstSeat(SeatMask mask) {
  int s = 0;
  while (!(mask & 1)) mask >>= 1, ++s;
  return s;
}

struct ChipLossResult {
  std::array<int, kMaxSeats> chips = {};  // after the event
  // KK-13.1: charged seats holding no chip; non-empty ends the game.
  SeatMask eliminated = 0;
  bool game_over() const { return eliminated != 0; }
};

// One chip-loss event (KK-11.1 or KK-11.2) charging every seat in `charged`:
// a seat with a chip returns one (KK-11.3); a seat without one is eliminated,
// which ends the game (KK-13.1) while the other charged seats still pay
// (KK-13.2).
ChipLossResult ApplyChipLoss(const std::array<int, kMaxSeats>& chips,
                             SeatMask charged);

// KK-12.2: the first leader of the round after a chip loss charging
// `charged` (non-empty): the single charged seat, else seat 0 (the dealer).
int NextRoundLeader(SeatMask charged);

// KK-13: scores = chips; winners = every seat not eliminated (ascending);
// ranks: winners 1, eliminated seats 1 + number of winners.
GameOutcome MakeOutcome(const std::array<int, kMaxSeats>& chips,
                        int num_players, SeatMask eliminated);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_SCORING_H_
