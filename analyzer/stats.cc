#include "analyzer/stats.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "referee/codec/logged_actions.h"

namespace cardref::analyzer {


double PlayerStats::win_rate() const {
  return games == 0 ? 0 : static_cast<double>(wins) / games;
}

double PlayerStats::decisions_per_game() const {
  return games == 0 ? 0 : static_cast<double>(decisions) / games;
}

std::optional<double> PlayerStats::mean_decision_micros() const {
  if (own_decisions == 0) return std::nullopt;
  return static_cast<double>(decision_micros) / own_decisions;
}

AuditReport StatsCollector::Add(const record::GameLog& log,
                                absl::string_view file) {
  AuditReport report = AuditGameLog(log, file, *registry_);
  if (report.ok() && log.has_header() && log.header().format_version() >= 3) {
    record::GameLog expanded = log;  // the hooks read typed actions
    codec::DeriveTypedActions(&expanded, *registry_);
    Count(expanded);
  } else if (report.ok()) {
    Count(log);
  } else {
    skipped_.push_back(report);
  }
  return report;
}

AuditReport StatsCollector::AddFile(const std::string& path) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  if (!log.ok()) {
    AuditReport report;
    report.file = path;
    report.verdict = Verdict::kUnreadable;
    report.message = std::string(log.status().message());
    skipped_.push_back(report);
    return report;
  }
  return Add(*log, path);
}

// Precondition: `log` audited OK (a header, seats 0..n-1 in order, a final
// result last, every seat number in range).
void StatsCollector::Count(const record::GameLog& log) {
  const v1::LogHeader& header = log.header();
  const std::string& game = header.game();
  const GameStatsHook* hook = FindStatsHook(game);
  ++logs_counted_;
  ++logs_per_game_[game];

  std::vector<PlayerStats*> seat_rows;
  for (const v1::SeatInfo& seat : header.seats()) {
    const std::string name = seat.player_name().empty()
                                 ? absl::StrCat("seat", seat.seat())
                                 : seat.player_name();
    PlayerStats& row = rows_[{game, name}];
    row.game = game;
    row.player = name;
    ++row.games;
    seat_rows.push_back(&row);
  }
  if (hook != nullptr) hook->OnLog(log, extra_rows_[game]);
  const int seats = static_cast<int>(seat_rows.size());
  for (const v1::LogRecord& record : log.records) {
    switch (record.record_case()) {
      case v1::LogRecord::kAction: {
        PlayerStats& row = *seat_rows[record.action().seat()];
        ++row.decisions;
        if (!record.action().by_referee()) {
          ++row.own_decisions;
          row.decision_micros += record.action().time_taken_micros();
        }
        break;
      }
      case v1::LogRecord::kRejected:
        ++seat_rows[record.rejected().seat()]->rejected;
        break;
      case v1::LogRecord::kRejectionsNotLogged:
        seat_rows[record.rejections_not_logged().seat()]->rejected +=
            record.rejections_not_logged().count();
        break;
      case v1::LogRecord::kFault:
        if (record.fault().kind() == v1::FAULT_KIND_TIMEOUT) {
          ++seat_rows[record.fault().seat()]->timeouts;
        }
        break;
      case v1::LogRecord::kRoundResult:
        if (hook != nullptr) {
          for (int s = 0; s < seats; ++s) {
            hook->OnRoundResult(record.round_result(), s,
                                seat_rows[s]->metrics);
          }
        }
        break;
      case v1::LogRecord::kFinalResult: {
        const v1::FinalResult& final_result = record.final_result();
        for (int s = 0; s < seats; ++s) {
          PlayerStats& row = *seat_rows[s];
          if (final_result.winners().empty()) {
            ++row.draws;
          } else if (std::find(final_result.winners().begin(),
                               final_result.winners().end(),
                               s) != final_result.winners().end()) {
            ++row.wins;
          }
          if (s < final_result.scores_size()) {
            row.score.Add(static_cast<double>(final_result.scores(s)));
          }
          if (hook != nullptr)
            hook->OnFinalResult(final_result, s, row.metrics);
        }
        break;
      }
      default:
        break;
    }
  }
}

