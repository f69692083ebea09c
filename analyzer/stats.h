// Statistics over many game logs, per game and per player: the in-memory
// tally of whole GameLogs, and the game-specific hooks. `cardref_analyze
// stats` streams instead (summary.h, report.h: more statistics, mergeable
// shards) and uses the same hooks; analyzer_report_test checks that both
// agree.
//
// Only logs that audit OK count; the others are listed as skipped with
// their verdict. A player is identified by the player_name in the log
// header, whatever the seat: one row per (game, player). A player who holds
// two seats of one game counts each seat as a game played.
//
// Per row: games, wins (the seat is in FinalResult.winners; a game with no
// winners is a draw for every seat), win rate (wins / games), mean and
// sample standard deviation of FinalResult.scores, decisions per game
// (every action of the seat, the referee's after a timeout included), mean
// decision time (time_taken_micros of the actions the player submitted
// itself), rejected submissions and timeouts (FAULT_KIND_TIMEOUT).
//
// Game-specific statistics come from a GameStatsHook registered for the game
// (stats_hooks.cc): it sees each RoundResult and the FinalResult per seat and
// adds named metrics, shown as extra columns of that game's table. A hook may
// also fill extra tables from whole logs (per team, per variant), printed
// after the player table.
#ifndef CARDREF_ANALYZER_STATS_H_
#define CARDREF_ANALYZER_STATS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "analyzer/audit.h"
#include "analyzer/stats_hook.h"
#include "cardref/v1/game.pb.h"
#include "cardref/v1/log.pb.h"
#include "games/api/registry.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {

struct PlayerStats {
  std::string game;
  std::string player;
  int64_t games = 0;
  int64_t wins = 0;
  int64_t draws = 0;
  RunningStat score;            // FinalResult.scores of the seat
  int64_t decisions = 0;        // actions of the seat
  int64_t own_decisions = 0;    // of which the player submitted itself
  int64_t decision_micros = 0;  // summed over own_decisions
  int64_t rejected = 0;
  int64_t timeouts = 0;
  Metrics metrics;  // from the game's hook

  double win_rate() const;
  double decisions_per_game() const;
  // Mean time_taken_micros of own decisions; nullopt if there were none.
  std::optional<double> mean_decision_micros() const;
};

class StatsCollector {
 public:
  explicit StatsCollector(const GameRegistry* registry) : registry_(registry) {}

  // Audits `log`; adds it if it is OK, lists it as skipped otherwise.
  // Returns the audit report.
  AuditReport Add(const record::GameLog& log, absl::string_view file);
  // Reads and adds `path` (UNREADABLE files are skipped).
  AuditReport AddFile(const std::string& path);

  int64_t logs_counted() const { return logs_counted_; }
  const std::vector<AuditReport>& skipped() const { return skipped_; }
  // Sorted by game id, then player name (byte order).
  std::vector<PlayerStats> Rows() const;
  // Logs counted per game id.
  const std::map<std::string, int64_t>& logs_per_game() const {
    return logs_per_game_;
  }
  // The rows of a game's extra tables (empty for a game without any).
  const ExtraRows& extra_rows(const std::string& game) const;

  // One aligned table per game, then the skipped logs. Deterministic.
  std::string ToText() const;
  // The same as a JSON document (stable key order), ending in a newline.
  std::string ToJson() const;

 private:
  void Count(const record::GameLog& log);

  const GameRegistry* registry_;
  int64_t logs_counted_ = 0;
  std::map<std::string, int64_t> logs_per_game_;
  std::map<std::pair<std::string, std::string>, PlayerStats> rows_;
  std::map<std::string, ExtraRows> extra_rows_;  // by game
  std::vector<AuditReport> skipped_;
};

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_STATS_H_
