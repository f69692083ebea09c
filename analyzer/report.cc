#include "analyzer/report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "analyzer/stats.h"
#include "games/all_games.h"
#include "analyzer/summary.h"

namespace cardref::analyzer {
namespace {

constexpr double kZ95 = 1.959963984540054;

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
  int64_t decisions = 0, own_decisions = 0, max_micros = 0;
  std::map<int32_t, int64_t> histogram;
  int64_t rejected = 0, timeouts = 0, substitutions = 0, forfeits = 0;
  std::map<std::string, int64_t> faults;
  std::map<std::string, MomentSum> metrics;
};

struct SeatTally {
  int64_t games = 0, wins = 0;
  MomentSum score;
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

void Tally(const v1::GameSummary& s, GameTally& g) {
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
    if (seat.rank() > 0) ++p.ranks[seat.rank()];
    p.decisions += seat.decisions();
    p.own_decisions += seat.own_decisions();
    p.max_micros = std::max(p.max_micros, seat.max_decision_micros());
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

v1::Interval WilsonInterval(int64_t successes, int64_t trials) {
  v1::Interval out;
  if (trials <= 0) {
    out.set_low(0);
    out.set_high(1);
    return out;
  }
  const double n = static_cast<double>(trials);
  const double p = static_cast<double>(successes) / n;
  const double z2 = kZ95 * kZ95;
  const double denominator = 1 + z2 / n;
  const double center = (p + z2 / (2 * n)) / denominator;
  const double half =
      kZ95 / denominator * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  out.set_low(std::max(0.0, center - half));
  out.set_high(std::min(1.0, center + half));
  return out;
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
  std::map<std::string, GameTally> games;
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() != "OK") {
      *report.add_skipped() = s.audit();
      continue;
    }
    report.set_logs_counted(report.logs_counted() + 1);
    Tally(s, games[s.game()]);
  }
  for (const auto& [game, g] : games) {
    v1::GameStatsProto* out = report.add_games();
    out->set_game(game);
    out->set_logs(g.logs);
    for (const auto& [key, p] : g.players) {
      v1::PlayerStatsProto* row = out->add_players();
      row->set_player(key);
      row->set_games(static_cast<int64_t>(p.matches.size()));
      row->set_seats(p.seats);
      row->set_wins(p.wins);
      row->set_draws(p.draws);
      row->set_win_rate(p.seats == 0 ? 0
                                     : static_cast<double>(p.wins) / p.seats);
      *row->mutable_win_rate_ci() = WilsonInterval(p.wins, p.seats);
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
      *row->mutable_win_rate_ci() = WilsonInterval(t.wins, t.games);
      row->set_score_mean(t.score.mean());
    }
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