const ExtraRows& StatsCollector::extra_rows(const std::string& game) const {
  static const ExtraRows* const kNone = new ExtraRows;
  auto it = extra_rows_.find(game);
  return it == extra_rows_.end() ? *kNone : it->second;
}

std::vector<PlayerStats> StatsCollector::Rows() const {
  std::vector<PlayerStats> rows;
  rows.reserve(rows_.size());
  for (const auto& [key, row] : rows_) rows.push_back(row);  // map order
  return rows;
}

namespace {

struct Column {
  std::string title;
  bool left = false;  // text columns are left-aligned, numbers right
};

std::string Fixed(double x, int decimals) {
  return absl::StrFormat("%.*f", decimals, x);
}

// Aligned columns separated by two spaces, no trailing blanks.
std::string RenderTable(const std::vector<Column>& columns,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].title.size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += "  ";
      const std::string pad(width[c] - cells[c].size(), ' ');
      text += columns[c].left ? cells[c] + pad : pad + cells[c];
    }
    text.erase(text.find_last_not_of(' ') + 1);
    absl::StrAppend(&out, text, "\n");
  };
  std::vector<std::string> titles;
  titles.reserve(columns.size());
  for (const Column& c : columns) titles.push_back(c.title);
  line(titles);
  for (const auto& row : rows) line(row);
  return out;
}

}  // namespace

std::string StatsCollector::ToText() const {
  std::string out;
  absl::StrAppend(&out, logs_counted_, logs_counted_ == 1 ? " log" : " logs",
                  " counted, ", skipped_.size(), " skipped\n");
  const std::vector<PlayerStats> rows = Rows();
  for (const auto& [game, logs] : logs_per_game_) {
    const GameStatsHook* hook = FindStatsHook(game);
    std::vector<Column> columns = {
        {"player", true}, {"games"},    {"wins"},     {"draws"},
        {"win%"},         {"score"},    {"score_sd"}, {"decisions/game"},
        {"decision_ms"},  {"rejected"}, {"timeouts"}};
    std::vector<std::pair<std::string, std::string>> metrics;
    if (hook != nullptr) metrics = hook->metrics();
    for (const auto& [name, title] : metrics) columns.push_back({title});
    std::vector<std::vector<std::string>> cells;
    for (const PlayerStats& row : rows) {
      if (row.game != game) continue;
      const std::optional<double> micros = row.mean_decision_micros();
      std::vector<std::string> line = {
          row.player,
          absl::StrCat(row.games),
          absl::StrCat(row.wins),
          absl::StrCat(row.draws),
          Fixed(100 * row.win_rate(), 1),
          Fixed(row.score.mean(), 2),
          Fixed(row.score.stddev(), 2),
          Fixed(row.decisions_per_game(), 1),
          micros.has_value() ? Fixed(*micros / 1000, 3) : "-",
          absl::StrCat(row.rejected),
          absl::StrCat(row.timeouts)};
      for (const auto& [name, title] : metrics) {
        auto it = row.metrics.find(name);
        line.push_back(it == row.metrics.end() ? "-"
                                               : Fixed(it->second.mean(), 3));
      }
      cells.push_back(std::move(line));
    }
    absl::StrAppend(&out, "\n", game, ": ", logs,
                    logs == 1 ? " log\n" : " logs\n",
                    RenderTable(columns, cells));
    if (hook == nullptr) continue;
    const ExtraRows& extra = extra_rows(game);
    for (const ExtraTableSpec& spec : hook->extra_tables()) {
      auto table = extra.find(spec.title);
      if (table == extra.end()) continue;
      std::vector<Column> extra_columns = {{spec.row_title, true},
                                           {spec.count_title}};
      for (const auto& [name, title] : spec.metrics) {
        extra_columns.push_back({title});
      }
      std::vector<std::vector<std::string>> extra_cells;
      for (const auto& [label, metrics] : table->second) {
        auto count = metrics.find(spec.count_metric);
        const int64_t n = count == metrics.end() ? 0 : count->second.count();
        std::vector<std::string> line = {label, absl::StrCat(n)};
        for (const auto& [name, title] : spec.metrics) {
          auto it = metrics.find(name);
          line.push_back(it == metrics.end() || it->second.count() == 0
                             ? "-"
                             : Fixed(it->second.mean(), 3));
        }
        extra_cells.push_back(std::move(line));
      }
      absl::StrAppend(&out, "\n", game, " ", spec.title, ":\n",
                      RenderTable(extra_columns, extra_cells));
    }
  }
  if (!skipped_.empty()) {
    absl::StrAppend(&out, "\nskipped:\n");
    for (const AuditReport& r : skipped_)
      absl::StrAppend(&out, "  ", r.Line(), "\n");
  }
  return out;
}

