#include "games/craits/craits_action.h"

#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "referee/base/rule_error.h"
#include "games/craits/craits_cards.h"

namespace cardref::craits {

CraitsMove CraitsMove::Play(Card card, int suit, bool announce) {
  CraitsMove m;
  m.type = Type::kPlay;
  m.card = card;
  m.suit = suit;
  m.announce = announce;
  return m;
}

CraitsMove CraitsMove::Draw() { return CraitsMove(); }

CraitsMove CraitsMove::CallFool(int target) {
  CraitsMove m;
  m.type = Type::kCallFool;
  m.target = target;
  return m;
}

CraitsMove CraitsMove::NameSuit(int suit) {
  CraitsMove m;
  m.type = Type::kNameSuit;
  m.suit = suit;
  return m;
}

Action CraitsMove::Encode() const {
  switch (type) {
    case Type::kPlay:
      return EncodePlay(card, suit, announce);
    case Type::kDraw:
      return kDrawAction;
    case Type::kCallFool:
      return EncodeCallFool(target);
    case Type::kNameSuit:
      return EncodeNameSuit(suit);
  }
  return kDrawAction;
}

absl::StatusOr<CraitsMove> CraitsMove::Decode(Action a) {
  auto bad = [a](absl::string_view why) {
    return IllegalAction("CR-16", "action ", a, " is not a Craits action: ",
                         why);
  };
  if (a >> (kTypeShift + 2)) return bad("bits above 14 are set");
  const Action type = ActionType(a);
  if (type == kTypePlay) {
    if (a & kTargetField) return bad("a PLAY has no target");
    if (ActionCard(a) >= kNumCards) return bad("card id above 51");
    if (ActionSuit(a) >= kNumSuits) return bad("suit code above 4");
    return Play(ActionCard(a), ActionSuit(a), ActionAnnounce(a));
  }
  if (type == kTypeDraw) {
    if (a != kDrawAction) return bad("a DRAW has no fields");
    return Draw();
  }
  if (type == kTypeCallFool) {
    if (a & ~(kTypeField | kTargetField)) return bad("CALL_FOOL has a target only");
    if (ActionTarget(a) >= kMaxSeats) return bad("target seat above 4");
    return CallFool(ActionTarget(a));
  }
  if (a & ~(kTypeField | kSuitField)) return bad("NAME_SUIT has a suit only");
  if (ActionSuit(a) < 0 || ActionSuit(a) >= kNumSuits) {
    return bad("NAME_SUIT needs a suit C, D, H or S");
  }
  return NameSuit(ActionSuit(a));
}

std::string CraitsActionToString(Action action) {
  absl::StatusOr<CraitsMove> m = CraitsMove::Decode(action);
  if (!m.ok()) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "invalid(0x%x)", action);
    return buf;
  }
  switch (m->type) {
    case CraitsMove::Type::kPlay: {
      std::string s = absl::StrCat("play ", CardToString(m->card));
      if (m->suit >= 0) absl::StrAppend(&s, ":", std::string(1, SuitLetter(m->suit)));
      if (m->announce) s += "!";
      return s;
    }
    case CraitsMove::Type::kDraw:
      return "draw";
    case CraitsMove::Type::kCallFool:
      return absl::StrCat("fool ", m->target);
    case CraitsMove::Type::kNameSuit:
      return absl::StrCat("suit ", std::string(1, SuitLetter(m->suit)));
  }
  return "draw";
}

absl::StatusOr<Action> ParseCraitsAction(absl::string_view text) {
  std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  std::vector<absl::string_view> words =
      absl::StrSplit(t, ' ', absl::SkipWhitespace());
  auto bad = [&text]() {
    return absl::InvalidArgumentError(absl::StrCat(
        "CR-16: cannot parse Craits action '", text,
        "'; expected 'play 7H', 'play 8S:H', 'play KH!', 'draw', 'fool 2' "
        "or 'suit H'"));
  };
  if (words.size() == 1 && words[0] == "draw") return kDrawAction;
  if (words.size() != 2) return bad();
  absl::string_view arg = words[1];
  if (words[0] == "play") {
    bool announce = false;
    if (!arg.empty() && arg.back() == '!') {
      announce = true;
      arg.remove_suffix(1);
    }
    int suit = -1;
    size_t colon = arg.find(':');
    if (colon != absl::string_view::npos) {
      if (colon + 2 != arg.size()) return bad();
      suit = ParseSuitLetter(arg[colon + 1]);
      if (suit < 0) return bad();
      arg = arg.substr(0, colon);
    }
    absl::StatusOr<Card> card = ParseCard(arg);
    if (!card.ok()) return card.status();
    return EncodePlay(*card, suit, announce);
  }
  if (words[0] == "fool") {
    int target;
    if (!absl::SimpleAtoi(arg, &target) || target < 0 || target >= kMaxSeats) {
      return bad();
    }
    return EncodeCallFool(target);
  }
  if (words[0] == "suit") {
    int suit = arg.size() == 1 ? ParseSuitLetter(arg[0]) : -1;
    if (suit < 0) return bad();
    return EncodeNameSuit(suit);
  }
  return bad();
}

}  // namespace cardref::craits
