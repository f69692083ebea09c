// Krass Kariert <-> conformance JSON (../shared/conformance/README.md):
//   PLAY {positions: [..], x_values: [..]}
//   TAKE_RESERVE {slot, position}
//   PLACE_DRAWN {position}
// Result: chips (per seat), losers, winners, round_losses [{round, seats}].
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "games/krass_kariert/krass_kariert_entry_points.h"
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/json_util.h"
#include "games/krass_kariert/krass_kariert.h"

namespace cardref::conformance {
namespace {

namespace kk = ::cardref::krass_kariert;

constexpr absl::string_view kGame = "krass_kariert";

absl::Status Bad(absl::string_view field, absl::string_view why) {
  return BadActionField(kGame, field, why);
}

absl::StatusOr<std::vector<int>> IntList(const nlohmann::json& a,
                                         const char* field) {
  auto it = a.find(field);
  if (it == a.end()) return Bad(field, "missing");
  if (!it->is_array()) return Bad(field, "must be an array of integers");
  std::vector<int> out;
  for (const nlohmann::json& v : *it) {
    if (!v.is_number_integer()) return Bad(field, "must hold integers only");
    const int64_t x = v.get<int64_t>();
    if (x < -1000 || x > 1000) return Bad(field, "value out of range");
    out.push_back(static_cast<int>(x));
  }
  return out;
}

absl::Status OnlyFields(const nlohmann::json& a,
                        std::initializer_list<const char*> fields) {
  for (auto it = a.begin(); it != a.end(); ++it) {
    bool known = it.key() == "type";
    for (const char* f : fields) known |= it.key() == f;
    if (!known) return Bad(it.key(), "unknown field");
  }
  return absl::OkStatus();
}

class KrassKariertJsonAdapter final : public GameJsonAdapter {
 public:
  absl::string_view game_id() const override { return "krass_kariert"; }

  absl::StatusOr<Action> ActionFromJson(
      const nlohmann::json& a) const override {
    absl::StatusOr<std::string> type_or = ActionType(kGame, a);
    if (!type_or.ok()) return type_or.status();
    const std::string& type = *type_or;
    if (type == "PLAY") {
      if (absl::Status st = OnlyFields(a, {"positions", "x_values"}); !st.ok()) {
        return st;
      }
      absl::StatusOr<std::vector<int>> positions = IntList(a, "positions");
      if (!positions.ok()) return positions.status();
      absl::StatusOr<std::vector<int>> xs = IntList(a, "x_values");
      if (!xs.ok()) return xs.status();
      absl::StatusOr<kk::KrassKariertAction> play =
          kk::PlayFromPositions(*positions, *xs);
      if (!play.ok()) return play.status();
      return kk::EncodeAction(*play);
    }
    if (type == "TAKE_RESERVE") {
      if (absl::Status st = OnlyFields(a, {"slot", "position"}); !st.ok()) {
        return st;
      }
      absl::StatusOr<int> slot =
          IntField(kGame, a, "slot", kk::kReserveSlots - 1);
      if (!slot.ok()) return slot.status();
      absl::StatusOr<int> position =
          IntField(kGame, a, "position", kk::kMaxEncodedPosition);
      if (!position.ok()) return position.status();
      return kk::EncodeTakeReserve(*slot, *position);
    }
    if (type == "PLACE_DRAWN") {
      if (absl::Status st = OnlyFields(a, {"position"}); !st.ok()) return st;
      absl::StatusOr<int> position =
          IntField(kGame, a, "position", kk::kMaxEncodedPosition);
      if (!position.ok()) return position.status();
      return kk::EncodePlaceDrawn(*position);
    }
    return Bad("type", absl::StrCat("unknown action type '", type,
                                    "' (expected PLAY, TAKE_RESERVE or "
                                    "PLACE_DRAWN)"));
  }

  nlohmann::json ActionToJson(Action action) const override {
    absl::StatusOr<kk::KrassKariertAction> a = kk::DecodeAction(action);
    if (!a.ok()) return nlohmann::json{{"type", "INVALID"}};
    switch (a->type) {
      case kk::ActionType::kPlay: {
        nlohmann::json positions = nlohmann::json::array();
        for (int i = 0; i < a->count; ++i) positions.push_back(a->start + i);
        nlohmann::json xs = nlohmann::json::array();
        for (int i = 0; i < a->num_x_values; ++i) xs.push_back(a->x_values[i]);
        return {{"type", "PLAY"}, {"positions", positions}, {"x_values", xs}};
      }
      case kk::ActionType::kTakeReserve:
        return {{"type", "TAKE_RESERVE"},
                {"slot", a->slot},
                {"position", a->position}};
      case kk::ActionType::kPlaceDrawn:
        return {{"type", "PLACE_DRAWN"}, {"position", a->position}};
    }
    return nlohmann::json{{"type", "INVALID"}};
  }

  nlohmann::json ResultToJson(const State& terminal) const override {
    const auto* s = dynamic_cast<const kk::KrassKariertState*>(&terminal);
    if (s == nullptr) return nlohmann::json();
    const kk::KrassKariertResult r = s->Result();
    nlohmann::json losses = nlohmann::json::array();
    for (const kk::KrassKariertRoundLoss& loss : r.round_losses) {
      losses.push_back({{"round", loss.round}, {"seats", loss.seats}});
    }
    return {{"chips", r.chips},
            {"losers", r.losers},
            {"winners", r.winners},
            {"round_losses", losses}};
  }
};

}  // namespace
}  // namespace cardref::conformance

namespace cardref::krass_kariert {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter() {
  return std::make_unique<conformance::KrassKariertJsonAdapter>();
}

}  // namespace cardref::krass_kariert
