// Craits <-> conformance JSON (../shared/conformance/README.md):
//   PLAY {card, suit?, announce}  (suit only for an 8 or 9)
//   DRAW {}   CALL_FOOL {target}   NAME_SUIT {suit}
// Suits are the letters C D H S. Result: round_scores, totals, winners,
// exhausted_rounds.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "games/craits/craits_entry_points.h"
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/json_util.h"
#include "games/craits/craits.h"

namespace cardref::conformance {
namespace {

using craits::CraitsMove;

constexpr absl::string_view kGame = "craits";

absl::Status Bad(absl::string_view field, absl::string_view why) {
  return BadActionField(kGame, field, why);
}

absl::StatusOr<int> SuitField(const nlohmann::json& a, const char* field) {
  auto it = a.find(field);
  if (it == a.end()) return Bad(field, "missing");
  if (!it->is_string() || it->get<std::string>().size() != 1) {
    return Bad(field, "must be one of \"C\", \"D\", \"H\", \"S\"");
  }
  const int suit = craits::ParseSuitLetter(it->get<std::string>()[0]);
  if (suit < 0 || it->get<std::string>() != std::string(1, craits::SuitLetter(suit))) {
    return Bad(field, "must be one of \"C\", \"D\", \"H\", \"S\"");
  }
  return suit;
}

class CraitsJsonAdapter final : public GameJsonAdapter {
 public:
  absl::string_view game_id() const override { return "craits"; }

  absl::StatusOr<Action> ActionFromJson(
      const nlohmann::json& a) const override {
    absl::StatusOr<std::string> type_or = ActionType(kGame, a);
    if (!type_or.ok()) return type_or.status();
    const std::string& type = *type_or;
    if (type == "PLAY") {
      absl::StatusOr<int> card =
          IntField(kGame, a, "card", craits::kNumCards - 1);
      if (!card.ok()) return card.status();
      int suit = -1;
      if (a.contains("suit")) {
        absl::StatusOr<int> s = SuitField(a, "suit");
        if (!s.ok()) return s.status();
        suit = *s;
      }
      // CR-16.2: defaults to false.
      absl::StatusOr<bool> announce =
          OptionalBoolField(kGame, a, "announce", false);
      if (!announce.ok()) return announce.status();
      return CraitsMove::Play(static_cast<Card>(*card), suit, *announce)
          .Encode();
    }
    if (type == "DRAW") return craits::kDrawAction;
    if (type == "CALL_FOOL") {
      absl::StatusOr<int> target = IntField(kGame, a, "target", kMaxSeats - 1);
      if (!target.ok()) return target.status();
      return CraitsMove::CallFool(*target).Encode();
    }
    if (type == "NAME_SUIT") {
      absl::StatusOr<int> suit = SuitField(a, "suit");
      if (!suit.ok()) return suit.status();
      return CraitsMove::NameSuit(*suit).Encode();
    }
    return Bad("type", absl::StrCat("unknown Craits action type '", type,
                                    "' (PLAY, DRAW, CALL_FOOL, NAME_SUIT)"));
  }

  nlohmann::json ActionToJson(Action action) const override {
    absl::StatusOr<CraitsMove> m = CraitsMove::Decode(action);
    if (!m.ok()) return {{"type", "INVALID"}, {"action", action}};
    switch (m->type) {
      case CraitsMove::Type::kPlay: {
        nlohmann::json j = {{"type", "PLAY"}, {"card", m->card}};
        if (m->suit >= 0) j["suit"] = std::string(1, craits::SuitLetter(m->suit));
        j["announce"] = m->announce;
        return j;
      }
      case CraitsMove::Type::kDraw:
        return {{"type", "DRAW"}};
      case CraitsMove::Type::kCallFool:
        return {{"type", "CALL_FOOL"}, {"target", m->target}};
      case CraitsMove::Type::kNameSuit:
        return {{"type", "NAME_SUIT"},
                {"suit", std::string(1, craits::SuitLetter(m->suit))}};
    }
    return nullptr;
  }

  nlohmann::json ResultToJson(const State& terminal) const override {
    const auto* s = dynamic_cast<const craits::CraitsState*>(&terminal);
    if (s == nullptr) return nullptr;
    const int n = terminal.game().num_seats();
    nlohmann::json rounds = nlohmann::json::array();
    nlohmann::json exhausted = nlohmann::json::array();
    int number = 0;
    for (const craits::CraitsRoundResult& r : s->round_results()) {
      ++number;
      nlohmann::json row = nlohmann::json::array();
      for (int p = 0; p < n; ++p) row.push_back(r.scores[p]);
      rounds.push_back(std::move(row));
      if (r.exhausted) exhausted.push_back(number);
    }
    nlohmann::json totals = nlohmann::json::array();
    for (int t : s->totals()) totals.push_back(t);
    return {{"round_scores", std::move(rounds)},
            {"totals", std::move(totals)},
            {"winners", s->Winners()},
            {"exhausted_rounds", std::move(exhausted)}};
  }
};

}  // namespace
}  // namespace cardref::conformance

namespace cardref::craits {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter() {
  return std::make_unique<conformance::CraitsJsonAdapter>();
}

}  // namespace cardref::craits
