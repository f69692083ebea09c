// The per-game statistics hook: a game's own metrics and extra tables in
// `cardref_analyze stats` (summary.h, report.h). Each game implements one
// (games/<g>/<g>_stats.cc); FindStatsHook serves them by game id from the
// list of games (games/games.cmake).
//
// A hook sees each RoundResult and the FinalResult per seat and adds named
// metrics, shown as extra columns of that game's table. A hook may also fill
// extra tables from whole logs (per team, per variant), printed after the
// player table.
#ifndef CARDREF_ANALYZER_STATS_HOOK_H_
#define CARDREF_ANALYZER_STATS_HOOK_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "cardref/v1/game.pb.h"
#include "cardref/v1/log.pb.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {

// Count, mean and sample standard deviation. Keeps plain sums, which are
// exact for integer values (every input here: scores, counts, 0/1 flags)
// below 2^53, so the result does not depend on the order of the logs.
class RunningStat {
 public:
  void Add(double x);
  int64_t count() const { return n_; }
  double mean() const;
  // Sample standard deviation (divides by n - 1); 0 with fewer than 2 values.
  double stddev() const;
  double sum() const { return sum_; }
  double sum_squares() const { return sum_squares_; }

 private:
  int64_t n_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
};

// Named game-specific metrics of one row, each averaged over what the hook
// added ("went_out_rate" -> its values).
using Metrics = std::map<std::string, RunningStat>;

// An extra table of one game, printed after its player table, for
// breakdowns a player row cannot hold (per team, per variant). Rows are
// labelled by the hook; `count_metric`'s count is shown
// as the column `count_title` (e.g. the games or rounds a row covers).
struct ExtraTableSpec {
  std::string title;      // "teams"
  std::string row_title;  // title of the label column, e.g. "team"
  std::string count_metric;
  std::string count_title;
  std::vector<std::pair<std::string, std::string>> metrics;  // name, title
};

// The rows of a game's extra tables: table title -> row label -> metrics.
using ExtraRows = std::map<std::string, std::map<std::string, Metrics>>;

// Game-specific statistics for one game. Stateless; called once per seat.
class GameStatsHook {
 public:
  virtual ~GameStatsHook() = default;
  virtual absl::string_view game_id() const = 0;
  // The metric names this hook adds, in column order, each with a short
  // column title for the text table.
  virtual std::vector<std::pair<std::string, std::string>> metrics() const = 0;
  virtual void OnRoundResult(const v1::RoundResult& /*result*/, int /*seat*/,
                             Metrics& /*out*/) const {}
  virtual void OnFinalResult(const v1::FinalResult& /*result*/, int /*seat*/,
                             Metrics& /*out*/) const {}
  // Hooks that need the game as the seat to act saw it return true; they
  // then get OnAction for every action, with the acting seat's observation
  // from just before it (codec::FillObservation of the replayed state).
  virtual bool wants_actions() const { return false; }
  virtual void OnAction(const v1::Observation& /*before*/,
                        const v1::ActionEvent& /*action*/,
                        Metrics& /*out*/) const {}
  // For metrics that span several records (who leaves a round first): state kept for one log, created once per log. A hook
  // with one gets OnView for every action (the acting seat's view before
  // it) and every round result (seat 0's view right after the round),
  // with every seat's metrics.
  class LogState {
   public:
    virtual ~LogState() = default;
  };
  virtual std::unique_ptr<LogState> NewLogState() const { return nullptr; }
  virtual void OnView(const v1::Observation& /*view*/,
                      const v1::LogRecord& /*record*/, LogState& /*state*/,
                      std::vector<Metrics>& /*seats*/) const {}
  // Extra tables, in print order; none by default.
  virtual std::vector<ExtraTableSpec> extra_tables() const { return {}; }
  // Called once per counted log (it audited OK) to add to the rows of the
  // extra tables; the whole log is there (header parameters, seat names).
  virtual void OnLog(const record::GameLog& /*log*/,
                     ExtraRows& /*out*/) const {}
};

// The hook of `game_id`, or nullptr (generated from the list of games).
const GameStatsHook* FindStatsHook(absl::string_view game_id);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_STATS_HOOK_H_
