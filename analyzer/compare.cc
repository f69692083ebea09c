#include "analyzer/compare.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/game_units.h"
#include "analyzer/inference/unit_estimators.h"
#include "analyzer/inference/variance_reduction.h"
#include "analyzer/interval_proto.h"
#include "analyzer/summary.h"

namespace cardref::analyzer {
namespace {

bool Has(const v1::GameSummary& s, const std::string& key) {
  return std::any_of(
      s.seats().begin(), s.seats().end(),
      [&](const v1::SeatSummary& x) { return PlayerKey(x) == key; });
}

v1::OutcomeCounts ToCounts(const inference::OutcomeCounts& c) {
  v1::OutcomeCounts out;
  out.set_ahead(c.ahead);
  out.set_level(c.level);
  out.set_behind(c.behind);
  return out;
}

std::string Counts(const v1::OutcomeCounts& c) {
  return absl::StrCat(c.ahead(), "-", c.behind(), "-", c.level());
}

// "10 deal sets", "1 match".
std::string Units(const std::string& unit_name, int64_t n) {
  if (unit_name == "deal_set") return absl::StrCat(n, n == 1 ? " deal set" : " deal sets");
  return absl::StrCat(n, n == 1 ? " match" : " matches");
}

}  // namespace

SprtResult Sprt(const std::vector<double>& unit_scores, double elo0,
                double elo1, double alpha, double beta,
                inference::UnitKind unit) {
  return inference::Sprt(unit_scores, {elo0, elo1, alpha, beta}, unit);
}

std::optional<int64_t> GamesForEloHalfWidth(double se_per_game, double score,
                                            double half_width) {
  if (!(score > 0 && score < 1) || !(se_per_game > 0) || !(half_width > 0)) {
    return std::nullopt;
  }
  // Elo = 400 log10(s / (1 - s)): d Elo / d s = 400 / (ln 10 s (1 - s)).
  const double slope = 400 / (std::log(10.0) * score * (1 - score));
  constexpr double kZ95 = 1.959963984540054;  // many games: normal
  const double games = std::pow(kZ95 * se_per_game * slope / half_width, 2);
  return static_cast<int64_t>(std::ceil(games));
}

absl::StatusOr<PairedResult> ComparePlayers(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options) {
  const std::string& a = options.player_a;
  const std::string& b = options.player_b;
  if (a == b) {
    return absl::InvalidArgumentError("compare needs two different players");
  }
  CountedGames counted = CountEachGameOnce(summaries);
  std::set<std::string> both;
  for (const v1::GameSummary* s : counted.games) {
    if (Has(*s, a) && Has(*s, b)) both.insert(s->game());
  }
  PairedResult result;
  result.game = options.game;
  if (result.game.empty()) {
    if (both.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "no log that audits OK has both '", a, "' and '", b, "'"));
    }
    if (both.size() > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", a, "' and '", b,
                       "' met in several games; choose one with --game"));
    }
    result.game = *both.begin();
  } else if (both.count(result.game) == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no ", result.game, " log that audits OK has both '", a,
                     "' and '", b, "'"));
  }
  std::vector<const v1::GameSummary*> games;
  for (const v1::GameSummary* s : counted.games) {
    if (s->game() == result.game && Has(*s, a) && Has(*s, b)) {
      games.push_back(s);
    }
  }
  const GameUnits units = AssignUnits(games);
  const std::vector<std::string> pair =
      a < b ? std::vector<std::string>{a, b} : std::vector<std::string>{b, a};
  const int ia = a < b ? 0 : 1, ib = 1 - ia;
  std::vector<inference::UnitResults> unit_results(units.count);
  struct Scores {
    double a = 0, b = 0;
    int64_t na = 0, nb = 0;
  };
  std::vector<Scores> scores(units.count);
  for (size_t i = 0; i < games.size(); ++i) {
    const v1::GameSummary& s = *games[i];
    const int u = units.unit_of[i];
    unit_results[u].push_back(ToMatchResult(s, pair));
    result.higher_score_is_better = s.higher_score_is_better();
    for (const v1::SeatSummary& seat : s.seats()) {
      const std::string key = PlayerKey(seat);
      if (key == a) {
        scores[u].a += static_cast<double>(seat.score());
        ++scores[u].na;
      } else if (key == b) {
        scores[u].b += static_cast<double>(seat.score());
        ++scores[u].nb;
      }
    }
  }
  inference::IntervalOptions interval;
  interval.unit = units.kind;
  result.paired = inference::ComparePaired(unit_results, ia, ib, interval);
  for (int u : result.paired.unit_index) {
    result.score_differences.push_back(scores[u].a / scores[u].na -
                                       scores[u].b / scores[u].nb);
  }
  result.set_aside = std::move(counted.set_aside);
  return result;
}

