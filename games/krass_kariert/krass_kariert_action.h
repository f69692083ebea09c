// Krass Kariert actions (KK-16) as 32-bit Action values.
//
// Bit fields (all other bits are zero; DecodeAction rejects anything else):
//
//   bits 28-29  type: 0 = PLAY, 1 = TAKE_RESERVE, 2 = PLACE_DRAWN
//   PLAY{positions, x_values}      positions = start .. start+count-1
//     bits 16-20  start   first hand position of the block (0..31)
//     bits 12-13  count   block length k (1..3)
//     bits  4-7   x0      declared value of the block's first X (1..12), 0 = none
//     bits  0-3   x1      declared value of the second X (1..12), 0 = none
//                         (x1 != 0 requires x0 != 0; the deck has two X)
//   TAKE_RESERVE{slot, position}
//     bit   8     slot    reserve slot 0 or 1
//     bits  0-4   position insertion position 0..len(hand)
//   PLACE_DRAWN{position}
//     bits  0-4   position insertion position 0..len(hand)
//
// Example: PLAY{positions [2,3,4], x_values [7,8]} = 0x00023078;
// TAKE_RESERVE{1, 3} = 0x10000103; PLACE_DRAWN{0} = 0x20000000.
//
// The order of the values is the order of LegalActions: PLAYs by start
// position, then block length, then x values; then TAKE_RESERVE by slot and
// position; then PLACE_DRAWN by position. A contiguous block is implied by
// the encoding, so non-contiguous position lists are rejected when they are
// converted (PlayFromPositions), before they ever become an Action.
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ACTION_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ACTION_H_

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "games/api/game.h"

namespace cardref::krass_kariert {

enum class ActionType : uint8_t { kPlay = 0, kTakeReserve = 1, kPlaceDrawn = 2 };

inline constexpr int kMaxEncodedPosition = 31;  // 5-bit position fields
inline constexpr int kMaxXValues = 2;

inline constexpr int kTypeShift = 28;
inline constexpr int kStartShift = 16;
inline constexpr int kCountShift = 12;
inline constexpr int kX0Shift = 4;
inline constexpr int kSlotShift = 8;

// Raw encoders for the engine's hot path. Preconditions: fields in range.
constexpr Action EncodePlay(int start, int count, int x0 = 0, int x1 = 0) {
  return (static_cast<Action>(start) << kStartShift) |
         (static_cast<Action>(count) << kCountShift) |
         (static_cast<Action>(x0) << kX0Shift) | static_cast<Action>(x1);
}
constexpr Action EncodeTakeReserve(int slot, int position) {
  return (Action{1} << kTypeShift) | (static_cast<Action>(slot) << kSlotShift) |
         static_cast<Action>(position);
}
constexpr Action EncodePlaceDrawn(int position) {
  return (Action{2} << kTypeShift) | static_cast<Action>(position);
}

// The typed form of an action.
struct KrassKariertAction {
  ActionType type = ActionType::kPlay;
  // PLAY: the block start .. start+count-1 and one declared value per X in
  // the block, in position order (num_x_values of them).
  int start = 0;
  int count = 1;
  int num_x_values = 0;
  std::array<int, kMaxXValues> x_values = {0, 0};
  // TAKE_RESERVE: the slot; TAKE_RESERVE and PLACE_DRAWN: the position.
  int slot = 0;
  int position = 0;

  static KrassKariertAction Play(int start, int count,
                                 std::initializer_list<int> x_values = {});
  static KrassKariertAction TakeReserve(int slot, int position);
  static KrassKariertAction PlaceDrawn(int position);

  bool operator==(const KrassKariertAction& o) const;
  bool operator!=(const KrassKariertAction& o) const { return !(*this == o); }
};

// Precondition: every field in range (as DecodeAction would accept).
Action EncodeAction(const KrassKariertAction& action);

// INVALID_ARGUMENT naming KK-16.x for bit patterns no action has.
[[nodiscard]] absl::StatusOr<KrassKariertAction> DecodeAction(Action action);

// A PLAY from the spec's payload (KK-16.1): ascending contiguous positions,
// 1..3 of them, and at most two declared values 1..12. Errors name KK-16.1,
// e.g. "KK-16.1: positions 0,2 are not contiguous".
[[nodiscard]] absl::StatusOr<KrassKariertAction> PlayFromPositions(
    absl::Span<const int> positions, absl::Span<const int> x_values);

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ACTION_H_
