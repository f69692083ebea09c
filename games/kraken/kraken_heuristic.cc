#include "games/kraken/kraken_entry_points.h"

#include "cardref/v1/game.pb.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "bots/best.h"
#include "cardref/v1/kraken.pb.h"

namespace cardref::kraken {
namespace {

using bots::Best;

// Ids 8*suit + rank, rank 7=0 8=1 9=2 T=3 J=4 Q=5 K=6 A=7.
constexpr int kPlainOrder[8] = {0, 1, 2, 6, 3, 4, 5, 7};  // 7 8 9 T J Q K A
constexpr int kTrumpOrder[8] = {0, 1, 6, 4, 7, 2, 3, 5};  // 7 8 Q K T A 9 J
constexpr int kPlainPoints[8] = {0, 0, 0, 10, 2, 3, 4, 11};
constexpr int kTrumpPoints[8] = {0, 0, 14, 10, 20, 3, 4, 11};

int CardFromText(absl::string_view text) {
  // "play KH" or "play KH+stuk"
  if (text.size() < 7) return -1;
  const size_t rank = std::string("789TJQKA").find(text[5]);
  const size_t suit = std::string("CDHS").find(text[6]);
  if (rank == std::string::npos || suit == std::string::npos) return -1;
  return static_cast<int>(suit * 8 + rank);
}

// How strongly `card` holds a trick led in `led` (-1: it cannot win).
int Strength(int card, int trump, int led) {
  if (card / 8 == trump) return 100 + kTrumpOrder[card % 8];
  if (card / 8 == led) return kPlainOrder[card % 8];
  return -1;
}

int Points(int card, int trump) {
  return card / 8 == trump ? kTrumpPoints[card % 8] : kPlainPoints[card % 8];
}

// Lead the strongest plain card; when the partner holds the trick, give
// it points; otherwise win as cheaply as possible, or throw the least.
int Play(const v1::Observation& obs, const v1::KrakenObservation& view) {
  const int trump = view.trump() - 1;  // Suit enum: SUIT_CLUBS = 1
  const v1::KrakenTrick& trick = view.current_trick();
  int winner_seat = -1;
  int winner_strength = -1;
  int led = -1;
  if (trick.cards_size() > 0 && trick.cards_size() < 4) {
    led = static_cast<int>(trick.cards(0).card()) / 8;
    for (const auto& played : trick.cards()) {
      const int s = Strength(static_cast<int>(played.card()), trump, led);
      if (s > winner_strength) {
        winner_strength = s;
        winner_seat = played.seat();
      }
    }
  }
  const bool partner_winning = winner_seat == view.partner();
  return Best(obs, [&](absl::string_view text) -> double {
    const int card = CardFromText(text);
    if (card < 0) return -1e9;
    const double stuk = absl::EndsWith(text, "+stuk") ? 1000 : 0;
    const int points = Points(card, trump);
    const bool is_trump = card / 8 == trump;
    if (led < 0) {  // leading
      return stuk + (is_trump ? -50 - kTrumpOrder[card % 8]
                              : kPlainOrder[card % 8] * 10 + points);
    }
    if (partner_winning) return stuk + points - (is_trump ? 30 : 0);
    const int s = Strength(card, trump, led);
    if (s > winner_strength) return stuk + 500 - s;  // the cheapest winner
    return stuk - points;
  });
}

int Choose(const v1::Observation& obs) {
  const v1::KrakenObservation& view = obs.kraken();
  const std::string& first = obs.legal_actions(0).notation();
  if (absl::StartsWith(first, "play ")) return Play(obs, view);
  int suit_strength[4] = {0, 0, 0, 0};
  for (uint32_t card : view.hand()) {
    suit_strength[(card / 8) % 4] += 1 + kTrumpPoints[card % 8] / 5;
  }
  return Best(obs, [&](absl::string_view text) -> double {
    if (absl::StartsWith(text, "claim")) return 100;  // valid by construction
    if (text == "decline") return -100;
    if (text == "pass-challenge") return 10;  // no doubling gambles
    if (text == "challenge") return -10;
    if (absl::StartsWith(text, "declare")) return text.size();  // the most
    if (absl::StartsWith(text, "trump ") && text.size() >= 7) {
      const size_t s = std::string("CDHS").find(text[6]);
      return s < 4 ? suit_strength[s] : 0;
    }
    if (text == "accept") {
      const int proposed = view.proposed_suit() - 1;
      return proposed >= 0 && proposed < 4 && suit_strength[proposed] >= 8 ? 20
                                                                           : 0;
    }
    return 1;  // pass
  });
}

}  // namespace

int HeuristicChoice(const v1::Observation& obs) {
  return Choose(obs);
}

}  // namespace cardref::kraken
