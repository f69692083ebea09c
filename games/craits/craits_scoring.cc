#include "games/craits/craits_scoring.h"

#include <algorithm>
#include <functional>

namespace cardref::craits {

int RoundScore(CardMask hand, SurplusThrees surplus) {
  const int threes = CountCards(hand & RankMask(kThree));
  int others[kNumCards];
  int n = 0;
  for (CardMask m = hand & ~RankMask(kThree); m != 0; m &= m - 1) {
    others[n++] = kCardPoints[RankOf(LowestCard(m))];
  }
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += others[i];
  if (threes == 0) return sum;
  if (n == 0) return -50 * threes;  // only 3s left
  std::sort(others, others + n, std::greater<int>());
  const int cancelled = std::min(threes, n);  // highest first (CR-13.3)
  const int left_over = threes - cancelled;
  if (left_over == 0) {
    for (int i = 0; i < cancelled; ++i) sum -= others[i];
    return sum;
  }
  return surplus == SurplusThrees::kMinus50 ? -50 * left_over : 0;
}

int RoundScore(absl::Span<const Card> hand, SurplusThrees surplus) {
  CardMask m = 0;
  for (Card c : hand) m |= Bit(c);
  return RoundScore(m, surplus);
}

}  // namespace cardref::craits
