// Craits actions (CR-16): the uint32 encoding the engine uses, a typed view
// of it, and the text notation (docs/notation.md, "## Craits").
//
// Bit layout of a Craits Action:
//   bit  0       announce (PLAY only; CR-10.1)
//   bits 1..3    suit code: 0 = none, 1 + suit (C=1 D=2 H=3 S=4); the named
//                suit of a PLAY of an 8 or 9, or the suit of a NAME_SUIT
//   bits 4..9    card id 0..51 (PLAY only)
//   bits 10..12  target seat 0..4 (CALL_FOOL only)
//   bits 13..14  type: 0 PLAY, 1 DRAW, 2 CALL_FOOL, 3 NAME_SUIT
//   bits 15..31  zero
// Fields a type does not use are zero, so every move has exactly one Action,
// and ascending Action order is: PLAYs by (card, suit, announce), DRAW,
// CALL_FOOL, NAME_SUIT by suit.
//
// Example: PLAY 8S (id 46) naming H, announce = 0b00'000'101110'011'1 = 743.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_ACTION_H_
#define CARDREF_GAMES_CRAITS_CRAITS_ACTION_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"

namespace cardref::craits {

inline constexpr int kAnnounceShift = 0;
inline constexpr int kSuitShift = 1;
inline constexpr int kCardShift = 4;
inline constexpr int kTargetShift = 10;
inline constexpr int kTypeShift = 13;

inline constexpr Action kAnnounceBit = Action{1} << kAnnounceShift;
inline constexpr Action kSuitField = Action{7} << kSuitShift;
inline constexpr Action kCardField = Action{63} << kCardShift;
inline constexpr Action kTargetField = Action{7} << kTargetShift;
inline constexpr Action kTypeField = Action{3} << kTypeShift;

inline constexpr Action kTypePlay = Action{0} << kTypeShift;
inline constexpr Action kTypeDraw = Action{1} << kTypeShift;
inline constexpr Action kTypeCallFool = Action{2} << kTypeShift;
inline constexpr Action kTypeNameSuit = Action{3} << kTypeShift;

// The one DRAW action.
inline constexpr Action kDrawAction = kTypeDraw;

// Raw constructors; arguments are assumed in range (suit -1 = none).
constexpr Action EncodePlay(Card card, int suit, bool announce) {
  return kTypePlay | (Action{card} << kCardShift) |
         (static_cast<Action>(suit + 1) << kSuitShift) |
         (announce ? kAnnounceBit : 0);
}
constexpr Action EncodeCallFool(int target) {
  return kTypeCallFool | (static_cast<Action>(target) << kTargetShift);
}
constexpr Action EncodeNameSuit(int suit) {
  return kTypeNameSuit | (static_cast<Action>(suit + 1) << kSuitShift);
}

// Field accessors for an Action already known to be well formed.
constexpr Action ActionType(Action a) { return a & kTypeField; }
constexpr Card ActionCard(Action a) {
  return static_cast<Card>((a & kCardField) >> kCardShift);
}
constexpr int ActionSuit(Action a) {  // -1 = none
  return static_cast<int>((a & kSuitField) >> kSuitShift) - 1;
}
constexpr bool ActionAnnounce(Action a) { return (a & kAnnounceBit) != 0; }
constexpr int ActionTarget(Action a) {
  return static_cast<int>((a & kTargetField) >> kTargetShift);
}

// The typed form of an action.
struct CraitsMove {
  enum class Type { kPlay, kDraw, kCallFool, kNameSuit };

  Type type = Type::kDraw;
  Card card = 0;          // kPlay
  int suit = -1;          // kPlay of an 8 or 9, kNameSuit; -1 = none
  bool announce = false;  // kPlay
  int target = -1;        // kCallFool

  static CraitsMove Play(Card card, int suit = -1, bool announce = false);
  static CraitsMove Draw();
  static CraitsMove CallFool(int target);
  static CraitsMove NameSuit(int suit);

  // Precondition: fields in range (see the bit layout).
  Action Encode() const;
  // INVALID_ARGUMENT (naming CR-16) unless `action` follows the bit layout:
  // known type, card < 52, suit code <= 4, target < 5, unused fields zero.
  // Says nothing about legality in a position.
  static absl::StatusOr<CraitsMove> Decode(Action action);

  bool operator==(const CraitsMove& o) const {
    return type == o.type && card == o.card && suit == o.suit &&
           announce == o.announce && target == o.target;
  }
};

// Notation (docs/notation.md): "play 7H", "play KH!" (announce),
// "play 8S:H" (8 naming hearts), "play 9D:H!", "draw", "fool 2"
// (CALL_FOOL on seat 2), "suit H" (NAME_SUIT). Keywords and cards are
// case-insensitive on input; output is exactly the forms above.
// Malformed actions print as "invalid(0x...)".
std::string CraitsActionToString(Action action);
absl::StatusOr<Action> ParseCraitsAction(absl::string_view text);

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_ACTION_H_
