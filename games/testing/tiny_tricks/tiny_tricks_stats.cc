#include "games/testing/tiny_tricks/tiny_tricks_entry_points.h"

#include "analyzer/stats_hook.h"

#include <string>
#include <utility>
#include <vector>

#include "cardref/v1/tiny_tricks.pb.h"

namespace cardref::tiny_tricks {
namespace {

class TinyTricksStatsHook final : public analyzer::GameStatsHook {
 public:
  absl::string_view game_id() const override { return "tiny_tricks"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"tricks_per_round", "tricks"}};
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     analyzer::Metrics& out) const override {
    const auto& won = result.tiny_tricks().tricks_won();
    if (seat < won.size()) out["tricks_per_round"].Add(won[seat]);
  }
};

}  // namespace

const analyzer::GameStatsHook& StatsHook() {
  static const TinyTricksStatsHook* hook = new TinyTricksStatsHook;
  return *hook;
}

}  // namespace cardref::tiny_tricks
