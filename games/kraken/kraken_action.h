// Kraken cards and actions: ids, the Action bit fields, and the typed form.
//
// Cards (spec "Conventions"): id = 8*suit + rank, suits C D H S = 0..3,
// ranks 7 8 9 T J Q K A = 0..7 (7C = 0, AS = 31). A set of cards is a
// CardMask with bit `id` set.
//
// Action bit fields (uint32). The kind sits in the high bits so that actions
// group by kind and, within a kind, order by payload:
//
//   bits 27..30  kind (ActionKind, 1..9)
//   CHOOSE_TRUMP   bits 0..1   suit
//   PLAY           bit  0      declare_stuk
//                  bits 1..5   card id
//   CLAIM_BONUS    bits 0..2   Bonus (1..7)
//   DECLARE        bits 0..4   fours: bit 0 FOUR_JACKS, bits 1..4 FOUR of
//                              tens, queens, kings, aces
//                  bits 5..13  run A, bits 14..22 run B; each 9-bit run is
//                              bit 0 present, bits 1..2 suit,
//                              bits 3..5 start rank, bits 6..8 length - 3
//   PASS_TRUMP, ACCEPT_TRUMP, CHALLENGE, PASS_CHALLENGE, DECLINE_BONUS: no
//                  payload (all other bits zero).
//
// A DECLARE value is state-independent and canonical: an 8-card hand holds
// at most two (disjoint, maximal) runs, so two run slots suffice; run B is
// present only with run A, and A precedes B in KR-8.3 order (first card id,
// then length). Any other bit pattern is malformed and Decode rejects it.
// Every encodable combination has the shape of its kind; whether the hand
// holds it (and whether a run is maximal) is the state's check (KR-8.3).
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_ACTION_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_ACTION_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"

