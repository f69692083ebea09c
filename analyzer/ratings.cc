#include "analyzer/ratings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analyzer/inference/bootstrap.h"
#include "games/all_games.h"
#include "analyzer/summary.h"
#include "referee/base/rng.h"

namespace cardref::analyzer {
namespace {

constexpr double kZ95 = 1.959963984540054;

using inference::Percentile;

std::vector<Comparison> Aggregate(
    const std::vector<const std::vector<Comparison>*>& units,
    const std::vector<int>& multiplicity) {
  return inference::AggregateComparisons(units, multiplicity);
}

std::string Fixed(double x, int decimals) {
  return absl::StrFormat("%.*f", decimals, x);
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
  std::map<std::string, std::vector<const v1::GameSummary*>> by_game;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() == "OK") {
      by_game[s.game()].push_back(&s);
      report.set_logs_rated(report.logs_rated() + 1);
    } else {
      *report.add_skipped() = s.audit();
    }
  }
  for (const auto& [game, games] : by_game) {
    std::set<std::string> keys;
    bool deal_sets = false;
    for (const v1::GameSummary* s : games) {
      for (const v1::SeatSummary& seat : s->seats())
        keys.insert(PlayerKey(seat));
      deal_sets |= !s->deal_set_id().empty();
    }
    const std::vector<std::string> players(keys.begin(), keys.end());
    std::map<std::string, int64_t> games_played;
    // Resampling units: deal sets (a log without one is its own unit) or
    // matches, in order of their keys, so that the report does not depend
    // on the names of the logs (shards of one event, docs/scale.md).
    std::map<std::string, std::vector<Comparison>> by_unit;
    for (const v1::GameSummary* s : games) {
      std::set<std::string> here;
      for (const v1::SeatSummary& seat : s->seats())
        here.insert(PlayerKey(seat));
      for (const std::string& k : here) ++games_played[k];
      const std::string unit = deal_sets && !s->deal_set_id().empty()
                                   ? absl::StrCat("d:", s->deal_set_id())
                                   : absl::StrCat("f:", s->audit().file());
      std::vector<Comparison>& into = by_unit[unit];
      for (Comparison& c : GameComparisons(*s, players)) {
        into.push_back(std::move(c));
      }
    }
    std::vector<std::vector<Comparison>> units;
    units.reserve(by_unit.size());
    for (auto& [key, comparisons] : by_unit) {
      units.push_back(std::move(comparisons));
    }
    std::vector<const std::vector<Comparison>*> unit_ptrs;
    unit_ptrs.reserve(units.size());
    for (const auto& u : units) unit_ptrs.push_back(&u);
    const int n = static_cast<int>(players.size());
    const std::vector<double> theta = FitBradleyTerry(
        n, Aggregate(unit_ptrs, std::vector<int>(units.size(), 1)));
    std::vector<std::vector<double>> samples(players.size());
    std::vector<std::vector<double>> resampled_thetas;
    std::vector<std::vector<bool>> resampled_present;
    Rng rng(options.seed);
    for (int b = 0; b < options.bootstrap && !units.empty(); ++b) {
      std::vector<int> multiplicity(units.size(), 0);
      for (size_t k = 0; k < units.size(); ++k) {
        ++multiplicity[rng.Uniform(static_cast<uint32_t>(units.size()))];
      }
      const std::vector<Comparison> resample =
          Aggregate(unit_ptrs, multiplicity);
      const std::vector<double> t = FitBradleyTerry(n, resample);
      resampled_thetas.push_back(t);
      // A player missing from a resample has no rating in it.
      std::vector<bool> present(players.size(), false);
      for (const Comparison& c : resample) {
        for (int i : c.a) present[i] = true;
        for (int i : c.b) present[i] = true;
      }
      for (int i = 0; i < n; ++i) {
        if (present[i]) samples[i].push_back(ToRating(t[i]));
      }
      resampled_present.push_back(present);
    }
    // Partnerships: every side of more than one player, by sorted player
    // indices.
    std::set<std::vector<int>> teams;
    for (const v1::GameSummary* s : games) {
      for (const Comparison& c : GameComparisons(*s, players)) {
        for (const std::vector<int>* side : {&c.a, &c.b}) {
          if (side->size() < 2) continue;
          std::vector<int> sorted = *side;
          std::sort(sorted.begin(), sorted.end());
          teams.insert(std::move(sorted));
        }
      }
    }
    v1::GameRatings* out = report.add_games();
    out->set_game(game);
    out->set_games(static_cast<int64_t>(games.size()));
    out->set_bootstrap_samples(options.bootstrap);
    out->set_resampled_by(deal_sets ? "deal_set" : "match");
    for (int i = 0; i < n; ++i) {
      v1::PlayerRating* r = out->add_players();
      r->set_player(players[i]);
      r->set_rating(ToRating(theta[i]));
      r->set_ci_low(samples[i].empty() ? r->rating()
                                       : Percentile(samples[i], 0.025));
      r->set_ci_high(samples[i].empty() ? r->rating()
                                        : Percentile(samples[i], 0.975));
      r->set_games(games_played[players[i]]);
    }
    for (const std::vector<int>& team : teams) {
      v1::PlayerRating* r = out->add_teams();
      std::vector<std::string> names;
      double theta_sum = 0;
      for (int i : team) {
        names.push_back(players[i]);
        theta_sum += theta[i];
      }
      r->set_player(absl::StrJoin(names, "+"));
      r->set_rating(ToRating(theta_sum));
      std::vector<double> values;
      for (size_t b = 0; b < resampled_thetas.size(); ++b) {
        double sum = 0;
        bool all_present = true;
        for (int i : team) {
          all_present &= resampled_present[b][i];
          sum += resampled_thetas[b][i];
        }
        if (all_present) values.push_back(ToRating(sum));
      }
      r->set_ci_low(values.empty() ? r->rating() : Percentile(values, 0.025));
      r->set_ci_high(values.empty() ? r->rating() : Percentile(values, 0.975));
      int64_t together = 0;
      for (const v1::GameSummary* s : games) {
        bool played = false;
        for (const Comparison& c : GameComparisons(*s, players)) {
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

SprtResult Sprt(const std::vector<double>& unit_scores, double elo0,
                double elo1, double alpha, double beta,
                inference::UnitKind unit) {
  return inference::Sprt(unit_scores, {elo0, elo1, alpha, beta}, unit);
}

absl::StatusOr<v1::CompareReportProto> BuildCompareReport(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options) {
  const std::string& a = options.player_a;
  const std::string& b = options.player_b;
  if (a == b) {
    return absl::InvalidArgumentError("compare needs two different players");
  }
  auto has = [](const v1::GameSummary& s, const std::string& key) {
    return std::any_of(
        s.seats().begin(), s.seats().end(),
        [&](const v1::SeatSummary& x) { return PlayerKey(x) == key; });
  };
  std::set<std::string> both;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() == "OK" && has(s, a) && has(s, b)) {
      both.insert(s.game());
    }
  }
  std::string game = options.game;
  if (game.empty()) {
    if (both.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no log that audits OK has both '", a, "' and '", b, "'"));
    }
    if (both.size() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", a, "' and '", b,
                       "' met in several games; choose one with --game"));
    }
    game = *both.begin();
  } else if (both.count(game) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no ", game, " log that audits OK has both '", a, "' and '", b, "'"));
  }
  v1::CompareReportProto report;
  report.set_game(game);
  report.set_player_a(a);
  report.set_player_b(b);
  struct Unit {
    double sum_a = 0, sum_b = 0;
    int64_t n_a = 0, n_b = 0;
    double score = 0;
    int64_t comparisons = 0;
  };
  std::map<std::string, Unit> units;
  bool deal_sets = false;
  const std::vector<std::string> pair =
      a < b ? std::vector<std::string>{a, b} : std::vector<std::string>{b, a};
  const int ia = a < b ? 0 : 1, ib = 1 - ia;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() != "OK" || s.game() != game || !has(s, a) ||
        !has(s, b)) {
      continue;
    }
    deal_sets |= !s.deal_set_id().empty();
    report.set_higher_score_is_better(s.higher_score_is_better());
    Unit& u =
        units[s.deal_set_id().empty() ? absl::StrCat("f:", s.audit().file())
                                      : absl::StrCat("d:", s.deal_set_id())];
    for (const v1::SeatSummary& seat : s.seats()) {
      if (PlayerKey(seat) == a) {
        u.sum_a += static_cast<double>(seat.score());
        ++u.n_a;
      } else if (PlayerKey(seat) == b) {
        u.sum_b += static_cast<double>(seat.score());
        ++u.n_b;
      }
    }
    for (const Comparison& c : GameComparisons(s, pair)) {
      const bool a_left = std::count(c.a.begin(), c.a.end(), ia) > 0 &&
                          std::count(c.b.begin(), c.b.end(), ib) > 0;
      const bool a_right = std::count(c.b.begin(), c.b.end(), ia) > 0 &&
                           std::count(c.a.begin(), c.a.end(), ib) > 0;
      if (a_left == a_right) continue;  // partners, or not both
      const double score = a_left ? c.score : 1 - c.score;
      u.score += score;
      ++u.comparisons;
      if (score == 1) report.set_a_ahead(report.a_ahead() + 1);
      if (score == 0) report.set_b_ahead(report.b_ahead() + 1);
      if (score == 0.5) report.set_level(report.level() + 1);
    }
  }
  report.set_paired_by(deal_sets ? "deal_set" : "match");
  report.set_units(static_cast<int64_t>(units.size()));
  std::vector<double> diffs, scores;
  for (const auto& [key, u] : units) {
    diffs.push_back(u.sum_a / u.n_a - u.sum_b / u.n_b);
    if (u.comparisons > 0) scores.push_back(u.score / u.comparisons);
  }
  double mean = 0, sd = 0;
  for (double d : diffs) mean += d;
  if (!diffs.empty()) mean /= static_cast<double>(diffs.size());
  for (double d : diffs) sd += (d - mean) * (d - mean);
  if (diffs.size() > 1)
    sd = std::sqrt(sd / static_cast<double>(diffs.size() - 1));
  const double half =
      diffs.size() > 1
          ? kZ95 * sd / std::sqrt(static_cast<double>(diffs.size()))
          : 0;
  report.set_score_difference(mean);
  report.mutable_score_difference_ci()->set_low(mean - half);
  report.mutable_score_difference_ci()->set_high(mean + half);
  const SprtResult sprt =
      Sprt(scores, 0, options.elo1, options.alpha, options.beta,
           deal_sets ? inference::UnitKind::kDealSet
                     : inference::UnitKind::kMatch);
  report.set_elo1(options.elo1);
  report.set_alpha(options.alpha);
  report.set_beta(options.beta);
  report.set_llr(sprt.llr);
  report.set_lower_bound(sprt.lower);
  report.set_upper_bound(sprt.upper);
  report.set_verdict(sprt.verdict);
  return report;
}

