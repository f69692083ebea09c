#include "games/krass_kariert/krass_kariert_action.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/base/rule_error.h"
#include "games/krass_kariert/krass_kariert_cards.h"

namespace cardref::krass_kariert {

KrassKariertAction KrassKariertAction::Play(int start, int count,
                                            std::initializer_list<int> xs) {
  KrassKariertAction a;
  a.type = ActionType::kPlay;
  a.start = start;
  a.count = count;
  for (int x : xs) {
    if (a.num_x_values < kMaxXValues) a.x_values[a.num_x_values] = x;
    ++a.num_x_values;  // more than two is caught by EncodeAction's callers
  }
  return a;
}

KrassKariertAction KrassKariertAction::TakeReserve(int slot, int position) {
  KrassKariertAction a;
  a.type = ActionType::kTakeReserve;
  a.slot = slot;
  a.position = position;
  return a;
}

KrassKariertAction KrassKariertAction::PlaceDrawn(int position) {
  KrassKariertAction a;
  a.type = ActionType::kPlaceDrawn;
  a.position = position;
  return a;
}

bool KrassKariertAction::operator==(const KrassKariertAction& o) const {
  if (type != o.type) return false;
  switch (type) {
    case ActionType::kPlay:
      return start == o.start && count == o.count &&
             num_x_values == o.num_x_values &&
             (num_x_values < 1 || x_values[0] == o.x_values[0]) &&
             (num_x_values < 2 || x_values[1] == o.x_values[1]);
    case ActionType::kTakeReserve:
      return slot == o.slot && position == o.position;
    case ActionType::kPlaceDrawn:
      return position == o.position;
  }
  return false;
}

Action EncodeAction(const KrassKariertAction& a) {
  switch (a.type) {
    case ActionType::kPlay:
      return EncodePlay(a.start, a.count,
                        a.num_x_values >= 1 ? a.x_values[0] : 0,
                        a.num_x_values >= 2 ? a.x_values[1] : 0);
    case ActionType::kTakeReserve:
      return EncodeTakeReserve(a.slot, a.position);
    case ActionType::kPlaceDrawn:
      return EncodePlaceDrawn(a.position);
  }
  return 0;
}

absl::StatusOr<KrassKariertAction> DecodeAction(Action action) {
  const Action type = action >> kTypeShift;
  switch (type) {
    case 0: {
      if (action & 0x0FE0CF00u) {
        return IllegalAction("KK-16.1", "malformed PLAY action 0x",
                             absl::Hex(action));
      }
      KrassKariertAction a;
      a.type = ActionType::kPlay;
      a.start = (action >> kStartShift) & 31;
      a.count = (action >> kCountShift) & 3;
      const int x0 = (action >> kX0Shift) & 15;
      const int x1 = action & 15;
      if (a.count < 1) {
        return IllegalAction("KK-16.1",
                             "a PLAY needs 1 to 3 positions, got none");
      }
      if (x0 > kMaxValue || x1 > kMaxValue || (x0 == 0 && x1 != 0)) {
        return IllegalAction("KK-3.3", "declared X values must be 1..12");
      }
      a.num_x_values = (x0 != 0) + (x1 != 0);
      a.x_values = {x0, x1};
      return a;
    }
    case 1:
      if (action & 0x0FFFFEE0u) {
        return IllegalAction("KK-16.2", "malformed TAKE_RESERVE action 0x",
                             absl::Hex(action));
      }
      return KrassKariertAction::TakeReserve((action >> kSlotShift) & 1,
                                             action & 31);
    case 2:
      if (action & 0x0FFFFFE0u) {
        return IllegalAction("KK-16.3", "malformed PLACE_DRAWN action 0x",
                             absl::Hex(action));
      }
      return KrassKariertAction::PlaceDrawn(action & 31);
    default:
      return IllegalAction("KK-16.4", "unknown action type ", type,
                           " (expected PLAY, TAKE_RESERVE or PLACE_DRAWN)");
  }
}

absl::StatusOr<KrassKariertAction> PlayFromPositions(
    absl::Span<const int> positions, absl::Span<const int> x_values) {
  if (positions.empty() || positions.size() > 3) {
    return IllegalAction("KK-16.1", "a PLAY names 1 to 3 positions, got ",
                         positions.size());
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    // Only the start is encoded; the rest follows from contiguity.
    if (positions[i] < 0 || (i == 0 && positions[i] > kMaxEncodedPosition)) {
      return IllegalAction("KK-16.1", "position ", positions[i],
                           " is not a hand position");
    }
    if (i > 0 && positions[i] != positions[i - 1] + 1) {
      return IllegalAction("KK-16.1", "positions ",
                           absl::StrJoin(positions, ","),
                           " are not contiguous (expected ascending i..i+k-1)");
    }
  }
  if (x_values.size() > kMaxXValues) {
    return IllegalAction("KK-3.3", "at most two X values can be declared, got ",
                         x_values.size());
  }
  for (int x : x_values) {
    if (x < kMinValue || x > kMaxValue) {
      return IllegalAction("KK-3.3", "declared X value ", x,
                           " is outside 1..12");
    }
  }
  KrassKariertAction a;
  a.type = ActionType::kPlay;
  a.start = positions[0];
  a.count = static_cast<int>(positions.size());
  a.num_x_values = static_cast<int>(x_values.size());
  for (size_t i = 0; i < x_values.size(); ++i) a.x_values[i] = x_values[i];
  return a;
}

}  // namespace cardref::krass_kariert