namespace cardref::kraken {

inline constexpr int kNumSeats = 4;
inline constexpr int kNumCards = 32;
inline constexpr int kNumSuits = 4;
inline constexpr int kNumRanks = 8;
inline constexpr int kNumTricks = 8;

inline constexpr int kClubs = 0;
inline constexpr int kDiamonds = 1;
inline constexpr int kHearts = 2;
inline constexpr int kSpades = 3;

inline constexpr int kSeven = 0;
inline constexpr int kEight = 1;
inline constexpr int kNine = 2;
inline constexpr int kTen = 3;
inline constexpr int kJack = 4;
inline constexpr int kQueen = 5;
inline constexpr int kKing = 6;
inline constexpr int kAce = 7;

using CardMask = uint32_t;

constexpr int SuitOf(Card c) { return c >> 3; }
constexpr int RankOf(Card c) { return c & 7; }
constexpr Card MakeCard(int suit, int rank) {
  return static_cast<Card>(8 * suit + rank);
}
constexpr CardMask CardBit(Card c) { return CardMask{1} << c; }
constexpr CardMask SuitCards(int suit) { return CardMask{0xFF} << (8 * suit); }
// The four cards of one rank.
constexpr CardMask RankCards(int rank) { return CardMask{0x01010101} << rank; }
inline int CountCards(CardMask m) { return __builtin_popcount(m); }

// "7C" .. "AS"; "??" for an id out of range.
std::string CardName(Card c);
char SuitLetter(int suit);
// Parses "7C".."AS" (rank and suit letters, either case; "10" accepted for T).
[[nodiscard]] absl::StatusOr<Card> ParseCard(absl::string_view text);
// Parses "C", "D", "H" or "S".
[[nodiscard]] absl::StatusOr<int> ParseSuit(absl::string_view text);
// Cards of `m` by ascending id, space separated ("8C QC 7D").
std::string CardsToString(CardMask m);

enum class ActionKind : uint8_t {
  kChooseTrump = 1,
  kPassTrump = 2,
  kAcceptTrump = 3,
  kChallenge = 4,
  kPassChallenge = 5,
  kDeclare = 6,
  kPlay = 7,
  kClaimBonus = 8,
  kDeclineBonus = 9,
};
// "CHOOSE_TRUMP", ... as in the spec and the conformance files.
absl::string_view ActionKindName(ActionKind kind);

// Hand combinations (KR-8.2), in canonical order.
enum class ComboKind : uint8_t { kFourJacks = 0, kFour = 1, kRun = 2 };
absl::string_view ComboKindName(ComboKind kind);  // "FOUR_JACKS", "FOUR", "RUN"

// Trick bonus types (KR-12.1), numbered in the spec's table order.
enum class Bonus : uint8_t {
  kNone = 0,
  kRun3 = 1,
  kRun4 = 2,
  kTrumpRun3Stuk = 3,
  kTrumpRun4Stuk = 4,
  kFourOfAKind = 5,
  kFourJacks = 6,
  kStuk = 7,
};
inline constexpr int kNumBonusTypes = 8;   // kNone included
absl::string_view BonusName(Bonus bonus);  // "RUN3", ...; "NONE" for kNone
[[nodiscard]] absl::StatusOr<Bonus> ParseBonus(absl::string_view name);
// KR-12.1 values; 0 for kNone.
int BonusValue(Bonus bonus);

struct Combo {
  ComboKind kind = ComboKind::kRun;
  CardMask cards = 0;
  bool operator==(const Combo& o) const {
    return kind == o.kind && cards == o.cards;
  }
};
// KR-8.2 value of a well-formed combination.
int ComboValue(const Combo& combo);

// A declaration: a set of combinations (KR-8.3). Encode sorts it.
inline constexpr int kMaxCombos = 7;  // FOUR_JACKS + 4 FOURs + 2 runs
struct Declaration {
  int size = 0;
  std::array<Combo, kMaxCombos> combos{};
  void Add(Combo c) { combos[size++] = c; }
  bool operator==(const Declaration& o) const;
};

struct KrakenAction {
  ActionKind kind = ActionKind::kPassTrump;
  int suit = 0;                // kChooseTrump
  Card card = 0;               // kPlay
  bool declare_stuk = false;   // kPlay
  Bonus bonus = Bonus::kNone;  // kClaimBonus
  Declaration declaration;     // kDeclare (canonical after Decode)
  bool operator==(const KrakenAction& o) const;
};

// Fails (naming KR-8.2 / KR-8.3 / KR-17.3) for anything the bit fields
// cannot express: a suit, card or bonus out of range, a FOUR of ranks other
// than T Q K A, FOUR_JACKS without the four jacks, a run that is not 3-8
// consecutive cards of one suit, a combination named twice, more than two
// runs. Combination order in the input does not matter.
[[nodiscard]] absl::StatusOr<Action> Encode(const KrakenAction& action);
// Fails (KR-17.3) for a value that is not a well-formed canonical action.
[[nodiscard]] absl::StatusOr<KrakenAction> Decode(Action action);

// Field access and infallible builders for the hot paths.
inline constexpr int kKindShift = 27;
constexpr ActionKind KindOf(Action a) {
  return static_cast<ActionKind>(a >> kKindShift);
}
constexpr uint32_t PayloadOf(Action a) {
  return a & ((uint32_t{1} << kKindShift) - 1);
}
constexpr Action MakeAction(ActionKind kind, uint32_t payload = 0) {
  return (static_cast<uint32_t>(kind) << kKindShift) | payload;
}
constexpr Action ChooseTrumpAction(int suit) {
  return MakeAction(ActionKind::kChooseTrump, static_cast<uint32_t>(suit));
}
constexpr Action PassTrumpAction() {
  return MakeAction(ActionKind::kPassTrump);
}
constexpr Action AcceptTrumpAction() {
  return MakeAction(ActionKind::kAcceptTrump);
}
constexpr Action ChallengeAction() {
  return MakeAction(ActionKind::kChallenge);
}
constexpr Action PassChallengeAction() {
  return MakeAction(ActionKind::kPassChallenge);
}
constexpr Action DeclareAction(uint32_t declare_payload) {
  return MakeAction(ActionKind::kDeclare, declare_payload);
}
constexpr Action PlayAction(Card card, bool declare_stuk) {
  return MakeAction(ActionKind::kPlay, (static_cast<uint32_t>(card) << 1) |
                                           (declare_stuk ? 1 : 0));
}
constexpr Action ClaimBonusAction(Bonus bonus) {
  return MakeAction(ActionKind::kClaimBonus, static_cast<uint32_t>(bonus));
}
constexpr Action DeclineBonusAction() {
  return MakeAction(ActionKind::kDeclineBonus);
}
constexpr Card PlayedCard(Action a) { return static_cast<Card>((a >> 1) & 31); }
constexpr bool PlayStuk(Action a) { return (a & 1) != 0; }
constexpr int ChosenSuit(Action a) { return static_cast<int>(a & 3); }
constexpr Bonus ClaimedBonus(Action a) { return static_cast<Bonus>(a & 7); }

// --- DECLARE payload (bits 0..22 of a DECLARE action) ----------------------
// Bits 0..4: which fours; FourBit(rank) for T Q K A, bit 0 for the jacks.
inline constexpr uint32_t kFourJacksBit = 1;
// Bit of the FOUR of `rank` (kTen, kQueen, kKing, kAce); 0 for other ranks.
constexpr uint32_t FourBit(int rank) {
  return rank == kTen     ? 2u
         : rank == kQueen ? 4u
         : rank == kKing  ? 8u
         : rank == kAce   ? 16u
                          : 0u;
}
inline constexpr int kRunAShift = 5;
inline constexpr int kRunBShift = 14;
// A 9-bit run field; precondition: 3 <= length, start + length <= 8.
constexpr uint32_t RunField(int suit, int start, int length) {
  return 1u | (static_cast<uint32_t>(suit) << 1) |
         (static_cast<uint32_t>(start) << 3) |
         (static_cast<uint32_t>(length - 3) << 6);
}
// The cards of a run field (0 when absent).
CardMask RunFieldCards(uint32_t field);
// KR-8.2 values summed over a (well-formed) payload, and its best single
// combination.
int DeclarationPoints(uint32_t payload);
int DeclarationBestCombo(uint32_t payload);
// Canonical payload of a set of combinations; same checks as Encode.
[[nodiscard]] absl::StatusOr<uint32_t> EncodeDeclaration(
    const Declaration& declaration);
Declaration DecodeDeclaration(uint32_t payload);  // payload well-formed

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_ACTION_H_
