#include "games/krass_kariert/krass_kariert_entry_points.h"

#include "analyzer/stats_hook.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "cardref/v1/krass_kariert.pb.h"

namespace cardref::analyzer {
namespace {

// Krass Kariert, per seat: out_first, per round, whether the seat was
// among the first to leave it with an empty hand (KK-9.3; several seats
// can leave at the same trick; 0 for everyone in a round nobody left),
// (KK-11.3: a charged seat loses one unless it has none), how often a decision
// takes a reserve (KK-6), and how often a play is a STOP (KK-7) or a DRAW
// (KK-8) card, read from the seat's hand just before (card ids 50-51 STOP,
// 52-53 DRAW).
class KrassKariertStatsHook final : public GameStatsHook {
 public:
  absl::string_view game_id() const override { return "krass_kariert"; }

  std::vector<std::pair<std::string, std::string>> metrics() const override {
    return {{"chips_lost", "chips_lost"},
            {"out_first", "out_first"},
            {"reserve_rate", "reserves"},
            {"stop_rate", "stops"},
            {"draw_card_rate", "draws"}};
  }

  bool wants_actions() const override { return true; }

  void OnAction(const v1::Observation& before, const v1::ActionEvent& event,
                Metrics& out) const override {
    if (!event.action().has_krass_kariert()) return;
    const v1::KrassKariertAction& a = event.action().krass_kariert();
    out["reserve_rate"].Add(a.has_take_reserve() ? 1 : 0);
    if (!a.has_play()) return;
    bool stop = false, draw = false;
    const auto& hand = before.krass_kariert().hand();
    for (uint32_t position : a.play().positions()) {
      if (position >= static_cast<uint32_t>(hand.size())) continue;
      stop |= hand[position] == 50 || hand[position] == 51;
      draw |= hand[position] == 52 || hand[position] == 53;
    }
    out["stop_rate"].Add(stop ? 1 : 0);
    out["draw_card_rate"].Add(draw ? 1 : 0);
  }

  struct RoundState : LogState {
    bool someone_left = false;  // in the current round
  };

  std::unique_ptr<LogState> NewLogState() const override {
    return std::make_unique<RoundState>();
  }

  // The active flags only drop within a round (the deal resets them), so
  // the first view with an inactive seat names who left first.
  void OnView(const v1::Observation& view, const v1::LogRecord& record,
              LogState& state, std::vector<Metrics>& seats) const override {
    RoundState& round = static_cast<RoundState&>(state);
    if (!view.has_krass_kariert()) return;
    const auto& views = view.krass_kariert().seats();
    if (!round.someone_left) {
      bool any = false;
      for (const auto& v : views) any |= !v.active();
      if (any) {
        round.someone_left = true;
        const int n = std::min(static_cast<int>(seats.size()), views.size());
        for (int s = 0; s < n; ++s) {
          seats[s]["out_first"].Add(views[s].active() ? 0 : 1);
        }
      }
    }
    if (record.has_round_result()) {
      if (!round.someone_left) {
        for (Metrics& m : seats) m["out_first"].Add(0);
      }
      round.someone_left = false;
    }
  }

  void OnRoundResult(const v1::RoundResult& result, int seat,
                     Metrics& out) const override {
    if (!result.has_krass_kariert()) return;
    // A charged seat without a chip is eliminated and loses none (KK-11.3).
    const auto& charged = result.krass_kariert().charged();
    const auto& eliminated = result.krass_kariert().eliminated();
    const bool lost =
        std::find(charged.begin(), charged.end(), seat) != charged.end() &&
        std::find(eliminated.begin(), eliminated.end(), seat) ==
            eliminated.end();
    out["chips_lost"].Add(lost ? 1 : 0);
  }
};

}  // namespace
}  // namespace cardref::analyzer

namespace cardref::krass_kariert {

const analyzer::GameStatsHook& StatsHook() {
  static const analyzer::KrassKariertStatsHook* hook = new analyzer::KrassKariertStatsHook;
  return *hook;
}

}  // namespace cardref::krass_kariert
