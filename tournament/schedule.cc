#include "tournament/schedule.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "games/all_games.h"

namespace cardref::tournament {

absl::StatusOr<BotSpec> ParseBotSpec(const std::string& text) {
  const size_t eq = text.find('=');
  BotSpec bot;
  if (eq != std::string::npos) bot.name = text.substr(0, eq);
  if (eq != std::string::npos) {
    for (absl::string_view arg :
         absl::StrSplit(text.substr(eq + 1), ' ', absl::SkipEmpty())) {
      bot.command.emplace_back(arg);
    }
  }
  if (bot.name.empty() || bot.command.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot wants NAME=COMMAND ARGS... (e.g. 'random=cardref_bot "
        "--strategy=random'), got '",
        text, "'"));
  }
  for (char c : bot.name) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
          c == '.')) {
      return absl::InvalidArgumentError(
          absl::StrCat("bot name '", bot.name,
                       "': use letters, digits, '_', '-' and '.' only"));
    }
  }
  return bot;
}

absl::StatusOr<ScheduleKind> ParseScheduleKind(const std::string& text) {
  if (text == "round_robin") return ScheduleKind::kRoundRobin;
  if (text == "gauntlet") return ScheduleKind::kGauntlet;
  return absl::InvalidArgumentError(absl::StrCat(
      "--schedule wants round_robin or gauntlet, got '", text, "'"));
}

absl::StatusOr<SeatingsKind> ParseSeatingsKind(const std::string& text) {
  if (text == "balanced") return SeatingsKind::kBalanced;
  if (text == "all") return SeatingsKind::kAll;
  return absl::InvalidArgumentError(
      absl::StrCat("--seatings wants balanced or all, got '", text, "'"));
}

namespace {

// Every k-subset of {first, ..., n-1}, each sorted, in lexicographic order.
void Subsets(int first, int n, int k, std::vector<int>& current,
             std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int i = first; i < n; ++i) {
    current.push_back(i);
    Subsets(i + 1, n, k, current, out);
    current.pop_back();
  }
}

// Whether `seating` keeps every bot on one team (always, without teams).
bool KeepsTeamsApart(const std::vector<int>& team,
                     const std::vector<int>& seating) {
  if (team.empty()) return true;
  std::map<int, int> team_of;
  for (size_t seat = 0; seat < seating.size(); ++seat) {
    auto [it, inserted] = team_of.emplace(seating[seat], team[seat]);
    if (!inserted && it->second != team[seat]) return false;
  }
  return true;
}

// The team of each seat in a partnership game; empty otherwise.
std::vector<int> Partnerships(const GameTraits& traits, int seats) {
  return traits.teams ? traits.teams(seats) : std::vector<int>();
}

// Every distinct seating of the multiset `group` that keeps teams apart, in
// lexicographic order.
std::vector<std::vector<int>> DistinctSeatings(const std::vector<int>& team,
                                               std::vector<int> group) {
  std::vector<std::vector<int>> out;
  std::sort(group.begin(), group.end());
  do {
    if (KeepsTeamsApart(team, group)) out.push_back(group);
  } while (std::next_permutation(group.begin(), group.end()));
  return out;
}

// The rotations of `group` (seat s takes the bot of seat s + shift),
// without repeats unless `keep_repeats`.
std::vector<std::vector<int>> Rotations(const std::vector<int>& group,
                                        bool keep_repeats) {
  std::vector<std::vector<int>> out;
  const size_t n = group.size();
  for (size_t shift = 0; shift < n; ++shift) {
    std::vector<int> rotated(n);
    for (size_t seat = 0; seat < n; ++seat) {
      rotated[seat] = group[(seat + shift) % n];
    }
    if (keep_repeats ||
        std::find(out.begin(), out.end(), rotated) == out.end()) {
      out.push_back(std::move(rotated));
    }
  }
  return out;
}

// Whether every rotation of the seats maps the teams onto teams (seat s
// and t partners exactly when s + r and t + r are).
bool RotationsKeepPartners(const std::vector<int>& team) {
  const size_t n = team.size();
  for (size_t r = 1; r < n; ++r) {
    for (size_t s = 0; s < n; ++s) {
      for (size_t t = 0; t < n; ++t) {
        if ((team[s] == team[t]) !=
            (team[(s + r) % n] == team[(t + r) % n])) {
          return false;
        }
      }
    }
  }
  return true;
}