absl::StatusOr<v1::CompareReportProto> BuildCompareReport(
    const std::vector<v1::GameSummary>& summaries,
    const CompareOptions& options) {
  absl::StatusOr<PairedResult> compared = ComparePlayers(summaries, options);
  if (!compared.ok()) return compared.status();
  const inference::PairedComparison& p = compared->paired;
  v1::CompareReportProto report;
  report.set_game(compared->game);
  report.set_player_a(options.player_a);
  report.set_player_b(options.player_b);
  report.set_paired_by(UnitName(p.unit));
  report.set_units(static_cast<int64_t>(p.unit_outcomes.size()));
  report.set_higher_score_is_better(compared->higher_score_is_better);
  inference::IntervalOptions interval;
  interval.unit = p.unit;
  const inference::Estimate difference =
      inference::UnitMean(compared->score_differences, interval);
  report.set_score_difference(difference.value.value_or(0));
  *report.mutable_score_difference_ci() = ToIntervalProto(difference);
  report.set_a_ahead(p.pairs.ahead);
  report.set_b_ahead(p.pairs.behind);
  report.set_level(p.pairs.level);
  if (p.score.value) report.set_paired_score(*p.score.value);
  *report.mutable_paired_score_ci() = ToIntervalProto(p.score);
  if (p.elo.value) report.set_paired_elo(*p.elo.value);
  *report.mutable_paired_elo_ci() = ToIntervalProto(p.elo);
  *report.mutable_matches() = ToCounts(p.matches);
  *report.mutable_unit_counts() = ToCounts(p.units);
  const SprtResult sprt = Sprt(p.unit_outcomes, 0, options.elo1,
                               options.alpha, options.beta, p.unit);
  report.set_elo1(options.elo1);
  report.set_alpha(options.alpha);
  report.set_beta(options.beta);
  report.set_llr(sprt.llr);
  report.set_lower_bound(sprt.lower);
  report.set_upper_bound(sprt.upper);
  report.set_verdict(sprt.verdict);
  report.set_sprt_mean(sprt.mean);
  report.set_sprt_variance(sprt.variance);
  // Only deal sets share deals: without them there is nothing to measure.
  inference::VarianceReduction vr;
  if (p.unit == inference::UnitKind::kDealSet) {
    vr = inference::MeasureVarianceReduction(p.match_outcomes);
  } else {
    vr.note = "no deal sets: every match has a deal of its own";
  }
  v1::VarianceReductionProto* v = report.mutable_variance_reduction();
  v->set_units(vr.units);
  v->set_games(vr.games);
  if (vr.duplicate_se_per_game) {
    v->set_duplicate_se_per_game(*vr.duplicate_se_per_game);
  }
  if (vr.independent_se_per_game) {
    v->set_independent_se_per_game(*vr.independent_se_per_game);
  }
  if (vr.ratio) v->set_ratio(*vr.ratio);
  if (vr.games_worth) v->set_games_worth(*vr.games_worth);
  constexpr double kHalfWidth = 25;
  if (p.score.value && vr.duplicate_se_per_game) {
    if (auto n = GamesForEloHalfWidth(*vr.duplicate_se_per_game,
                                      *p.score.value, kHalfWidth)) {
      v->set_duplicate_games_for_25(*n);
    }
  }
  if (p.score.value && vr.independent_se_per_game) {
    if (auto n = GamesForEloHalfWidth(*vr.independent_se_per_game,
                                      *p.score.value, kHalfWidth)) {
      v->set_independent_games_for_25(*n);
    }
  }
  v->set_note(vr.note);
  for (v1::SetAside& s : compared->set_aside) {
    *report.add_set_aside() = std::move(s);
  }
  return report;
}

