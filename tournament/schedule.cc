#include "tournament/schedule.h"

#include <algorithm>
#include <numeric>
#include <set>

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

std::vector<int> Filled(std::vector<int> bots, int players) {
  std::vector<int> group;
  group.reserve(players);
  for (int i = 0; i < players; ++i) group.push_back(bots[i % bots.size()]);
  return group;
}

}  // namespace

std::vector<std::vector<int>> Groups(int bots, int players, ScheduleKind kind) {
  std::vector<std::vector<int>> groups;
  std::vector<int> current;
  if (kind == ScheduleKind::kGauntlet && bots >= 2) {
    std::vector<std::vector<int>> others;
    if (bots - 1 >= players - 1) {
      Subsets(1, bots, players - 1, current, others);
    } else {
      std::vector<int> all(bots - 1);
      std::iota(all.begin(), all.end(), 1);
      others.push_back(Filled(all, players - 1));
    }
    for (std::vector<int>& o : others) {
      o.insert(o.begin(), 0);
      groups.push_back(o);
    }
    return groups;
  }
  if (bots >= players) {
    Subsets(0, bots, players, current, groups);
  } else {
    std::vector<int> all(bots);
    std::iota(all.begin(), all.end(), 0);
    groups.push_back(Filled(all, players));
  }
  return groups;
}

std::vector<std::vector<int>> SeatOrders(const GameTraits& traits, int n,
                                         bool duplicate) {
  std::vector<std::vector<int>> orders;
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  if (duplicate && n <= 4 && !traits.teams) {
    do {
      orders.push_back(p);
    } while (std::next_permutation(p.begin(), p.end()));
    return orders;
  }
  for (int shift = 0; shift < n; ++shift) {
    std::vector<int> rotated(n);
    for (int seat = 0; seat < n; ++seat) rotated[seat] = (seat + shift) % n;
    orders.push_back(rotated);
  }
  return orders;
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
    const std::vector<std::vector<int>> groups =
        Groups(static_cast<int>(config.bots.size()), game.players, config.kind);
    const std::vector<std::vector<int>> orders =
        SeatOrders(TraitsOf(game.id), game.players, config.duplicate);
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      for (int d = 0; d < config.matches; ++d) {
        const std::string deal_set =
            absl::StrFormat("%s-g%03d-d%02d", game_key, gi, d);
        for (size_t o = 0; o < orders.size(); ++o) {
          ScheduledMatch match;
          // Without duplicate play every match has its own deal.
          match.deal_set =
              config.duplicate ? deal_set : absl::StrCat(deal_set, "-s", o);
          match.key = absl::StrCat(deal_set, "-s", o);
          match.game = g;
          for (int seat = 0; seat < game.players; ++seat) {
            match.seats.push_back(groups[gi][orders[o][seat]]);
          }
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
