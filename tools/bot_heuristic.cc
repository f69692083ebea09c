#include "tools/bot_heuristic.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/craits.pb.h"
#include "cardref/v1/kraken.pb.h"
#include "cardref/v1/krass_kariert.pb.h"

namespace cardref::bot {
namespace {

// The index of the highest score (the first of equals).
template <typename Score>
int Best(const v1::Observation& obs, Score score) {
  int best = 0;
  double best_score = score(obs.legal_actions(0).notation());
  for (int i = 1; i < obs.legal_actions_size(); ++i) {
    const double s = score(obs.legal_actions(i).notation());
    if (s > best_score) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

// ---- Craits: lowest total wins (CR-13, CR-14) ----

// CR-13.1 card points; 3s cancel other cards (CR-13.2), so they are kept.
int CraitsPoints(char rank) {
  switch (rank) {
    case 'A':
      return 1;
    case '2':
      return 20;
    case '3':
      return -30;
    case '4':
      return 15;
    case '5':
    case '6':
    case '9':
      return 30;
    case '7':
      return 20;
    case '8':
      return 50;
    case 'T':
      return 25;
    default:
      return 10;  // J Q K
  }
}

// Shed the most points first; always announce the last card (CR-10: a
// missed announcement costs a penalty); name the suit most of the hand is
// in; draw only when nothing else is legal; call a fool whenever one may.
double CraitsScore(const v1::CraitsObservation& view, absl::string_view text) {
  if (absl::StartsWith(text, "fool")) return 1000;
  if (text == "draw") return -1000;
  int suit_count[4] = {0, 0, 0, 0};
  for (uint32_t card : view.hand()) ++suit_count[(card / 13) % 4];
  auto suit_index = [](char s) { return std::string("CDHS").find(s); };
  if (absl::StartsWith(text, "suit ") && text.size() >= 6) {
    const size_t s = suit_index(text[5]);
    return s < 4 ? suit_count[s] : 0;
  }
  if (!absl::StartsWith(text, "play ") || text.size() < 7) return 0;
  double score = CraitsPoints(text[5]);
  if (absl::EndsWith(text, "!")) score += 500;
  const size_t colon = text.find(':');
  if (colon != absl::string_view::npos && colon + 1 < text.size()) {
    const size_t s = suit_index(text[colon + 1]);
    if (s < 4) score += 0.1 * suit_count[s];
  }
  return score;
}

// ---- Krass Kariert: shed cards fastest ----

// Ids: 0..47 number cards of value id / 4 + 1, 48-49 X, 50-51 STOP,
// 52-53 DRAW (krass_kariert.proto).
constexpr uint32_t kFirstX = 48;
constexpr uint32_t kFirstStop = 50;
constexpr uint32_t kFirstDraw = 52;

// Play the biggest block (most cards leave the hand), and among equals the
// weakest, keeping strong cards and the X for later. A STOP or DRAW only
// when no combination is legal (a STOP wins the trick; a DRAW makes its
// winner draw), a reserve card (one more card in hand) last of all.
double KrassKariertScore(const v1::KrassKariertObservation& view,
                         absl::string_view text) {
  if (absl::StartsWith(text, "reserve")) return -100;
  if (!absl::StartsWith(text, "play ")) return 0;  // place: any position
  std::vector<absl::string_view> words =
      absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (words.size() < 2) return 0;
  std::vector<absl::string_view> range = absl::StrSplit(words[1], '-');
  int first = 0;
  int last = 0;
  if (!absl::SimpleAtoi(range[0], &first)) return 0;
  last = first;
  if (range.size() == 2 && !absl::SimpleAtoi(range[1], &last)) return 0;
  if (first < 0 || last >= view.hand_size() || last < first) return 0;
  std::vector<int> declared;
  if (words.size() > 2 && absl::StartsWith(words[2], "x=")) {
    for (absl::string_view v : absl::StrSplit(words[2].substr(2), ',')) {
      int value = 0;
      if (absl::SimpleAtoi(v, &value)) declared.push_back(value);
    }
  }
  if (first == last) {
    const uint32_t card = view.hand(first);
    if (card >= kFirstDraw) return -20;
    if (card >= kFirstStop) return -30;
  }
  int key = 0;
  int xs = 0;
  size_t next_declared = 0;
  for (int pos = first; pos <= last; ++pos) {
    const uint32_t card = view.hand(pos);
    int value = static_cast<int>(card / 4) + 1;
    if (card >= kFirstX && card < kFirstStop) {
      ++xs;
      value = next_declared < declared.size() ? declared[next_declared++] : 12;
    }
    key = std::max(key, value);
  }
  return 100.0 * (last - first + 1) - key - 15.0 * xs;
}

// ---- Kraken: a trick-taking game in partnerships ----

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
int KrakenPlay(const v1::Observation& obs, const v1::KrakenObservation& view) {
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

int KrakenChoice(const v1::Observation& obs) {
  const v1::KrakenObservation& view = obs.kraken();
  const std::string& first = obs.legal_actions(0).notation();
  if (absl::StartsWith(first, "play ")) return KrakenPlay(obs, view);
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
  if (obs.has_craits()) {
    return Best(
        obs, [&](absl::string_view t) { return CraitsScore(obs.craits(), t); });
  }
  if (obs.has_krass_kariert()) {
    return Best(obs, [&](absl::string_view t) {
      return KrassKariertScore(obs.krass_kariert(), t);
    });
  }
  if (obs.has_kraken()) return KrakenChoice(obs);
  return 0;
}

}  // namespace cardref::bot
