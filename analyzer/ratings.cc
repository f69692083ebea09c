#include "analyzer/ratings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analyzer/game_units.h"
#include "analyzer/inference/rating_bootstrap.h"
#include "analyzer/inference/separation.h"
#include "analyzer/interval_proto.h"
#include "analyzer/summary.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

// A rating estimate into `out`'s rating and interval fields.
void SetRating(const inference::Estimate& e, v1::PlayerRating* out) {
  if (e.value) out->set_rating(*e.value);
  if (e.ci.low) out->set_ci_low(*e.ci.low);
  if (e.ci.high) out->set_ci_high(*e.ci.high);
  out->set_ci_note(e.ci.note);
}

// The rating cell: the point, or the bound of a separated player.
std::string RatingCell(const v1::PlayerRating& p) {
  if (p.has_rating()) return Fixed(p.rating(), 1);
  if (p.separation() == "undefeated" && p.has_ci_low()) {
    return absl::StrCat(">= ", Fixed(p.ci_low(), 1));
  }
  if (p.separation() == "winless" && p.has_ci_high()) {
    return absl::StrCat("<= ", Fixed(p.ci_high(), 1));
  }
  return "\u2014";
}

// The interval cell: both bounds, or a dash and why there are not.
std::string IntervalCell(const v1::PlayerRating& p) {
  if (p.has_ci_low() && p.has_ci_high()) {
    return absl::StrCat(Fixed(p.ci_low(), 1), "..", Fixed(p.ci_high(), 1));
  }
  // The whole note follows the table.
  if (!p.separation().empty()) {
    return absl::StrCat("\u2014 (", p.separation(), ")");
  }
  return absl::StrCat("\u2014 (", Sanitize(p.ci_note()), ")");
}

// The players with no finite rating (undefeated or winless), each with its
// one-sided bound. Against rated opponents the bound is relative to their
// fitted ratings. Between two players only (`compared` == 2: one beat the
// other every time) there is no rated opponent: the bound is on their
// difference, and the two are placed around the anchor of 1500.
std::map<int, inference::SeparationFlag> Separated(
    int players, const std::vector<Comparison>& all,
    const std::vector<double>& theta, int compared) {
  std::map<int, inference::SeparationFlag> out;
  const bool pair = compared == 2;
  const std::vector<double> zero(theta.size(), 0.0);
  for (inference::SeparationFlag& f :
       inference::FindSeparation(players, all, pair ? zero : theta)) {
    const double n = f.wins + f.losses;
    if (pair) {
      const double difference = f.rating_bound - 1500;
      f.rating_bound = 1500 + difference / 2;
      f.note = absl::StrFormat(
          "%s in %g decisive results against the one other player: its "
          "rating minus the other's %s %+.1f, rating %s %.1f (one-sided "
          "95%%, Clopper-Pearson; the two centred on 1500)",
          f.undefeated ? "undefeated" : "winless", n,
          f.undefeated ? ">=" : "<=", difference, f.undefeated ? ">=" : "<=",
          f.rating_bound);
    }
    out.emplace(f.player, std::move(f));
  }
  return out;
}

}  // namespace

namespace {
// One team's players and its rank, while comparing teams.
struct TeamSide {
  std::vector<int> players;
  int rank = 0;
};
}  // namespace

std::vector<Comparison> GameComparisons(
    const v1::GameSummary& summary,
    const std::vector<std::string>& sorted_players) {
  std::vector<Comparison> out;
  if (summary.audit().verdict() != "OK") return out;
  auto index = [&](const v1::SeatSummary& seat) {
    const std::string key = PlayerKey(seat);
    auto it =
        std::lower_bound(sorted_players.begin(), sorted_players.end(), key);
    return it != sorted_players.end() && *it == key
               ? static_cast<int>(it - sorted_players.begin())
               : -1;
  };
  const auto& seats = summary.seats();
  const GameTraits& traits = ::cardref::TraitsOf(summary.game());
  if (traits.teams) {
    // Partners share their result: each pair of teams is one comparison of
    // the teams' players, by the rank of the team (KR-style partnerships).
    const std::vector<int> team = traits.teams(seats.size());
    std::map<int, TeamSide> sides;  // team -> (players, rank)
    for (int s = 0; s < seats.size(); ++s) {
      TeamSide& side = sides[team[s]];
      side.players.push_back(index(seats[s]));
      side.rank = seats[s].rank();
    }
    for (auto x = sides.begin(); x != sides.end(); ++x) {
      for (auto y = std::next(x); y != sides.end(); ++y) {
        const TeamSide& a = x->second;
        const TeamSide& b = y->second;
        if (a.rank == 0 || b.rank == 0) continue;
        if (std::count(a.players.begin(), a.players.end(), -1) > 0 ||
            std::count(b.players.begin(), b.players.end(), -1) > 0) {
          continue;
        }
        out.push_back({a.players, b.players,
                       a.rank < b.rank   ? 1.0
                       : a.rank > b.rank ? 0.0
                                         : 0.5,
                       1});
      }
    }
    return out;
  }
  const bool winners_only = traits.ranks_only_winners_and_losers;
  for (int i = 0; i < seats.size(); ++i) {
    for (int j = i + 1; j < seats.size(); ++j) {
      const int a = index(seats[i]), b = index(seats[j]);
      if (a < 0 || b < 0 || a == b) continue;
      const int ra = seats[i].rank(), rb = seats[j].rank();
      if (ra == 0 || rb == 0) continue;
      if (ra == rb && winners_only) continue;
      out.push_back({{a}, {b}, ra < rb ? 1.0 : ra > rb ? 0.0 : 0.5, 1});
    }
  }
  return out;
}