std::string RenderRatings(const v1::RatingsReportProto& report, Format format) {
  if (format == Format::kJson) return ToJson(report, true);
  std::string out;
  if (format == Format::kCsv) {
    out = "game,player,rating,ci_low,ci_high,games\n";
    for (const v1::GameRatings& g : report.games()) {
      for (const v1::PlayerRating& p : g.players()) {
        absl::StrAppend(&out, CsvField(g.game()), ",", CsvField(p.player()),
                        ",", Fixed(p.rating(), 1), ",", Fixed(p.ci_low(), 1),
                        ",", Fixed(p.ci_high(), 1), ",", p.games(), "\n");
      }
    }
    return out;
  }
  for (const v1::GameRatings& g : report.games()) {
    absl::StrAppend(&out, Sanitize(g.game()), ": ", g.games(),
                    " games; Bradley-Terry ratings, mean 1500; 95% bootstrap "
                    "interval over ",
                    g.bootstrap_samples(), " resamples by ", g.resampled_by(),
                    "\n");
    size_t width = 6;
    for (const v1::PlayerRating& p : g.players()) {
      width = std::max(width, Sanitize(p.player()).size());
    }
    for (const v1::PlayerRating& p : g.teams()) {
      width = std::max(width, Sanitize(p.player()).size());
    }
    absl::StrAppend(
        &out, absl::StrFormat("%-*s  %7s  %17s  %5s\n", static_cast<int>(width),
                              "player", "rating", "95% interval", "games"));
    for (const v1::PlayerRating& p : g.players()) {
      absl::StrAppend(
          &out,
          absl::StrFormat(
              "%-*s  %7.1f  %17s  %5d\n", static_cast<int>(width),
              Sanitize(p.player()), p.rating(),
              absl::StrCat(Fixed(p.ci_low(), 1), "..", Fixed(p.ci_high(), 1)),
              p.games()));
    }
    if (g.teams().empty()) continue;
    absl::StrAppend(&out, "teams (strength = the sum of the partners'):\n");
    for (const v1::PlayerRating& p : g.teams()) {
      absl::StrAppend(
          &out,
          absl::StrFormat(
              "%-*s  %7.1f  %17s  %5d\n", static_cast<int>(width),
              Sanitize(p.player()), p.rating(),
              absl::StrCat(Fixed(p.ci_low(), 1), "..", Fixed(p.ci_high(), 1)),
              p.games()));
    }
  }
  return out + SkippedSection(report.skipped());
}

