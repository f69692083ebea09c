// Kraken rules as pure functions (no state): card order and points (KR-5),
// the canonical deal (KR-4.3), legal cards under both rule sets (KR-9.5,
// KR-10, KR-11), trick bonus types (KR-12), hand combinations and the
// declaration contest (KR-8), and round scoring (KR-14). The engine, the
// analyzer and the tests all call these.
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_RULES_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_RULES_H_

#include <array>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "games/kraken/kraken_action.h"

namespace cardref::kraken {

enum class TrumpMode : uint8_t { kUtrecht, kFree, kRandom };
enum class FirstSpeaker : uint8_t { kLeftOfDealer, kDealer };
enum class AllPass : uint8_t { kSecondCard, kCallOther };
enum class RuleSet : uint8_t { kAmsterdam, kRotterdam };
enum class DealPattern : uint8_t { k323, k44 };

// Seats (spec "Conventions").
constexpr int TeamOf(int seat) { return seat & 1; }
constexpr int LeftOf(int seat) { return (seat + 1) & 3; }
constexpr int RightOf(int seat) { return (seat + 3) & 3; }
constexpr int PartnerOf(int seat) { return (seat + 2) & 3; }
// "seat 2", as rulings name a seat.
std::string SeatName(int seat);

// KR-5.2: points of a won card.
int CardPoints(Card c, int trump);
// KR-5.1: strength of `c` in a trick led with suit `led` (higher wins; 0 for
// a card neither trump nor of the led suit, which never wins).
int CardStrength(Card c, int trump, int led);
// The trumps that beat trump card `top` (KR-5.1), as a mask.
CardMask TrumpsAbove(Card top);
// KR-9.3: index (in play order) of the card currently winning a trick of
// n >= 1 cards.
int TrickWinnerIndex(absl::Span<const Card> trick, int trump);
// Sum of KR-5.2 points of the cards.
int TrickPoints(absl::Span<const Card> trick, int trump);

// legal_cards of KR-17 for the seat to play after `trick` (play order,
// 0..3 cards), `partner_winning` = the seat's partner currently wins the
// trick. Result is a subset of `hand`, non-empty when `hand` is.
CardMask LegalCards(CardMask hand, absl::Span<const Card> trick, int trump,
                    RuleSet rule_set, bool partner_winning);
// Same; who is winning is read off the trick (the partner of the seat to
// play played trick[n-2]).
CardMask LegalCards(CardMask hand, absl::Span<const Card> trick, int trump,
                    RuleSet rule_set);
// Why `card` may not be played: "KR-9.2: ..." when not held, else the
// KR-9.5b/c, KR-10.x or KR-11.1 obligation it breaks, with what was expected.
// OK if the card is legal.
absl::Status ExplainIllegalCard(CardMask hand, absl::Span<const Card> trick,
                                int trump, RuleSet rule_set, Card card);

// KR-12.2 trick_bonus of a completed trick.
Bonus TrickBonus(const std::array<Card, 4>& cards, int trump);

// KR-8.2/8.3: the combinations a hand (at most 8 cards) can declare, as
// DECLARE payloads: every valid subset, canonical, ascending. Returns the
// count (at most kMaxDeclarations; the empty declaration is always first).
inline constexpr int kMaxDeclarations = 16;
int ListDeclarations(CardMask hand,
                     std::array<uint32_t, kMaxDeclarations>& out);
// OK if the (well-formed) payload is a valid declaration from `hand`; else a
// KR-8.3 message naming the combination not held or the run not maximal.
absl::Status CheckDeclaration(CardMask hand, uint32_t payload);

// KR-8.4 contest. payloads[s] = seat s's declaration; `eldest` starts the
// KR-8.1 order. winner_seat = -1 when nothing was declared.
struct ContestResult {
  int winner_seat = -1;
  int best_value = 0;           // V
  std::array<int, 2> points{};  // per team
};
ContestResult DeclarationContest(const std::array<uint32_t, 4>& payloads,
                                 int eldest);

// KR-7.6: the burden team for `level` (0..3) and the makers' team.
constexpr int BurdenTeam(int level, int maker_team) {
  return (level == 1 || level == 3) ? 1 - maker_team : maker_team;
}

// KR-14.3..14.5 from the raw points alone (the spec's score_round).
struct RawScoring {
  std::array<int, 2> score{};
  int factor = 1;
  int burden_team = 0;
  bool success = false;
};
RawScoring ScoreFromRaw(const std::array<int, 2>& raw, int level, int trump,
                        int maker_team, bool spades_double);

// Everything KR-14 needs about a finished round.
struct RoundFacts {
  int trump = 0;
  int maker = 0;  // seat
  int level = 0;  // 0..3
  bool spades_double = true;
  int last_trick_bonus = 0;
  int pit_bonus = 0;
  std::array<std::array<Card, 4>, kNumTricks> tricks{};  // play order
  std::array<int, kNumTricks> leaders{};
  std::array<bool, kNumTricks> claimed{};  // a valid KR-12.3 claim was made
  std::array<bool, kNumSeats> stuk{};      // the seat declared stuk (KR-13)
  std::array<int, 2> declarations{};       // KR-8.4 points per team
};

// Every KR-14 component, per team.
struct RoundScore {
  std::array<int, 2> tricks_won{};
  std::array<int, 2> card_points{};   // KR-5.2 points of the won cards
  std::array<int, 2> last_trick{};    // KR-14.1 last_trick_bonus
  std::array<int, 2> trick_bonus{};   // KR-12.3 valid claims
  std::array<int, 2> stuk{};          // KR-13.3
  std::array<int, 2> declarations{};  // KR-8.4
  std::array<int, 2> pit{};           // KR-14.2 pit_bonus
  std::array<int, 2> raw{};           // KR-14.3
  int level = 0;
  int factor = 1;              // KR-14.4
  int burden_team = 0;         // KR-7.6
  bool success = false;        // KR-14.3
  std::array<int, 2> score{};  // KR-14.5
};
RoundScore ScoreRound(const RoundFacts& facts);

// KR-4.3: the hands dealt from `deck` (32 ids, index 0 on top).
std::array<CardMask, kNumSeats> DealHands(absl::Span<const Card> deck,
                                          int dealer, DealPattern pattern);
// Inverse of DealHands for tests: a deck that deals exactly `hands` (four
// disjoint 8-card masks covering the deck).
std::array<Card, kNumCards> DeckForHands(
    const std::array<CardMask, kNumSeats>& hands, int dealer,
    DealPattern pattern);

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_RULES_H_
