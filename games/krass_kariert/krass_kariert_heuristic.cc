#include "games/krass_kariert/krass_kariert_entry_points.h"

#include "cardref/v1/game.pb.h"

#include <algorithm>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bots/best.h"
#include "cardref/v1/krass_kariert.pb.h"

namespace cardref::krass_kariert {
namespace {

using bots::Best;

// Ids: 0..47 number cards of value id / 4 + 1, 48-49 X, 50-51 STOP,
// 52-53 DRAW (krass_kariert.proto).
constexpr uint32_t kFirstX = 48;
constexpr uint32_t kFirstStop = 50;
constexpr uint32_t kFirstDraw = 52;

// Play the biggest block (most cards leave the hand), and among equals the
// weakest, keeping strong cards and the X for later. A STOP or DRAW only
// when no combination is legal (a STOP wins the trick; a DRAW makes its
// winner draw), a reserve card (one more card in hand) last of all.
double Score(const v1::KrassKariertObservation& view,
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

}  // namespace

int HeuristicChoice(const v1::Observation& obs) {
  return Best(obs, [&](absl::string_view t) {
    return Score(obs.krass_kariert(), t);
  });
}

}  // namespace cardref::krass_kariert
