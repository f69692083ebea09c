#include "games/testing/tiny_tricks/tiny_tricks_entry_points.h"

#include "analyzer/conformance/json_adapter.h"

#include <memory>
#include <string>

#include "analyzer/conformance/json_util.h"
#include "games/testing/tiny_tricks/tiny_tricks.h"

namespace cardref::tiny_tricks {
namespace {

constexpr absl::string_view kGame = "tiny_tricks";

class TinyTricksJsonAdapter final : public conformance::GameJsonAdapter {
 public:
  absl::string_view game_id() const override { return kGame; }

  absl::StatusOr<Action> ActionFromJson(
      const nlohmann::json& a) const override {
    absl::StatusOr<std::string> type = conformance::ActionType(kGame, a);
    if (!type.ok()) return type.status();
    if (*type != "PLAY") {
      return conformance::BadActionField(kGame, "type",
                                         "must be \"PLAY\" (TT-3)");
    }
    absl::StatusOr<int> card =
        conformance::IntField(kGame, a, "card", kDeckSize - 1);
    if (!card.ok()) return card.status();
    return static_cast<Action>(*card);
  }

  nlohmann::json ActionToJson(Action action) const override {
    return {{"type", "PLAY"}, {"card", action}};
  }

  nlohmann::json ResultToJson(const State& terminal) const override {
    const GameOutcome outcome = terminal.Outcome();
    return {{"totals", outcome.scores}, {"winners", outcome.winners}};
  }
};

}  // namespace

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter() {
  return std::make_unique<TinyTricksJsonAdapter>();
}

}  // namespace cardref::tiny_tricks
