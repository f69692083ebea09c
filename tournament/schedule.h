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

// Which seatings of a group a deal set plays (SeatOrders).
enum class SeatingsKind {
  kBalanced,  // the fewest that put every bot in every seat alike
  kAll,       // every distinct seating, whatever the table's size
};

// Deal sets per group by default: enough for the analyzer's intervals,
// which need 5 independent units (analyzer/inference/interval.h).
inline constexpr int kDefaultDealSets = 5;

struct ScheduleConfig {
  std::vector<BotSpec> bots;
  std::vector<GameSpec> games;
  ScheduleKind kind = ScheduleKind::kRoundRobin;
  // Replay each deal with the seats permuted (SeatOrders: which seatings).
  bool duplicate = false;
  // Deal sets per group of bots (without --duplicate: each seating is a
  // deal of its own).
  int matches = kDefaultDealSets;
  SeatingsKind seatings = SeatingsKind::kBalanced;
};

// One match of the schedule. `key` names it in the event folder; matches of
// one deal set share `deal_set` and are dealt from the same seed.
struct ScheduledMatch {
  std::string key;         // "<game><seats>-g001-d00-s0"
  std::string deal_set;    // "<game><seats>-g001-d00"
  int game = 0;            // index into ScheduleConfig::games
  std::vector<int> seats;  // bot index per seat
  // Matches dealt from this deal set: its twins, kept secret by the referee
  // until every one is over (CreateMatchRequest.deal_set_size).
  int deal_set_size = 1;
};

// `--bot` value: "NAME=COMMAND ARGS..." (arguments split on spaces).
// INVALID_ARGUMENT naming what was expected otherwise.
[[nodiscard]] absl::StatusOr<BotSpec> ParseBotSpec(const std::string& text);

// "round_robin" or "gauntlet".
[[nodiscard]] absl::StatusOr<ScheduleKind> ParseScheduleKind(
    const std::string& text);

// "balanced" or "all".
[[nodiscard]] absl::StatusOr<SeatingsKind> ParseSeatingsKind(
    const std::string& text);

// The groups of bots that meet in a game of `players` seats, each as a
// first seating: the bot at each seat. Round robin: every set of `players`
// distinct bots. Gauntlet: bot 0 (the challenger) with every set of
// players - 1 others. With fewer bots than seats, bots fill several seats:
// as evenly as the seats allow (counts differ by at most one), one group
// for each choice of the bots that take one seat more, so that over the
// groups every bot sits equally often. In a partnership game
// (GameTraits::teams) a bot never sits on two teams: a bot filling seats
// fills them on one team. INVALID_ARGUMENT, saying how many bots the game
// needs, when the bots cannot fill the teams that way.
[[nodiscard]] absl::StatusOr<std::vector<std::vector<int>>> Groups(
    int bots, int players, ScheduleKind kind, const GameTraits& traits);

// The seatings one deal set plays of `group` (a first seating, as Groups
// gives), each the bot at every seat, none twice. Duplicate play:
// - balanced, up to 4 seats: every distinct seating (the permutations of
//   the group as a multiset of bots);
// - balanced, 5 seats or more: its rotations, a Latin square in which
//   every bot sits in every seat alike;
// - balanced, partnership game: the rotations, which keep partners
//   together and put each partnership on both sides of the deal (every
//   distinct seating that keeps the teams apart if rotations do not);
// - all: every distinct seating (that keeps a bot off two teams).
// Without duplicate play each seating is a deal of its own: the rotations
// (every distinct seating with kAll), repeats kept. With fewer bots than
// seats one deal set plays the seatings of every group (BuildSchedule), so
// that within it each bot holds each seat alike.
std::vector<std::vector<int>> SeatOrders(const GameTraits& traits,
                                         const std::vector<int>& group,
                                         bool duplicate, SeatingsKind seatings);

// What the schedule plays, for the organiser before it starts: per game,
// the deal sets, seatings per deal set and matches, and how evenly the
// bots sit in the seats ("each bot sits in each seat 15 times", or the
// range when the groups cannot make it even). One line per game, then the
// totals.
std::string DescribeSchedule(const ScheduleConfig& config,
                             const std::vector<ScheduledMatch>& all);

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