std::string StatsCollector::ToJson() const {
  using Json = nlohmann::ordered_json;
  Json doc;
  doc["logs_counted"] = logs_counted_;
  Json games = Json::array();
  const std::vector<PlayerStats> rows = Rows();
  for (const auto& [game, logs] : logs_per_game_) {
    Json g;
    g["game"] = game;
    g["logs"] = logs;
    Json players = Json::array();
    for (const PlayerStats& row : rows) {
      if (row.game != game) continue;
      Json p;
      p["player"] = row.player;
      p["games"] = row.games;
      p["wins"] = row.wins;
      p["draws"] = row.draws;
      p["win_rate"] = row.win_rate();
      p["score_mean"] = row.score.mean();
      p["score_stddev"] = row.score.stddev();
      p["decisions"] = row.decisions;
      p["decisions_per_game"] = row.decisions_per_game();
      p["own_decisions"] = row.own_decisions;
      const std::optional<double> micros = row.mean_decision_micros();
      p["mean_decision_micros"] =
          micros.has_value() ? Json(*micros) : Json(nullptr);
      p["rejected"] = row.rejected;
      p["timeouts"] = row.timeouts;
      Json metrics = Json::object();
      for (const auto& [name, stat] : row.metrics) {
        metrics[name] = {{"mean", stat.mean()}, {"count", stat.count()}};
      }
      p["metrics"] = std::move(metrics);
      players.push_back(std::move(p));
    }
    g["players"] = std::move(players);
    const GameStatsHook* hook = FindStatsHook(game);
    const ExtraRows& extra = extra_rows(game);
    if (hook != nullptr && !hook->extra_tables().empty()) {
      Json tables = Json::array();
      for (const ExtraTableSpec& spec : hook->extra_tables()) {
        Json t;
        t["title"] = spec.title;
        Json table_rows = Json::array();
        auto table = extra.find(spec.title);
        if (table != extra.end()) {
          for (const auto& [label, metrics] : table->second) {
            Json m = Json::object();
            for (const auto& [name, stat] : metrics) {
              m[name] = {{"mean", stat.mean()}, {"count", stat.count()}};
            }
            table_rows.push_back({{"row", label}, {"metrics", std::move(m)}});
          }
        }
        t["rows"] = std::move(table_rows);
        tables.push_back(std::move(t));
      }
      g["tables"] = std::move(tables);
    }
    games.push_back(std::move(g));
  }
  doc["games"] = std::move(games);
  Json skipped = Json::array();
  for (const AuditReport& r : skipped_) {
    skipped.push_back({{"file", r.file},
                       {"verdict", std::string(VerdictName(r.verdict))},
                       {"message", r.message}});
  }
  doc["skipped"] = std::move(skipped);
  return doc.dump(2) + "\n";
}

}  // namespace cardref::analyzer
