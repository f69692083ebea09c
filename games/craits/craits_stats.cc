#include "games/craits/craits_entry_points.h"

#include "analyzer/stats_hook.h"

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "games/craits/craits.h"

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
    return {{"empty_hand_rate", "empty_hand"},
            {"round_score", "round_score"},
            {"draw_rate", "draw_rate"},
            {"cards_drawn", "cards_drawn"},
            {"fool_call_rate", "fool_calls"},
            {"crank_length", "crank_len"}};
  }

  bool wants_actions() const override { return true; }

  // Per decision: how often the seat draws or calls a fool (CR-9, CR-10);
  // per crank the seat ends by drawing: its length C (CR-7).
  void OnAction(const v1::Observation& before, const v1::ActionEvent& event,
                Metrics& out) const override {
    if (!event.action().has_craits() || !before.has_craits()) return;
    const v1::CraitsAction& a = event.action().craits();
    out["draw_rate"].Add(a.has_draw() ? 1 : 0);
    out["fool_call_rate"].Add(a.has_call_fool() ? 1 : 0);
    if (a.has_draw() && before.craits().phase() == v1::CRAITS_PHASE_CRANK) {
      out["crank_length"].Add(before.craits().crank_count());
    }
  }

  // Cards drawn per round and seat (draws, crank losses CR-7, fives,
  // sevens, fool penalties: whatever made them), by conservation of cards
  // (CR-1.1): held at the end (the round result's hands) = dealt h(r) +
  // drawn - played. A view is no help at the end: after the last action
  // the engine shows the next round's empty hands.
  struct Plays : LogState {
    std::vector<int> per_seat;  // this round so far
  };

  std::unique_ptr<LogState> NewLogState() const override {
    return std::make_unique<Plays>();
  }

  void OnView(const v1::Observation& /*view*/, const v1::LogRecord& record,
              LogState& state, std::vector<Metrics>& seats) const override {
    std::vector<int>& plays = static_cast<Plays&>(state).per_seat;
    plays.resize(seats.size(), 0);
    if (record.has_action() && record.action().action().craits().has_play()) {
      const int seat = record.action().seat();
      if (seat >= 0 && seat < static_cast<int>(plays.size())) ++plays[seat];
    }
    if (!record.has_round_result() || !record.round_result().has_craits()) {
      return;
    }
    const v1::RoundResult& result = record.round_result();
    const int dealt = craits::HandSizeForRound(result.round());
    for (size_t s = 0; s < seats.size(); ++s) {
      if (static_cast<int>(s) >= result.craits().hands_size()) break;
      seats[s]["cards_drawn"].Add(
          result.craits().hands(static_cast<int>(s)).cards_size() + plays[s] -
          dealt);
      plays[s] = 0;
    }
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
}  // namespace cardref::analyzer

namespace cardref::craits {

const analyzer::GameStatsHook& StatsHook() {
  static const analyzer::CraitsStatsHook* hook = new analyzer::CraitsStatsHook;
  return *hook;
}

}  // namespace cardref::craits