v1::RatingsReportProto BuildRatingsReport(
    const std::vector<v1::GameSummary>& summaries,
    const RatingOptions& options) {
  v1::RatingsReportProto report;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() != "OK") *report.add_skipped() = s.audit();
  }
  CountedGames counted = CountEachGameOnce(summaries);
  for (v1::SetAside& a : counted.set_aside) {
    *report.add_set_aside() = std::move(a);
  }
  std::map<std::string, std::vector<const v1::GameSummary*>> by_game;
  for (const v1::GameSummary* s : counted.games) {
    by_game[s->game()].push_back(s);
    report.set_logs_rated(report.logs_rated() + 1);
  }
  for (const auto& [game, games] : by_game) {
    std::set<std::string> keys;
    for (const v1::GameSummary* s : games) {
      for (const v1::SeatSummary& seat : s->seats()) {
        keys.insert(PlayerKey(seat));
      }
    }
    const std::vector<std::string> players(keys.begin(), keys.end());
    const int n = static_cast<int>(players.size());
    // Resampling units in the order of their keys, so that the report does
    // not depend on the names of the logs (shards of one event,
    // docs/scale.md).
    const GameUnits units = AssignUnits(games);
    std::vector<std::vector<Comparison>> by_unit(units.count);
    std::vector<std::vector<Comparison>> by_game_log(games.size());
    std::map<std::string, int64_t> games_played;
    for (size_t g = 0; g < games.size(); ++g) {
      std::set<std::string> here;
      for (const v1::SeatSummary& seat : games[g]->seats()) {
        here.insert(PlayerKey(seat));
      }
      for (const std::string& k : here) ++games_played[k];
      by_game_log[g] = GameComparisons(*games[g], players);
      for (const Comparison& c : by_game_log[g]) {
        by_unit[units.unit_of[g]].push_back(c);
      }
    }
    const inference::RatingFit fit = inference::FitRatings(
        n, by_unit, {options.bootstrap, options.seed});
    std::vector<const std::vector<Comparison>*> unit_ptrs;
    unit_ptrs.reserve(by_unit.size());
    for (const auto& u : by_unit) unit_ptrs.push_back(&u);
    const std::vector<Comparison> all = inference::AggregateComparisons(
        unit_ptrs, std::vector<int>(by_unit.size(), 1));
    std::vector<bool> compared(static_cast<size_t>(n), false);
    for (const Comparison& c : all) {
      for (int i : c.a) compared[i] = true;
      for (int i : c.b) compared[i] = true;
    }
    std::map<int, inference::SeparationFlag> separated = Separated(
        n, all, fit.theta,
        static_cast<int>(std::count(compared.begin(), compared.end(), true)));
    inference::IntervalOptions interval;
    interval.unit = units.kind;
    v1::GameRatings* out = report.add_games();
    out->set_game(game);
    out->set_games(static_cast<int64_t>(games.size()));
    out->set_bootstrap_samples(options.bootstrap);
    out->set_resampled_by(UnitName(units.kind));
    out->set_units(units.count);
    for (int i = 0; i < n; ++i) {
      v1::PlayerRating* r = out->add_players();
      r->set_player(players[i]);
      r->set_games(games_played[players[i]]);
      if (!compared[i]) {
        r->set_ci_note("no comparison with another player");
        continue;
      }
      auto flag = separated.find(i);
      if (flag == separated.end()) {
        SetRating(inference::PlayerRating(fit, i, interval), r);
        continue;
      }
      // No finite rating: the ridge's value would be a number with no
      // meaning. The one-sided bound instead.
      const inference::SeparationFlag& f = flag->second;
      r->set_separation(f.undefeated ? "undefeated" : "winless");
      if (f.undefeated) {
        r->set_ci_low(f.rating_bound);
      } else {
        r->set_ci_high(f.rating_bound);
      }
      r->set_ci_note(f.note);
    }
    // Partnerships: every side of more than one seat, by sorted player
    // indices; a team's rating is 1500 plus its partners' offsets.
    std::set<std::vector<int>> teams;
    for (const std::vector<Comparison>& comparisons : by_game_log) {
      for (const Comparison& c : comparisons) {
        for (const std::vector<int>* side : {&c.a, &c.b}) {
          if (side->size() < 2) continue;
          std::vector<int> sorted = *side;
          std::sort(sorted.begin(), sorted.end());
          teams.insert(std::move(sorted));
        }
      }
    }
    for (const std::vector<int>& team : teams) {
      v1::PlayerRating* r = out->add_teams();
      std::vector<std::string> names;
      std::vector<double> weights(static_cast<size_t>(n), 0.0);
      for (int i : team) {
        names.push_back(players[i]);
        weights[i] += 1;
      }
      r->set_player(absl::StrJoin(names, "+"));
      // A partner with no finite rating gives the team none: its sum would
      // carry the ridge's arbitrary value. Flagged like the partner.
      std::set<std::string> partner_flags;
      for (int i : team) {
        auto flag = separated.find(i);
        if (flag != separated.end()) {
          partner_flags.insert(flag->second.undefeated ? "undefeated"
                                                       : "winless");
        }
      }
      if (partner_flags.empty()) {
        SetRating(inference::RatingContrast(fit, weights, 1500, interval), r);
      } else {
        r->set_separation(partner_flags.size() == 1 ? *partner_flags.begin()
                                                    : "mixed");
        r->set_ci_note(absl::StrCat(
            "a partner is ", absl::StrJoin(partner_flags, " and another "),
            ": the team's fitted rating would be arbitrary"));
      }
      int64_t together = 0;
      for (const std::vector<Comparison>& comparisons : by_game_log) {
        bool played = false;
        for (const Comparison& c : comparisons) {
          for (const std::vector<int>* side : {&c.a, &c.b}) {
            std::vector<int> sorted = *side;
            std::sort(sorted.begin(), sorted.end());
            played |= sorted == team;
          }
        }
        together += played ? 1 : 0;
      }
      r->set_games(together);
    }
  }
  return report;
}

