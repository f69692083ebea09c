#include "games/krass_kariert/krass_kariert_scoring.h"

namespace cardref::krass_kariert {

ChipLossResult ApplyChipLoss(const std::array<int, kMaxSeats>& chips,
                             SeatMask charged) {
  ChipLossResult r;
  r.chips = chips;
  for (int s = 0; s < kMaxSeats; ++s) {
    if (!HasSeat(charged, s)) continue;
    if (r.chips[s] > 0) {
      --r.chips[s];
    } else {
      r.eliminated |= SeatBit(s);
    }
  }
  return r;
}

int NextRoundLeader(SeatMask charged) {
  return CountSeats(charged) == 1 ? FirstSeat(charged) : 0;
}

GameOutcome MakeOutcome(const std::array<int, kMaxSeats>& chips,
                        int num_players, SeatMask eliminated) {
  GameOutcome out;
  const int num_winners = num_players - CountSeats(eliminated);
  for (int s = 0; s < num_players; ++s) {
    out.scores.push_back(chips[s]);
    const bool lost = HasSeat(eliminated, s);
    out.ranks.push_back(lost ? 1 + num_winners : 1);
    if (!lost) out.winners.push_back(s);
  }
  out.higher_score_is_better = true;
  return out;
}

}  // namespace cardref::krass_kariert