std::string RenderCompare(const v1::CompareReportProto& r, Format format) {
  if (format == Format::kJson) return ToJson(r, true);
  if (format == Format::kCsv) {
    return absl::StrCat(
        "game,player_a,player_b,paired_by,units,score_difference,ci_low,"
        "ci_high,a_ahead,b_ahead,level,elo1,alpha,beta,llr,lower_bound,"
        "upper_bound,verdict,higher_score_is_better\n",
        CsvField(r.game()), ",", CsvField(r.player_a()), ",",
        CsvField(r.player_b()), ",", r.paired_by(), ",", r.units(), ",",
        Fixed(r.score_difference(), 4), ",",
        Fixed(r.score_difference_ci().low(), 4), ",",
        Fixed(r.score_difference_ci().high(), 4), ",", r.a_ahead(), ",",
        r.b_ahead(), ",", r.level(), ",", Fixed(r.elo1(), 1), ",",
        Fixed(r.alpha(), 3), ",", Fixed(r.beta(), 3), ",", Fixed(r.llr(), 4),
        ",", Fixed(r.lower_bound(), 4), ",", Fixed(r.upper_bound(), 4), ",",
        r.verdict(), ",", r.higher_score_is_better() ? "true" : "false", "\n");
  }
  return absl::StrCat(
      Sanitize(r.game()), ": ", Sanitize(r.player_a()), " vs ",
      Sanitize(r.player_b()), "\n", "  paired by ", r.paired_by(), ": ",
      r.units(), " units; score difference (A - B) ",
      Fixed(r.score_difference(), 2), ", 95% interval ",
      Fixed(r.score_difference_ci().low(), 2), "..",
      Fixed(r.score_difference_ci().high(), 2),
      r.higher_score_is_better() ? " (higher scores are better)"
                                 : " (lower scores are better)",
      "\n", "  finishing order: A ahead ", r.a_ahead(), ", B ahead ",
      r.b_ahead(), ", level ", r.level(), "\n",
      // Rating points, not the score difference printed above.
      "  SPRT H0: A - B = 0 vs H1: A - B = ", Fixed(r.elo1(), 1),
      " rating points (alpha ",
      Fixed(r.alpha(), 3), ", beta ", Fixed(r.beta(), 3), "): LLR ",
      Fixed(r.llr(), 3), ", bounds [", Fixed(r.lower_bound(), 3), ", ",
      Fixed(r.upper_bound(), 3), "]: ", r.verdict(), "\n");
}

}  // namespace cardref::analyzer