std::string RenderRatings(const v1::RatingsReportProto& report, Format format) {
  if (format == Format::kJson) return ToJson(report, true);
  std::string out;
  if (format == Format::kCsv) {
    out = "game,player,rating,ci_low,ci_high,games,separation,ci_note\n";
    for (const v1::GameRatings& g : report.games()) {
      for (const v1::PlayerRating& p : g.players()) {
        absl::StrAppend(&out, CsvField(g.game()), ",", CsvField(p.player()),
                        ",", CsvBound(p.has_rating(), p.rating(), 1), ",",
                        CsvBound(p.has_ci_low(), p.ci_low(), 1), ",",
                        CsvBound(p.has_ci_high(), p.ci_high(), 1), ",",
                        p.games(), ",", p.separation(), ",",
                        CsvField(p.ci_note()), "\n");
      }
    }
    return out;
  }
  absl::StrAppend(&out, SetAsideLine(report.set_aside()));
  for (const v1::GameRatings& g : report.games()) {
    const std::string unit =
        g.resampled_by() == "deal_set"
            ? (g.units() == 1 ? "deal set" : "deal sets")
            : (g.units() == 1 ? "match" : "matches");
    absl::StrAppend(&out, Sanitize(g.game()), ": ", g.games(),
                    " games in ", g.units(), " ", unit,
                    "; Bradley-Terry ratings, mean 1500; 95% interval: "
                    "cluster bootstrap of ",
                    g.bootstrap_samples(), " resamples of whole ", unit,
                    " (expanded percentile)\n");
    auto row = [&](const v1::PlayerRating& p) {
      return std::vector<std::string>{Sanitize(p.player()), RatingCell(p),
                                      IntervalCell(p),
                                      absl::StrCat(p.games())};
    };
    const std::vector<Column> columns = {
        {"player", true}, {"rating"}, {"95% interval"}, {"games"}};
    std::vector<std::vector<std::string>> rows;
    for (const v1::PlayerRating& p : g.players()) rows.push_back(row(p));
    absl::StrAppend(&out, RenderTable(columns, rows));
    for (const v1::PlayerRating& p : g.players()) {
      if (p.separation().empty()) continue;
      absl::StrAppend(&out, "  ", Sanitize(p.player()), ": ",
                      Sanitize(p.ci_note()),
                      "; its fitted rating would be arbitrary\n");
    }
    if (g.teams().empty()) continue;
    rows.clear();
    for (const v1::PlayerRating& p : g.teams()) rows.push_back(row(p));
    absl::StrAppend(&out, "teams (strength = the sum of the partners'):\n",
                    RenderTable({{"team", true},
                                 {"rating"},
                                 {"95% interval"},
                                 {"games"}},
                                rows));
    for (const v1::PlayerRating& t : g.teams()) {
      if (t.separation().empty()) continue;
      absl::StrAppend(&out, "  ", Sanitize(t.player()), ": ",
                      Sanitize(t.ci_note()), "\n");
    }
  }
  return out + SkippedSection(report.skipped());
}

}  // namespace cardref::analyzer
