#include "games/krass_kariert/krass_kariert_notation.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"
#include "games/krass_kariert/krass_kariert_action.h"

namespace cardref::krass_kariert {

namespace {

constexpr absl::string_view kExpected =
    "expected 'play P', 'play P-Q [x=V[,V]]', 'reserve S@P' or 'place P'";

absl::Status BadText(absl::string_view rule, absl::string_view text) {
  return IllegalAction(rule, "cannot read action '", text, "' (", kExpected,
                       ")");
}

bool ParseInt(absl::string_view s, int* out) {
  return !s.empty() && absl::ascii_isdigit(s[0]) && absl::SimpleAtoi(s, out);
}

// "3", "2-4" or "2,3,4" -> positions.
bool ParsePositions(absl::string_view s, std::vector<int>* out) {
  if (s.find('-') != absl::string_view::npos) {
    std::pair<absl::string_view, absl::string_view> ab =
        absl::StrSplit(s, absl::MaxSplits('-', 1));
    int a, b;
    if (!ParseInt(ab.first, &a) || !ParseInt(ab.second, &b) || b < a ||
        b - a > 8) {
      return false;
    }
    for (int p = a; p <= b; ++p) out->push_back(p);
    return true;
  }
  for (absl::string_view item : absl::StrSplit(s, ',')) {
    int p;
    if (!ParseInt(item, &p)) return false;
    out->push_back(p);
  }
  return true;
}

}  // namespace

std::string KrassKariertActionToString(Action action) {
  absl::StatusOr<KrassKariertAction> decoded = DecodeAction(action);
  if (!decoded.ok()) return absl::StrCat("invalid(0x", absl::Hex(action), ")");
  const KrassKariertAction& a = *decoded;
  switch (a.type) {
    case ActionType::kPlay: {
      std::string s = absl::StrCat("play ", a.start);
      if (a.count > 1) absl::StrAppend(&s, "-", a.start + a.count - 1);
      if (a.num_x_values >= 1) absl::StrAppend(&s, " x=", a.x_values[0]);
      if (a.num_x_values >= 2) absl::StrAppend(&s, ",", a.x_values[1]);
      return s;
    }
    case ActionType::kTakeReserve:
      return absl::StrCat("reserve ", a.slot, "@", a.position);
    case ActionType::kPlaceDrawn:
      return absl::StrCat("place ", a.position);
  }
  return "?";
}

absl::StatusOr<Action> ParseKrassKariertAction(absl::string_view text) {
  std::vector<absl::string_view> words =
      absl::StrSplit(text, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (words.empty()) return BadText("KK-16.4", text);
  const absl::string_view verb = words[0];
  if (verb == "play") {
    if (words.size() < 2 || words.size() > 3) return BadText("KK-16.1", text);
    std::vector<int> positions, xs;
    if (!ParsePositions(words[1], &positions)) {
      return BadText("KK-16.1", text);
    }
    if (words.size() == 3) {
      if (!absl::ConsumePrefix(&words[2], "x=") ||
          !ParsePositions(words[2], &xs) ||
          words[2].find('-') != absl::string_view::npos) {
        return BadText("KK-16.1", text);
      }
    }
    ASSIGN_OR_RETURN(KrassKariertAction a, PlayFromPositions(positions, xs));
    return EncodeAction(a);
  }
  if (verb == "reserve") {
    if (words.size() != 2) return BadText("KK-16.2", text);
    std::pair<absl::string_view, absl::string_view> sp =
        absl::StrSplit(words[1], absl::MaxSplits('@', 1));
    int slot, position;
    if (!ParseInt(sp.first, &slot) || !ParseInt(sp.second, &position)) {
      return BadText("KK-16.2", text);
    }
    if (slot > 1) {
      return IllegalAction("KK-16.2", "reserve slot ", slot,
                           " does not exist (expected 0 or 1)");
    }
    if (position > kMaxEncodedPosition) {
      return IllegalAction("KK-16.2", "position ", position,
                           " is not a hand position");
    }
    return EncodeTakeReserve(slot, position);
  }
  if (verb == "place") {
    int position;
    if (words.size() != 2 || !ParseInt(words[1], &position)) {
      return BadText("KK-16.3", text);
    }
    if (position > kMaxEncodedPosition) {
      return IllegalAction("KK-16.3", "position ", position,
                           " is not a hand position");
    }
    return EncodePlaceDrawn(position);
  }
  return BadText("KK-16.4", text);
}

}  // namespace cardref::krass_kariert
