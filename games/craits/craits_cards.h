// Craits cards (CR-0.1, CR-0.2): canonical ids, card sets as 64-bit masks,
// and the two-character text form ("TH" = ten of hearts).
//
// id = 13 * suit + rank, suits C D H S = 0..3, ranks A 2 3 .. T J Q K = 0..12.
// A set of cards is a CardMask with bit `id` set for each member, so hands,
// "playable" filters and counts are a few machine instructions.
#ifndef CARDREF_GAMES_CRAITS_CRAITS_CARDS_H_
#define CARDREF_GAMES_CRAITS_CRAITS_CARDS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"

namespace cardref::craits {

using CardMask = uint64_t;

inline constexpr int kNumCards = 52;
inline constexpr int kNumSuits = 4;
inline constexpr int kNumRanks = 13;
inline constexpr CardMask kFullDeck = (CardMask{1} << kNumCards) - 1;

// Suits (CR-0.1 order).
inline constexpr int kClubs = 0;
inline constexpr int kDiamonds = 1;
inline constexpr int kHearts = 2;
inline constexpr int kSpades = 3;

// Rank indices (CR-0.1: A0, 2->1, ..., K12).
inline constexpr int kAce = 0;
inline constexpr int kTwo = 1;
inline constexpr int kThree = 2;
inline constexpr int kFour = 3;
inline constexpr int kFive = 4;
inline constexpr int kSix = 5;
inline constexpr int kSeven = 6;
inline constexpr int kEight = 7;
inline constexpr int kNine = 8;
inline constexpr int kTen = 9;
inline constexpr int kJack = 10;
inline constexpr int kQueen = 11;
inline constexpr int kKing = 12;

constexpr int SuitOf(Card c) { return c / kNumRanks; }
constexpr int RankOf(Card c) { return c % kNumRanks; }
constexpr Card MakeCard(int suit, int rank) {
  return static_cast<Card>(kNumRanks * suit + rank);
}
// CR-0.2: C<->S, D<->H.
constexpr int PartnerSuit(int suit) { return 3 - suit; }

constexpr CardMask Bit(Card c) { return CardMask{1} << c; }
constexpr CardMask SuitMask(int suit) {
  return CardMask{0x1fff} << (kNumRanks * suit);
}
constexpr CardMask RankMask(int rank) {
  return (Bit(0) | Bit(13) | Bit(26) | Bit(39)) << rank;
}

inline int CountCards(CardMask m) { return __builtin_popcountll(m); }
// Cheaper than CountCards(m) == 2 where popcount is a library call.
constexpr bool HasExactlyTwo(CardMask m) {
  const CardMask rest = m & (m - 1);
  return rest != 0 && (rest & (rest - 1)) == 0;
}
// Precondition: m != 0.
inline Card LowestCard(CardMask m) {
  return static_cast<Card>(__builtin_ctzll(m));
}

// 'C', 'D', 'H', 'S'; '?' outside 0..3.
char SuitLetter(int suit);
// -1 unless `letter` is one of C D H S (either case).
int ParseSuitLetter(char letter);
// "TH"; "??" for an id outside 0..51.
std::string CardToString(Card c);
// "TH", "th", "10h" are all the ten of hearts.
absl::StatusOr<Card> ParseCard(absl::string_view text);
// "{2H, 7C}" in ascending id order.
std::string CardsToString(CardMask cards);

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_CARDS_H_