std::string RenderCompare(const v1::CompareReportProto& r, Format format) {
  if (format == Format::kJson) return ToJson(r, true);
  const v1::Interval& d = r.score_difference_ci();
  const v1::Interval& ps = r.paired_score_ci();
  if (format == Format::kCsv) {
    return absl::StrCat(
        "game,player_a,player_b,paired_by,units,score_difference,ci_low,"
        "ci_high,a_ahead,b_ahead,level,elo1,alpha,beta,llr,lower_bound,"
        "upper_bound,verdict,higher_score_is_better,paired_score,"
        "paired_score_low,paired_score_high,paired_elo,paired_elo_low,"
        "paired_elo_high\n",
        CsvField(r.game()), ",", CsvField(r.player_a()), ",",
        CsvField(r.player_b()), ",", r.paired_by(), ",", r.units(), ",",
        Fixed(r.score_difference(), 4), ",", CsvBound(d.has_low(), d.low(), 4),
        ",", CsvBound(d.has_high(), d.high(), 4), ",", r.a_ahead(), ",",
        r.b_ahead(), ",", r.level(), ",", Fixed(r.elo1(), 1), ",",
        Fixed(r.alpha(), 3), ",", Fixed(r.beta(), 3), ",", Fixed(r.llr(), 4),
        ",", Fixed(r.lower_bound(), 4), ",", Fixed(r.upper_bound(), 4), ",",
        CsvField(r.verdict()), ",",
        r.higher_score_is_better() ? "true" : "false", ",",
        CsvBound(r.has_paired_score(), r.paired_score(), 4), ",",
        CsvBound(ps.has_low(), ps.low(), 4), ",",
        CsvBound(ps.has_high(), ps.high(), 4), ",",
        CsvBound(r.has_paired_elo(), r.paired_elo(), 1), ",",
        CsvBound(r.paired_elo_ci().has_low(), r.paired_elo_ci().low(), 1), ",",
        CsvBound(r.paired_elo_ci().has_high(), r.paired_elo_ci().high(), 1),
        "\n");
  }
  const std::string unit = r.paired_by() == "deal_set" ? "deal set" : "match";
  std::string out = absl::StrCat(
      SetAsideLine(r.set_aside()), Sanitize(r.game()), ": ",
      Sanitize(r.player_a()), " (A) vs ", Sanitize(r.player_b()), " (B)\n",
      "  paired by ", unit, ": ", Units(r.paired_by(), r.units()),
      " where they met as opponents\n");
  absl::StrAppend(
      &out, "  A's score against B (1 ahead, 1/2 level, 0 behind; the mean "
            "per ", unit, ", then over ", unit == "match" ? "matches" : "deal sets",
      "): ",
      r.has_paired_score() ? Fixed(r.paired_score(), 3) : std::string("\u2014"),
      ", 95% interval ", FormatInterval(ps, 3), "\n",
      "  in rating points, A - B: ",
      r.has_paired_elo() ? Fixed(r.paired_elo(), 1) : std::string("\u2014"),
      ", 95% interval ", FormatInterval(r.paired_elo_ci(), 1), "\n");
  absl::StrAppend(
      &out, "  head to head (A ahead-behind-level): per seat pair ",
      r.a_ahead(), "-", r.b_ahead(), "-", r.level(),
      " (as stats counts them), per match ", Counts(r.matches()),
      r.paired_by() == "deal_set"
          ? absl::StrCat(", per deal set ", Counts(r.unit_counts()))
          : std::string(),
      "\n");
  absl::StrAppend(
      &out, "  score difference (A - B) per ", unit, ": ",
      Fixed(r.score_difference(), 2), ", 95% interval ", FormatInterval(d, 2),
      r.higher_score_is_better() ? " (higher scores are better)"
                                 : " (lower scores are better)",
      "\n");
  // Rating points, not the score difference printed above.
  absl::StrAppend(
      &out, "  SPRT H0: A - B = 0 vs H1: A - B = ", Fixed(r.elo1(), 1),
      " rating points (alpha ", Fixed(r.alpha(), 3), ", beta ",
      Fixed(r.beta(), 3), ") on the ", unit, " scores (mean ",
      Fixed(r.sprt_mean(), 3), ", variance ", Fixed(r.sprt_variance(), 4),
      "): LLR ", Fixed(r.llr(), 3), ", bounds [", Fixed(r.lower_bound(), 3),
      ", ", Fixed(r.upper_bound(), 3), "]: ", Sanitize(r.verdict()), "\n");
  const v1::VarianceReductionProto& v = r.variance_reduction();
  if (v.has_ratio()) {
    absl::StrAppend(
        &out, "  standard error per game: ",
        Fixed(v.duplicate_se_per_game(), 3), " paired by ", unit, ", ",
        Fixed(v.independent_se_per_game(), 3),
        " as if every game had its own deal (ratio ", Fixed(v.ratio(), 2),
        v.has_games_worth()
            ? absl::StrCat(": one game here is worth ",
                           Fixed(v.games_worth(), 2), " with independent deals")
            : std::string(),
        ")");
    if (v.has_duplicate_games_for_25() && v.has_independent_games_for_25()) {
      absl::StrAppend(&out, "; games for a 95% interval of +-25 points: ",
                      v.duplicate_games_for_25(), " against ",
                      v.independent_games_for_25());
    }
    absl::StrAppend(&out, "\n");
  } else if (!v.note().empty()) {
    absl::StrAppend(&out, "  standard error per game: \u2014 (",
                    Sanitize(v.note()), ")\n");
  }
  return out;
}

}  // namespace cardref::analyzer
