// Game-specific statistics, one GameStatsHook per game that has any.
#include "analyzer/stats.h"

namespace cardref::analyzer {
namespace {

// Craits: how often a seat ends a round with an empty hand, and its mean
// round score (CR-13.2). An empty hand is read from the revealed hands, not
// from went_out: it is going out (CR-11.1) or, rarely, playing a last ace or
// 2 during the crank resolution after someone else went out (CR-11.3).
class CraitsStatsHook final : public GameStatsHook {
 public:
  absl::string_view game_id() const override { return "craits"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"empty_hand_rate", "empty_hand"}, {"round_score", "round_score"}};
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     Metrics& out) const override {
    if (!result.has_craits()) return;
    const v1::CraitsRoundResult& r = result.craits();
    if (seat < r.hands_size()) {
      out["empty_hand_rate"].Add(r.hands(seat).cards().empty() ? 1 : 0);
    }
    if (seat < r.scores_size()) {
      out["round_score"].Add(static_cast<double>(r.scores(seat)));
    }
  }
};

}  // namespace

const GameStatsHook* FindStatsHook(absl::string_view game_id) {
  static const std::vector<const GameStatsHook*>* hooks =
      new std::vector<const GameStatsHook*>{new CraitsStatsHook};
  for (const GameStatsHook* hook : *hooks) {
    if (hook->game_id() == game_id) return hook;
  }
  return nullptr;
}

}  // namespace cardref::analyzer
