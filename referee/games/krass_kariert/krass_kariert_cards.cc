#include "referee/games/krass_kariert/krass_kariert_cards.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::krass_kariert {

std::string CardName(Card c) {
  switch (KindOf(c)) {
    case CardKind::kNumber:
      return absl::StrCat(ValueOf(c));
    case CardKind::kX:
      return "X";
    case CardKind::kStop:
      return "STOP";
    case CardKind::kDraw:
      return "DRAW";
  }
  return "?";
}

Strength Classify(const int* values, int k) {
  switch (k) {
    case 1:
      return MakeStrength(ComboType::kSolo, values[0]);
    case 2: {
      const int a = values[0], b = values[1];
      if (a == b) return MakeStrength(ComboType::kPair, a);
      // KK-3.2: values are 1..12 with no wrap-around, so |a-b| == 1 is it.
      if (a - b == 1 || b - a == 1) {
        return MakeStrength(ComboType::kRun2, a > b ? a : b);
      }
      return kNoStrength;
    }
    case 3: {
      int lo = values[0], mid = values[1], hi = values[2];
      if (lo > mid) std::swap(lo, mid);
      if (mid > hi) std::swap(mid, hi);
      if (lo > mid) std::swap(lo, mid);
      if (lo == hi) return MakeStrength(ComboType::kTrips, hi);
      if (mid == lo + 1 && hi == mid + 1) {
        return MakeStrength(ComboType::kRun3, hi);
      }
      return kNoStrength;
    }
    default:
      return kNoStrength;
  }
}

std::string StrengthName(Strength s) {
  const int key = KeyOf(s);
  switch (TypeOf(s)) {
    case ComboType::kNone:
      return "none";
    case ComboType::kSolo:
      return absl::StrCat("SOLO ", key);
    case ComboType::kRun2:
      return absl::StrCat("RUN2 ", key - 1, "-", key);
    case ComboType::kPair:
      return absl::StrCat("PAIR ", key);
    case ComboType::kRun3:
      return absl::StrCat("RUN3 ", key - 2, "-", key - 1, "-", key);
    case ComboType::kTrips:
      return absl::StrCat("TRIPS ", key);
  }
  return "?";
}

}  // namespace cardref::krass_kariert
