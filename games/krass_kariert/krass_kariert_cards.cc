#include "games/krass_kariert/krass_kariert_cards.h"

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
