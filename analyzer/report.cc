#include "analyzer/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/game_units.h"
#include "analyzer/inference/seat_effects.h"
#include "analyzer/inference/unit_estimators.h"
#include "analyzer/interval_proto.h"
#include "analyzer/stats_hook.h"
#include "analyzer/summary.h"
#include "games/all_games.h"

namespace cardref::analyzer {
namespace {

struct MomentSum {
  int64_t count = 0;
  double sum = 0;
  double sum_squares = 0;
  void Add(const v1::Moments& m) {
    count += m.count();
    sum += m.sum();
    sum_squares += m.sum_squares();
  }
  void Add(double x) {
    ++count;
    sum += x;
    sum_squares += x * x;
  }
  double mean() const { return count == 0 ? 0 : sum / count; }
  double stddev() const {
    if (count < 2) return 0;
    const double n = static_cast<double>(count);
    return std::sqrt(std::max(0.0, sum_squares - sum * sum / n) / (n - 1));
  }
};

struct PlayerTally {
  std::set<std::string> matches;  // files, so two seats count one game
  int64_t seats = 0, wins = 0, draws = 0;
  MomentSum score;
  std::map<int64_t, int64_t> scores, ranks;
  int64_t decisions = 0, own_decisions = 0, max_micros = 0, micros = 0;
  std::map<int32_t, int64_t> histogram;
  int64_t rejected = 0, timeouts = 0, substitutions = 0, forfeits = 0;
  std::map<std::string, int64_t> faults;
  std::map<std::string, MomentSum> metrics;
  std::map<int, std::pair<double, double>> by_unit;  // unit -> wins, seats
};

struct SeatTally {
  int64_t games = 0, wins = 0;
  MomentSum score;
  std::map<int, std::pair<double, double>> by_unit;  // unit -> wins, games
};

struct GameTally {
  int64_t logs = 0;
  std::map<std::string, PlayerTally> players;
  std::map<std::pair<std::string, std::string>, v1::HeadToHead> h2h;
  std::map<int, SeatTally> seats;
  std::map<std::pair<std::string, std::string>,
           std::map<std::string, MomentSum>>
      extra;  // (table, label) -> metrics
};

// Partners (GameTraits::teams) share their result: no head-to-head.
bool SameSide(const std::string& game, int seats, int a, int b) {
  const GameTraits& traits = ::cardref::TraitsOf(game);
  if (!traits.teams) return false;
  const std::vector<int> teams = traits.teams(seats);
  return a < seats && b < seats && teams[a] == teams[b];
}

int64_t Quantile(const std::map<int32_t, int64_t>& histogram, int64_t n,
                 double p, int64_t max) {
  if (n == 0) return 0;
  const int64_t rank =
      std::max<int64_t>(1, static_cast<int64_t>(std::ceil(p * n)));
  int64_t seen = 0;
  for (const auto& [bucket, count] : histogram) {
    seen += count;
    if (seen >= rank) return std::min(DecisionBucketLow(bucket), max);
  }
  return max;
}

double Median(const std::map<int64_t, int64_t>& values, int64_t n) {
  if (n == 0) return 0;
  // The (n-1)/2-th and n/2-th values (0-based) of the sorted list.
  const int64_t lo = (n - 1) / 2, hi = n / 2;
  int64_t seen = 0;
  double a = 0, b = 0;
  bool have_a = false;
  for (const auto& [value, count] : values) {
    if (!have_a && seen + count > lo) {
      a = static_cast<double>(value);
      have_a = true;
    }
    if (seen + count > hi) {
      b = static_cast<double>(value);
      break;
    }
    seen += count;
  }
  return (a + b) / 2;
}

void Tally(const v1::GameSummary& s, int unit, GameTally& g) {
  ++g.logs;
  const std::string& game = s.game();
  const bool draw =
      std::none_of(s.seats().begin(), s.seats().end(),
                   [](const v1::SeatSummary& x) { return x.winner(); });
  for (const v1::SeatSummary& seat : s.seats()) {
    PlayerTally& p = g.players[PlayerKey(seat)];
    p.matches.insert(s.audit().file());
    ++p.seats;
    if (seat.winner()) ++p.wins;
    if (draw) ++p.draws;
    p.score.Add(static_cast<double>(seat.score()));
    ++p.scores[seat.score()];
    std::pair<double, double>& pu = p.by_unit[unit];
    pu.first += seat.winner() ? 1 : 0;
    pu.second += 1;
    if (seat.rank() > 0) ++p.ranks[seat.rank()];
    p.decisions += seat.decisions();
    p.own_decisions += seat.own_decisions();
    p.max_micros = std::max(p.max_micros, seat.max_decision_micros());
    p.micros += seat.decision_micros();
    for (const auto& [bucket, count] : seat.decision_histogram()) {
      p.histogram[bucket] += count;
    }
    p.rejected += seat.rejected();
    p.timeouts += seat.timeouts();
    p.substitutions += seat.substitutions();
    p.forfeits += seat.forfeits();
    for (const auto& [reason, count] : seat.faults()) p.faults[reason] += count;
    for (const auto& [name, m] : seat.metrics()) p.metrics[name].Add(m);
    SeatTally& st = g.seats[seat.seat()];
    ++st.games;
    if (seat.winner()) ++st.wins;
    st.score.Add(static_cast<double>(seat.score()));
    std::pair<double, double>& su = st.by_unit[unit];
    su.first += seat.winner() ? 1 : 0;
    su.second += 1;
  }
  for (const v1::SeatSummary& a : s.seats()) {
    for (const v1::SeatSummary& b : s.seats()) {
      if (a.seat() == b.seat() ||
          SameSide(game, s.seats_size(), a.seat(), b.seat())) {
        continue;
      }
      const std::string ka = PlayerKey(a), kb = PlayerKey(b);
      if (ka == kb || a.rank() == 0 || b.rank() == 0) continue;
      v1::HeadToHead& h = g.h2h[{ka, kb}];
      h.set_games(h.games() + 1);
      if (a.rank() < b.rank()) h.set_ahead(h.ahead() + 1);
      if (a.rank() > b.rank()) h.set_behind(h.behind() + 1);
      if (a.rank() == b.rank()) h.set_level(h.level() + 1);
    }
  }
  for (const v1::ExtraRowSummary& row : s.extra_rows()) {
    auto& metrics = g.extra[{row.table(), row.label()}];
    for (const auto& [name, m] : row.metrics()) metrics[name].Add(m);
  }
}

// A rate pooled over units (UnitRatio): per unit, (successes, trials).
inference::Estimate ClusteredRate(
    const std::map<int, std::pair<double, double>>& by_unit, int units,
    const inference::IntervalOptions& options) {
  std::vector<double> successes(static_cast<size_t>(units), 0.0);
  std::vector<double> trials(static_cast<size_t>(units), 0.0);
  for (const auto& [unit, counts] : by_unit) {
    successes[unit] = counts.first;
    trials[unit] = counts.second;
  }
  return inference::UnitRatio(successes, trials, options);
}

// How "wins" read in a game whose result is not a single winner.
std::string ResultNote(const std::string& game) {
  const GameTraits& traits = ::cardref::TraitsOf(game);
  if (traits.ranks_only_winners_and_losers) {
    return absl::StrCat(
        "a ", game,
        " result says only who lost: every other seat counts as a winner, "
        "so a win here is a game not lost, and win rates add up to more "
        "than one per game");
  }
  if (traits.teams) {
    return "partners share their result: a seat wins when its side wins";
  }
  return "";
}

// The test of "no seat advantage" over one game's counted summaries: which
// position the outcome picked in each match (the single winner's seat; the
// single loser's in a game whose result is who lost; the winning side in a
// partnership game), against what the players seated there would get with
// no seat advantage.
v1::SeatTest SeatAdvantage(
    const std::string& game, const std::vector<const v1::GameSummary*>& games,
    const GameUnits& units,
    const google::protobuf::RepeatedPtrField<v1::PlayerStatsProto>& players) {
  const GameTraits& traits = ::cardref::TraitsOf(game);
  std::vector<std::string> keys;
  for (const v1::PlayerStatsProto& p : players) keys.push_back(p.player());
  std::sort(keys.begin(), keys.end());
  auto index = [&](const v1::SeatSummary& seat) {
    return static_cast<int>(
        std::lower_bound(keys.begin(), keys.end(), PlayerKey(seat)) -
        keys.begin());
  };
  v1::SeatTest out;
  out.set_positions(traits.teams ? "side" : "seat");
  out.set_outcome(traits.teams ? "the winning side"
                  : traits.ranks_only_winners_and_losers
                      ? "the loser's seat"
                      : "the winner's seat");
  std::map<int, int> shapes;  // positions -> matches
  std::vector<inference::PositionChoice> choices;
  for (size_t i = 0; i < games.size(); ++i) {
    const v1::GameSummary& s = *games[i];
    const int seats = s.seats_size();
    const std::vector<int> side = SeatTeams(traits, seats);
    inference::PositionChoice c;
    c.unit = units.unit_of[i];
    c.players.resize(
        static_cast<size_t>(*std::max_element(side.begin(), side.end())) + 1);
    std::set<int> picked;
    for (int seat = 0; seat < seats; ++seat) {
      const v1::SeatSummary& x = s.seats(seat);
      c.players[side[seat]].push_back(index(x));
      const bool picks = traits.ranks_only_winners_and_losers ? !x.winner()
                                                              : x.winner();
      if (picks) picked.insert(side[seat]);
    }
    c.chosen = picked.size() == 1 ? *picked.begin() : -1;
    ++shapes[static_cast<int>(c.players.size())];
    choices.push_back(std::move(c));
  }
  if (choices.empty()) return out;
  // By content, so that the fit's sums (and its last digits) do not depend
  // on what the logs are called.
  std::sort(choices.begin(), choices.end(),
            [](const inference::PositionChoice& a,
               const inference::PositionChoice& b) {
              return std::tie(a.unit, a.chosen, a.players) <
                     std::tie(b.unit, b.chosen, b.players);
            });
  // The commonest table: matches of other sizes are left out.
  int positions = 0, most = -1;
  for (const auto& [n, count] : shapes) {
    if (count > most) positions = n, most = count;
  }
  inference::SeatEffectOptions options;
  options.interval.unit = units.kind;
  options.interval.range_low = 0;
  options.interval.range_high = 1;
  const inference::SeatEffectTest test = inference::TestSeatEffect(
      static_cast<int>(keys.size()), positions, choices, options);
  for (const inference::PositionRow& row : test.rows) {
    v1::PositionRow* r = out.add_rows();
    r->set_position(row.position);
    r->set_matches(row.matches);
    r->set_chosen(row.chosen);
    r->set_expected(row.expected);
    r->set_rate(row.rate.value.value_or(0));
    *r->mutable_rate_ci() = ToIntervalProto(row.rate);
  }
  out.set_matches_used(test.matches_used);
  out.set_matches_left_out(test.matches_left_out);
  out.set_units(test.units);
  if (test.statistic) out.set_statistic(*test.statistic);
  out.set_df(test.df);
  if (test.p_value) out.set_p_value(*test.p_value);
  out.set_significant(test.significant);
  out.set_method(test.method);
  out.set_note(test.note);
  return out;
}

}  // namespace

void SortSummaries(std::vector<v1::GameSummary>* summaries) {
  std::vector<std::string> bytes(summaries->size());
  for (size_t i = 0; i < summaries->size(); ++i) {
    (*summaries)[i].SerializeToString(&bytes[i]);
  }
  std::vector<size_t> order(summaries->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const std::string& fa = (*summaries)[a].audit().file();
    const std::string& fb = (*summaries)[b].audit().file();
    if (fa != fb) return fa < fb;
    return bytes[a] < bytes[b];
  });
  std::vector<v1::GameSummary> sorted;
  sorted.reserve(order.size());
  for (size_t i : order) sorted.push_back(std::move((*summaries)[i]));
  *summaries = std::move(sorted);
}