// Seat counts of `bots` bots filling `players` seats as evenly as
// possible: q = players / bots each, one more for `players % bots` of
// them; one group per choice of those, as a sorted multiset.
std::vector<std::vector<int>> EvenFillings(int bots, int players) {
  const int q = players / bots, extra = players % bots;
  std::vector<std::vector<int>> choices, out;
  std::vector<int> current;
  Subsets(0, bots, extra, current, choices);
  for (const std::vector<int>& more : choices) {
    std::vector<int> group;
    for (int b = 0; b < bots; ++b) {
      const bool one_more =
          std::find(more.begin(), more.end(), b) != more.end();
      for (int k = 0; k < q + (one_more ? 1 : 0); ++k) group.push_back(b);
    }
    out.push_back(std::move(group));
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::vector<int>>> Groups(
    int bots, int players, ScheduleKind kind, const GameTraits& traits) {
  std::vector<std::vector<int>> groups;
  std::vector<int> current;
  if (bots < 1 || players < 1) return groups;
  if (bots >= players) {
    if (kind == ScheduleKind::kGauntlet && bots >= 2) {
      std::vector<std::vector<int>> others;
      Subsets(1, bots, players - 1, current, others);
      for (std::vector<int>& o : others) {
        o.insert(o.begin(), 0);
        groups.push_back(std::move(o));
      }
    } else {
      Subsets(0, bots, players, current, groups);
    }
    return groups;
  }
  // Fewer bots than seats: every bot plays (the challenger too), some in
  // several seats. A first seating that keeps each bot on one team.
  const std::vector<int> team = Partnerships(traits, players);
  for (const std::vector<int>& filling : EvenFillings(bots, players)) {
    const std::vector<std::vector<int>> seatings =
        DistinctSeatings(team, filling);
    if (seatings.empty()) {
      const int teams = *std::max_element(team.begin(), team.end()) + 1;
      return absl::InvalidArgumentError(absl::StrCat(
          "a ", players, "-seat game of ", teams,
          " teams needs at least ", teams,
          " bots, so that no bot plays on two teams (it would be credited "
          "with the win of both); got ",
          bots, bots == 1 ? " bot" : " bots", ": add a reference bot with --bot"));
    }
    groups.push_back(seatings.front());
  }
  return groups;
}

std::vector<std::vector<int>> SeatOrders(const GameTraits& traits,
                                         const std::vector<int>& group,
                                         bool duplicate,
                                         SeatingsKind seatings) {
  const std::vector<int> team =
      Partnerships(traits, static_cast<int>(group.size()));
  if (seatings == SeatingsKind::kAll) return DistinctSeatings(team, group);
  if (!duplicate) return Rotations(group, /*keep_repeats=*/true);
  if (!team.empty()) {
    return RotationsKeepPartners(team) ? Rotations(group, false)
                                       : DistinctSeatings(team, group);
  }
  if (group.size() <= 4) return DistinctSeatings(team, group);
  return Rotations(group, false);
}

std::string DescribeSchedule(const ScheduleConfig& config,
                             const std::vector<ScheduledMatch>& all) {
  std::string out;
  std::set<std::string> all_deal_sets;
  for (int g = 0; g < static_cast<int>(config.games.size()); ++g) {
    const GameSpec& game = config.games[g];
    std::set<std::string> deal_sets;
    std::map<std::pair<int, int>, int> sits;  // (bot, seat) -> matches
    int matches = 0;
    for (const ScheduledMatch& m : all) {
      if (m.game != g) continue;
      ++matches;
      deal_sets.insert(m.deal_set);
      all_deal_sets.insert(m.deal_set);
      for (size_t seat = 0; seat < m.seats.size(); ++seat) {
        ++sits[{m.seats[seat], static_cast<int>(seat)}];
      }
    }
    if (matches == 0) continue;
    // Per bot, how often it sits in each seat: even when every seat gets
    // the same count.
    std::string balance;
    bool even = true;
    int lowest = matches, highest = 0;
    std::set<int> bots_seen;
    for (const auto& [bot_seat, n] : sits) bots_seen.insert(bot_seat.first);
    std::set<int> counts;
    for (int bot : bots_seen) {
      std::set<int> per_seat;
      for (int seat = 0; seat < game.players; ++seat) {
        auto it = sits.find({bot, seat});
        const int n = it == sits.end() ? 0 : it->second;
        per_seat.insert(n);
        lowest = std::min(lowest, n);
        highest = std::max(highest, n);
      }
      even &= per_seat.size() == 1;
      counts.insert(*per_seat.begin());
    }
    if (even && counts.size() == 1) {
      balance = absl::StrCat("each bot sits in each seat ", *counts.begin(),
                             *counts.begin() == 1 ? " time" : " times");
    } else if (even) {
      balance =
          "each bot sits in each of its seats alike (bots that play more "
          "matches sit more often)";
    } else {
      balance = absl::StrCat(
          "NOT balanced: a bot sits in a seat ", lowest, " to ", highest,
          " times (as even as these groups allow)");
    }
    const size_t per_set = deal_sets.empty() ? 0 : matches / deal_sets.size();
    absl::StrAppend(
        &out, "  ", game.id, game.players, ": ",
        config.duplicate
            ? absl::StrCat(deal_sets.size(),
                           deal_sets.size() == 1 ? " deal set" : " deal sets",
                           " x ", per_set,
                           per_set == 1 ? " seating" : " seatings", " = ")
            : std::string(),
        matches, matches == 1 ? " match" : " matches",
        config.duplicate ? "" : ", each its own deal", "; ", balance, "\n");
  }
  return absl::StrCat("schedule: ", all.size(),
                      all.size() == 1 ? " match in " : " matches in ",
                      all_deal_sets.size(),
                      all_deal_sets.size() == 1 ? " deal set" : " deal sets",
                      config.duplicate ? " (duplicate deals)" : "", "\n", out);
}

absl::Status CheckScheduleShape(const ScheduleConfig& config) {
  if (config.bots.empty()) {
    return absl::InvalidArgumentError("no bots: give --bot='NAME=COMMAND'");
  }
  if (config.matches < 1) {
    return absl::InvalidArgumentError("--matches must be at least 1");
  }
  if (config.kind == ScheduleKind::kGauntlet && config.bots.size() < 2) {
    return absl::InvalidArgumentError(
        "a gauntlet needs a challenger (the first --bot) and opponents");
  }
  std::set<std::string> names;
  for (const BotSpec& bot : config.bots) {
    if (!names.insert(bot.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("two bots are named '", bot.name, "'"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ScheduledMatch>> BuildSchedule(
    const ScheduleConfig& config) {
  if (absl::Status shape = CheckScheduleShape(config); !shape.ok()) {
    return shape;
  }
  if (config.games.empty()) return absl::InvalidArgumentError("no games");
  std::vector<ScheduledMatch> schedule;
  for (int g = 0; g < static_cast<int>(config.games.size()); ++g) {
    const GameSpec& game = config.games[g];
    const std::string game_key = absl::StrCat(game.id, game.players);
    const GameTraits& traits = TraitsOf(game.id);
    absl::StatusOr<std::vector<std::vector<int>>> groups =
        Groups(static_cast<int>(config.bots.size()), game.players, config.kind,
               traits);
    if (!groups.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(game.id, ": ", groups.status().message()));
    }
    // With fewer bots than seats the groups are the fillings of the same
    // bots (who takes a seat more): one deal set seats them all, so that
    // within it every bot holds every seat alike and the deal's luck
    // cancels. Otherwise each group has deal sets of its own.
    std::vector<std::vector<std::vector<int>>> seatings_of;
    for (const std::vector<int>& group : *groups) {
      std::vector<std::vector<int>> seatings =
          SeatOrders(traits, group, config.duplicate, config.seatings);
      if (static_cast<int>(config.bots.size()) < game.players &&
          !seatings_of.empty()) {
        for (std::vector<int>& seating : seatings) {
          seatings_of.front().push_back(std::move(seating));
        }
      } else {
        seatings_of.push_back(std::move(seatings));
      }
    }
    for (size_t gi = 0; gi < seatings_of.size(); ++gi) {
      const std::vector<std::vector<int>>& seatings = seatings_of[gi];
      for (int d = 0; d < config.matches; ++d) {
        const std::string deal_set =
            absl::StrFormat("%s-g%03d-d%02d", game_key, gi, d);
        for (size_t o = 0; o < seatings.size(); ++o) {
          ScheduledMatch match;
          // Without duplicate play every match has its own deal.
          match.deal_set =
              config.duplicate ? deal_set : absl::StrCat(deal_set, "-s", o);
          match.deal_set_size =
              config.duplicate ? static_cast<int>(seatings.size()) : 1;
          match.key = absl::StrCat(deal_set, "-s", o);
          match.game = g;
          match.seats = seatings[o];
          schedule.push_back(std::move(match));
        }
      }
    }
  }
  return schedule;
}

absl::StatusOr<ShardSpec> ParseShardSpec(const std::string& shard) {
  ShardSpec spec;
  if (shard.empty()) return spec;
  std::vector<std::string> parts = absl::StrSplit(shard, '/');
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &spec.index) ||
      !absl::SimpleAtoi(parts[1], &spec.count) || spec.count < 1 ||
      spec.index < 0 || spec.index >= spec.count) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--shard wants I/N with 0 <= I < N (e.g. 0/4), got '", shard, "'"));
  }
  return spec;
}

absl::StatusOr<std::vector<ScheduledMatch>> SelectShard(
    const std::vector<ScheduledMatch>& schedule, const std::string& shard) {
  absl::StatusOr<ShardSpec> spec = ParseShardSpec(shard);
  if (!spec.ok()) return spec.status();
  std::vector<ScheduledMatch> selected;
  for (size_t i = 0; i < schedule.size(); ++i) {
    if (static_cast<int>(i % spec->count) == spec->index) {
      selected.push_back(schedule[i]);
    }
  }
  return selected;
}

}  // namespace cardref::tournament
