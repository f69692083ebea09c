#include "games/craits/craits_entry_points.h"

#include "cardref/v1/game.pb.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "bots/best.h"
#include "cardref/v1/craits.pb.h"

namespace cardref::craits {
namespace {

using bots::Best;

// CR-13.1 card points; 3s cancel other cards (CR-13.2), so they are kept.
int Points(char rank) {
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
double Score(const v1::CraitsObservation& view, absl::string_view text) {
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
  double score = Points(text[5]);
  if (absl::EndsWith(text, "!")) score += 500;
  const size_t colon = text.find(':');
  if (colon != absl::string_view::npos && colon + 1 < text.size()) {
    const size_t s = suit_index(text[colon + 1]);
    if (s < 4) score += 0.1 * suit_count[s];
  }
  return score;
}

}  // namespace

int HeuristicChoice(const v1::Observation& obs) {
  return Best(obs, [&](absl::string_view t) { return Score(obs.craits(), t); });
}

}  // namespace cardref::craits