v1::AuditReportProto BuildAuditReport(
    const std::vector<v1::GameSummary>& summaries) {
  v1::AuditReportProto report;
  std::map<std::string, int64_t> verdicts, endings;
  for (const v1::GameSummary& s : summaries) {
    *report.add_files() = s.audit();
    ++verdicts[s.audit().verdict()];
    ++endings[s.audit().ending()];
  }
  for (const auto& [name, count] : verdicts) {
    v1::NamedCount* c = report.add_verdicts();
    c->set_name(name);
    c->set_count(count);
  }
  for (const auto& [name, count] : endings) {
    v1::NamedCount* c = report.add_endings();
    c->set_name(name);
    c->set_count(count);
  }
  return report;
}

v1::StatsReportProto BuildStatsReport(
    const std::vector<v1::GameSummary>& summaries) {
  v1::StatsReportProto report;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() != "OK") *report.add_skipped() = s.audit();
  }
  CountedGames counted = CountEachGameOnce(summaries);
  for (v1::SetAside& a : counted.set_aside) {
    *report.add_set_aside() = std::move(a);
  }
  std::map<std::string, std::vector<const v1::GameSummary*>> by_game;
  for (const v1::GameSummary* s : counted.games) {
    report.set_logs_counted(report.logs_counted() + 1);
    by_game[s->game()].push_back(s);
  }
  for (const auto& [game, summaries_of_game] : by_game) {
    const GameUnits units = AssignUnits(summaries_of_game);
    GameTally g;
    for (size_t i = 0; i < summaries_of_game.size(); ++i) {
      Tally(*summaries_of_game[i], units.unit_of[i], g);
    }
    inference::IntervalOptions rate_options;
    rate_options.unit = units.kind;
    rate_options.range_low = 0;
    rate_options.range_high = 1;
    v1::GameStatsProto* out = report.add_games();
    out->set_game(game);
    out->set_logs(g.logs);
    out->set_unit(UnitName(units.kind));
    out->set_units(units.count);
    out->set_result_note(ResultNote(game));
    for (const auto& [key, p] : g.players) {
      v1::PlayerStatsProto* row = out->add_players();
      row->set_player(key);
      row->set_games(static_cast<int64_t>(p.matches.size()));
      row->set_seats(p.seats);
      row->set_wins(p.wins);
      row->set_draws(p.draws);
      row->set_win_rate(p.seats == 0 ? 0
                                     : static_cast<double>(p.wins) / p.seats);
      *row->mutable_win_rate_ci() =
          ToIntervalProto(ClusteredRate(p.by_unit, units.count, rate_options));
      row->set_score_mean(p.score.mean());
      row->set_score_stddev(p.score.stddev());
      row->set_score_median(Median(p.scores, p.score.count));
      for (const auto& [value, count] : p.scores) {
        v1::ValueCount* c = row->add_score_distribution();
        c->set_value(value);
        c->set_count(count);
      }
      for (const auto& [rank, count] : p.ranks) {
        v1::ValueCount* c = row->add_finishing_positions();
        c->set_value(rank);
        c->set_count(count);
      }
      row->set_decisions(p.decisions);
      row->set_own_decisions(p.own_decisions);
      v1::Quantiles* q = row->mutable_decision_micros();
      q->set_p50(Quantile(p.histogram, p.own_decisions, 0.50, p.max_micros));
      q->set_p95(Quantile(p.histogram, p.own_decisions, 0.95, p.max_micros));
      q->set_max(p.max_micros);
      row->set_decision_micros_mean(
          p.own_decisions == 0
              ? 0
              : static_cast<double>(p.micros) /
                    static_cast<double>(p.own_decisions));
      row->set_rejected(p.rejected);
      row->set_timeouts(p.timeouts);
      row->set_substitutions(p.substitutions);
      row->set_forfeits(p.forfeits);
      for (const auto& [reason, count] : p.faults) {
        (*row->mutable_faults())[reason] = count;
      }
      for (const auto& [name, m] : p.metrics) {
        v1::NamedValue* v = row->add_metrics();
        v->set_name(name);
        v->set_value(m.mean());
      }
    }
    for (const auto& [pair, h] : g.h2h) {
      v1::HeadToHead* row = out->add_head_to_head();
      *row = h;
      row->set_player(pair.first);
      row->set_opponent(pair.second);
    }
    for (const auto& [seat, t] : g.seats) {
      v1::SeatEffect* row = out->add_seat_effect();
      row->set_seat(seat);
      row->set_games(t.games);
      row->set_wins(t.wins);
      row->set_win_rate(t.games == 0 ? 0
                                     : static_cast<double>(t.wins) / t.games);
      *row->mutable_win_rate_ci() =
          ToIntervalProto(ClusteredRate(t.by_unit, units.count, rate_options));
      row->set_score_mean(t.score.mean());
    }
    *out->mutable_seat_test() =
        SeatAdvantage(game, summaries_of_game, units, out->players());
    // Extra tables in the hook's order, rows by label.
    const GameStatsHook* hook = FindStatsHook(game);
    if (hook == nullptr) continue;
    for (const ExtraTableSpec& spec : hook->extra_tables()) {
      for (const auto& [key, metrics] : g.extra) {
        if (key.first != spec.title) continue;
        v1::ExtraRowProto* row = out->add_extra_rows();
        row->set_table(key.first);
        row->set_label(key.second);
        auto count = metrics.find(spec.count_metric);
        row->set_count(count == metrics.end() ? 0 : count->second.count);
        for (const auto& [name, title] : spec.metrics) {
          auto it = metrics.find(name);
          if (it == metrics.end() || it->second.count == 0) continue;
          v1::NamedValue* v = row->add_metrics();
          v->set_name(name);
          v->set_value(it->second.mean());
        }
      }
    }
  }
  return report;
}

}  // namespace cardref::analyzer
