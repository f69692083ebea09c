// The schedule of a tournament: a pure function of its configuration, so
// every run of the same event (a resume, another shard) sees the same list
// of matches under the same keys (docs/tournament.md).
#ifndef CARDREF_TOURNAMENT_SCHEDULE_H_
#define CARDREF_TOURNAMENT_SCHEDULE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "games/api/game.h"

namespace cardref::tournament {

// One bot: a name (the player name in the logs) and its program with
// arguments, as in --bot='NAME=COMMAND ARGS...'.
struct BotSpec {
  std::string name;
  std::vector<std::string> command;
};

// One game of the event at one player count.
struct GameSpec {
  std::string id;
  int players = 0;
};

enum class ScheduleKind { kRoundRobin, kGauntlet };

struct ScheduleConfig {
  std::vector<BotSpec> bots;
  std::vector<GameSpec> games;
  ScheduleKind kind = ScheduleKind::kRoundRobin;
  // Replay each deal with the seats permuted (duplicate.h: which orders).
  bool duplicate = false;
  // Deal sets per group of bots (without --duplicate: seat rotations).
  int matches = 1;
};

// One match of the schedule. `key` names it in the event folder; matches of
// one deal set share `deal_set` and are dealt from the same seed.
struct ScheduledMatch {
  std::string key;         // "<game><seats>-g001-d00-s0"
  std::string deal_set;    // "<game><seats>-g001-d00"
  int game = 0;            // index into ScheduleConfig::games
  std::vector<int> seats;  // bot index per seat
};

// `--bot` value: "NAME=COMMAND ARGS..." (arguments split on spaces).
// INVALID_ARGUMENT naming what was expected otherwise.
[[nodiscard]] absl::StatusOr<BotSpec> ParseBotSpec(const std::string& text);

// "round_robin" or "gauntlet".
[[nodiscard]] absl::StatusOr<ScheduleKind> ParseScheduleKind(
    const std::string& text);

// Groups of bots that meet in a game of `players` seats. Round robin: every
// set of `players` distinct bots (with fewer bots than seats, the bots in
// order, repeated to fill the seats). Gauntlet: bot 0 (the challenger)
// with every set of players - 1 others.
std::vector<std::vector<int>> Groups(int bots, int players, ScheduleKind kind);

// Seat orders of one deal set over a group of `n` players, as permutations
// of 0..n-1. Duplicate: every permutation up to 4 seats, except in a
// partnership game, which gets the n rotations (every seat, and each team
// on both sides of the deal); 5 seats or more get the n rotations, a Latin
// square in which every bot plays every seat once. Without duplicate: the
// n rotations.
std::vector<std::vector<int>> SeatOrders(const GameTraits& traits, int n,
                                         bool duplicate);

// What BuildSchedule checks before it needs the games' player counts
// (which may come from the referee): bots, unique names, --matches, a
// gauntlet's challenger. INVALID_ARGUMENT naming the problem.
[[nodiscard]] absl::Status CheckScheduleShape(const ScheduleConfig& config);

// The whole schedule, in a fixed order. INVALID_ARGUMENT without bots or
// games.
[[nodiscard]] absl::StatusOr<std::vector<ScheduledMatch>> BuildSchedule(
    const ScheduleConfig& config);

// --shard=I/N parsed: 0 <= index < count; "" is 0/1, the whole schedule.
struct ShardSpec {
  int index = 0;
  int count = 1;
};
[[nodiscard]] absl::StatusOr<ShardSpec> ParseShardSpec(
    const std::string& shard);

// --shard=I/N: the matches whose index in the schedule is I modulo N;
// "" keeps all. INVALID_ARGUMENT for anything but 0 <= I < N.
[[nodiscard]] absl::StatusOr<std::vector<ScheduledMatch>> SelectShard(
    const std::vector<ScheduledMatch>& schedule, const std::string& shard);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_SCHEDULE_H_
