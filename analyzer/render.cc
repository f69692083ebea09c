#include "analyzer/render.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "analyzer/game_units.h"
#include "analyzer/interval_proto.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "referee/base/unicode/unicode_props.h"

namespace cardref::analyzer {
namespace {

std::string Hex(unsigned char c) { return absl::StrFormat("\\x%02x", c); }


std::string CsvRow(const std::vector<std::string>& cells) {
  std::vector<std::string> fields;
  fields.reserve(cells.size());
  for (const std::string& c : cells) fields.push_back(CsvField(c));
  return absl::StrCat(absl::StrJoin(fields, ","), "\n");
}

std::string AuditLine(const v1::FileAudit& f) {
  if (f.verdict() == "OK") {
    return absl::StrCat("OK ", Sanitize(f.file()), " (", Sanitize(f.game()),
                        ", ", f.rounds(),
                        f.rounds() == 1 ? " round, " : " rounds, ", f.records(),
                        f.records() == 1 ? " record, " : " records, ",
                        f.integrity(), ")");
  }
  return absl::StrCat(f.verdict(), " ", Sanitize(f.file()), ": ",
                      Sanitize(f.message()));
}

// The verdict of the seat-advantage test, one line.
std::string SeatTestLine(const v1::SeatTest& test) {
  const std::string left_out =
      test.matches_left_out() == 0
          ? std::string()
          : absl::StrCat(" (", test.matches_left_out(),
                         test.matches_left_out() == 1 ? " match" : " matches",
                         " of another table size, or without a single ",
                         test.outcome() == "the loser's seat" ? "loser"
                                                              : "winner",
                         ", left out)");
  if (!test.has_statistic() || !test.has_p_value()) {
    if (test.note().empty()) return "";
    return absl::StrCat("seat advantage: ", Sanitize(test.note()), left_out,
                        "\n");
  }
  return absl::StrCat(
      test.significant() ? "SEAT ADVANTAGE (p < 0.05): " : "no seat advantage "
                                                           "found: ",
      "chi-square ", Fixed(test.statistic(), 2), " on ", test.df(),
      " df, p = ", Fixed(test.p_value(), 3), ", testing ", test.outcome(),
      " (", Sanitize(test.method()), ")",
      test.note().empty() ? "" : absl::StrCat("; ", Sanitize(test.note())),
      left_out, "\n");
}

}  // namespace

std::string CodePointEscape(int32_t cp) {
  return cp <= 0xffff ? absl::StrFormat("\\u%04x", cp)
                      : absl::StrFormat("\\U%08x", cp);
}

size_t DisplayWidth(absl::string_view s) {
  size_t width = 0;
  for (char c : s) {
    // Every byte but a UTF-8 continuation byte starts a character.
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++width;
  }
  return width;
}

std::string RenderTable(const std::vector<Column>& columns,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    width[c] = DisplayWidth(columns[c].title);
    for (const auto& row : rows) {
      width[c] = std::max(width[c], DisplayWidth(row[c]));
    }
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < columns.size(); ++c) {
      if (c > 0) text += "  ";
      const std::string pad(width[c] - DisplayWidth(cells[c]), ' ');
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

std::string Sanitize(absl::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += Hex(c);
    } else if (c >= 0x80) {
      size_t end = i;
      const int32_t cp = unicode::NextCodePoint(s, &end);
      const bool c1 = cp >= 0x80 && cp <= 0x9f;
      if (cp < 0 || c1) {
        const size_t bad = cp < 0 ? 1 : 2;
        for (size_t k = 0; k < bad; ++k) {
          out += Hex(static_cast<unsigned char>(s[i + k]));
        }
        i += bad;
        continue;
      }
      // Printable but treacherous: reorders what follows, is invisible, or
      // breaks the line (U+2028, U+2029).
      if (unicode::IsBidiControl(cp) || unicode::IsDefaultIgnorable(cp) ||
          cp == 0x2028 || cp == 0x2029) {
        out += CodePointEscape(cp);
      } else {
        out.append(s.data() + i, end - i);
      }
      i = end;
      continue;
    } else {
      out += static_cast<char>(c);
    }
    ++i;
  }
  return out;
}

std::string CsvField(absl::string_view s) {
  std::string clean = Sanitize(s);
  const bool quote =
      clean.find_first_of(",\"") != std::string::npos ||
      (!clean.empty() && (clean.front() == ' ' || clean.back() == ' '));
  if (!quote) return clean;
  std::string out = "\"";
  for (char c : clean) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

namespace {

using OrderedJson = nlohmann::ordered_json;

// `json` (protobuf's JSON of `message`) with its keys in declaration
// order and every unset `optional` field present as null: protobuf leaves
// such fields out, and a reader should see "no value" (an interval bound
// there is not), not wonder whether the field exists.
void AddNulls(const google::protobuf::Message& message, OrderedJson& json) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Descriptor* d = message.GetDescriptor();
  // Well-known types have JSON forms of their own.
  if (!json.is_object() || d->file()->package() == "google.protobuf") return;
  const google::protobuf::Reflection* r = message.GetReflection();
  OrderedJson out = OrderedJson::object();
  for (int i = 0; i < d->field_count(); ++i) {
    const FieldDescriptor* f = d->field(i);
    auto it = json.find(f->name());
    if (it == json.end()) {
      if (f->has_optional_keyword() && !f->is_repeated()) {
        out[f->name()] = nullptr;
      }
      continue;
    }
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE && !f->is_map()) {
      if (f->is_repeated()) {
        for (int k = 0; k < r->FieldSize(message, f) &&
                        k < static_cast<int>(it->size());
             ++k) {
          AddNulls(r->GetRepeatedMessage(message, f, k), (*it)[k]);
        }
      } else if (r->HasField(message, f)) {
        AddNulls(r->GetMessage(message, f), *it);
      }
    }
    out[f->name()] = std::move(*it);
  }
  for (auto& [key, value] : json.items()) {
    if (!out.contains(key)) out[key] = std::move(value);
  }
  json = std::move(out);
}

}  // namespace

std::string ToJson(const google::protobuf::Message& message, bool pretty) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  std::string out;
  // Only fails for messages with Any fields that cannot be resolved; the
  // report has none.
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  OrderedJson json = OrderedJson::parse(out, nullptr, false);
  if (!json.is_discarded()) {
    AddNulls(message, json);
    out = json.dump(pretty ? 1 : -1, ' ', false,
                    OrderedJson::error_handler_t::replace);
  }
  if (pretty && (out.empty() || out.back() != '\n')) out += '\n';
  return out;
}

std::string RenderAudit(const v1::AuditReportProto& report, Format format) {
  std::string out;
  switch (format) {
    case Format::kJson:
      for (const v1::FileAudit& f : report.files()) {
        absl::StrAppend(&out, ToJson(f, false), "\n");
      }
      return out;
    case Format::kCsv:
      out = CsvRow({"file", "verdict", "ending", "game", "rounds", "records",
                    "consistent_records", "record_index", "byte_offset",
                    "record_kind", "field", "recorded", "recomputed", "rule",
                    "message"});
      for (const v1::FileAudit& f : report.files()) {
        std::vector<std::string> row = {f.file(),
                                        f.verdict(),
                                        f.ending(),
                                        f.game(),
                                        absl::StrCat(f.rounds()),
                                        absl::StrCat(f.records()),
                                        absl::StrCat(f.consistent_records())};
        if (f.findings_size() > 0) {
          const v1::AuditFinding& d = f.findings(0);
          for (const std::string& cell :
               {absl::StrCat(d.record_index()), absl::StrCat(d.byte_offset()),
                d.record_kind(), d.field(), d.recorded(), d.recomputed(),
                d.rule()}) {
            row.push_back(cell);
          }
        } else {
          for (int i = 0; i < 7; ++i) row.emplace_back();
        }
        row.push_back(f.message());
        absl::StrAppend(&out, CsvRow(row));
      }
      return out;
    case Format::kText:
      break;
  }
  int64_t ok = 0, interrupted = 0, aborted = 0, errors = 0;
  std::map<std::string, int64_t> error_verdicts;
  for (const v1::FileAudit& f : report.files()) {
    absl::StrAppend(&out, AuditLine(f), "\n");
    if (f.verdict() == "OK") {
      ++ok;
    } else if (f.ending() == "interrupted") {
      ++interrupted;
    } else if (f.ending() == "aborted") {
      ++aborted;
    } else {
      ++errors;
      ++error_verdicts[f.verdict()];
    }
  }
  std::vector<std::string> parts;
  parts.reserve(error_verdicts.size());
  for (const auto& [verdict, n] : error_verdicts) {
    parts.push_back(absl::StrCat(verdict, " ", n));
  }
  absl::StrAppend(
      &out, "summary: ", report.files_size(),
      report.files_size() == 1 ? " file: " : " files: ", ok, " OK, ",
      interrupted, " interrupted, ", aborted, " aborted, ", errors,
      errors == 1 ? " error" : " errors",
      parts.empty() ? "" : absl::StrCat(" (", absl::StrJoin(parts, ", "), ")"),
      "\n");
  return out;
}

std::string RenderStats(const v1::StatsReportProto& report, Format format) {
  if (format == Format::kJson) return ToJson(report, true);
  auto metric =
      [](const google::protobuf::RepeatedPtrField<v1::NamedValue>& metrics,
         const std::string& name) -> std::string {
    for (const v1::NamedValue& v : metrics) {
      if (v.name() == name) return Fixed(v.value(), 3);
    }
    return "-";
  };
  if (format == Format::kCsv) {
    std::string out = CsvRow({"game",
                              "player",
                              "games",
                              "seats",
                              "wins",
                              "draws",
                              "win_rate",
                              "win_rate_low",
                              "win_rate_high",
                              "score_mean",
                              "score_stddev",
                              "score_median",
                              "decisions",
                              "own_decisions",
                              "decision_p50_micros",
                              "decision_p95_micros",
                              "decision_max_micros",
                              "rejected",
                              "timeouts",
                              "substitutions",
                              "forfeits"});
    for (const v1::GameStatsProto& g : report.games()) {
      for (const v1::PlayerStatsProto& p : g.players()) {
        absl::StrAppend(&out, CsvRow({g.game(),
                                      p.player(),
                                      absl::StrCat(p.games()),
                                      absl::StrCat(p.seats()),
                                      absl::StrCat(p.wins()),
                                      absl::StrCat(p.draws()),
                                      Fixed(p.win_rate(), 6),
                                      CsvBound(p.win_rate_ci().has_low(),
                                               p.win_rate_ci().low(), 6),
                                      CsvBound(p.win_rate_ci().has_high(),
                                               p.win_rate_ci().high(), 6),
                                      Fixed(p.score_mean(), 6),
                                      Fixed(p.score_stddev(), 6),
                                      Fixed(p.score_median(), 1),
                                      absl::StrCat(p.decisions()),
                                      absl::StrCat(p.own_decisions()),
                                      absl::StrCat(p.decision_micros().p50()),
                                      absl::StrCat(p.decision_micros().p95()),
                                      absl::StrCat(p.decision_micros().max()),
                                      absl::StrCat(p.rejected()),
                                      absl::StrCat(p.timeouts()),
                                      absl::StrCat(p.substitutions()),
                                      absl::StrCat(p.forfeits())}));
      }
    }
    return out;
  }
  std::string out;
  const int64_t skipped = report.skipped_size();
  absl::StrAppend(&out, report.logs_counted(),
                  report.logs_counted() == 1 ? " log" : " logs", " counted, ",
                  skipped, " skipped\n", SetAsideLine(report.set_aside()));
  for (const v1::GameStatsProto& g : report.games()) {
    std::set<std::string> metric_names;
    // When a player held several seats of a match, wins are counted per
    // seat: the columns then say so.
    bool per_seat = false;
    for (const v1::PlayerStatsProto& p : g.players()) {
      for (const v1::NamedValue& v : p.metrics()) metric_names.insert(v.name());
      per_seat |= p.seats() != p.games();
    }
    const std::string unit = g.unit() == "deal_set" ? "deal set" : "match";
    const std::string units = g.unit() == "deal_set"
                                  ? (g.units() == 1 ? "deal set" : "deal sets")
                                  : (g.units() == 1 ? "match" : "matches");
    std::vector<Column> columns = {{"player", true}, {"games"}};
    if (per_seat) columns.push_back({"seat-games"});
    for (const char* title :
         {per_seat ? "seat-wins" : "wins", per_seat ? "seat-draws" : "draws",
          per_seat ? "win%/seat" : "win%", "win% 95%"}) {
      columns.push_back({title});
    }
    for (const char* title :
         {"score", "score_sd", "median", "ranks", "dec_p50_ms", "dec_p95_ms",
          "dec_max_ms", "rejected", "timeouts", "subst"}) {
      columns.push_back({title, std::string(title) == "ranks"});
    }
    for (const std::string& name : metric_names) columns.push_back({name});
    std::vector<std::vector<std::string>> cells;
    for (const v1::PlayerStatsProto& p : g.players()) {
      std::vector<std::string> ranks;
      for (const v1::ValueCount& r : p.finishing_positions()) {
        ranks.push_back(absl::StrCat(r.value(), ":", r.count()));
      }
      const bool timed = p.own_decisions() > 0;
      auto ms = [&](int64_t micros) {
        return timed ? Fixed(micros / 1000.0, 3) : std::string("-");
      };
      std::vector<std::string> line = {Sanitize(p.player()),
                                       absl::StrCat(p.games())};
      if (per_seat) line.push_back(absl::StrCat(p.seats()));
      for (std::string cell :
           {absl::StrCat(p.wins()), absl::StrCat(p.draws()),
            Fixed(100 * p.win_rate(), 1),
            FormatInterval(p.win_rate_ci(), 1, 100),
            Fixed(p.score_mean(), 2), Fixed(p.score_stddev(), 2),
            Fixed(p.score_median(), 1), absl::StrJoin(ranks, " "),
            ms(p.decision_micros().p50()), ms(p.decision_micros().p95()),
            ms(p.decision_micros().max()), absl::StrCat(p.rejected()),
            absl::StrCat(p.timeouts()), absl::StrCat(p.substitutions())}) {
        line.push_back(std::move(cell));
      }
      for (const std::string& name : metric_names) {
        line.push_back(metric(p.metrics(), name));
      }
      cells.push_back(std::move(line));
    }
    absl::StrAppend(&out, "\n", Sanitize(g.game()), ": ", g.logs(),
                    g.logs() == 1 ? " log" : " logs", " in ", g.units(), " ",
                    units, " (the independent unit: intervals and tests are "
                    "over ", unit == "match" ? "matches" : "deal sets", ")\n");
    if (!g.result_note().empty()) {
      absl::StrAppend(&out, "note: ", Sanitize(g.result_note()), "\n");
    }
    absl::StrAppend(&out, RenderTable(columns, cells));
    absl::StrAppend(
        &out,
        per_seat ? "games: matches played; seat-games: seats held (a player "
                   "may hold several seats of a match); seat-wins, seat-draws "
                   "and win%/seat count seat-games. "
                 : "",
        "win% 95%: wins over seat-games pooled per ", unit,
        ", t over ", unit == "match" ? "matches" : "deal sets", "\n");
    // Head to head: ahead-behind-level of the row player.
    if (!g.head_to_head().empty()) {
      std::vector<std::string> names;
      for (const v1::PlayerStatsProto& p : g.players()) {
        names.push_back(p.player());
      }
      std::map<std::pair<std::string, std::string>, const v1::HeadToHead*> h2h;
      for (const v1::HeadToHead& h : g.head_to_head()) {
        h2h[{h.player(), h.opponent()}] = &h;
      }
      std::vector<Column> hc = {{"ahead-behind-level", true}};
      for (const std::string& n : names) hc.push_back({Sanitize(n)});
      std::vector<std::vector<std::string>> rows;
      for (const std::string& a : names) {
        std::vector<std::string> row = {Sanitize(a)};
        for (const std::string& b : names) {
          auto it = h2h.find({a, b});
          row.push_back(it == h2h.end()
                            ? "-"
                            : absl::StrCat(it->second->ahead(), "-",
                                           it->second->behind(), "-",
                                           it->second->level()));
        }
        rows.push_back(std::move(row));
      }
      absl::StrAppend(&out, "\n", Sanitize(g.game()), " head to head:\n",
                      RenderTable(hc, rows));
    }
    const v1::SeatTest& test = g.seat_test();
    // The test's expected counts belong in the seat table when it tests
    // the winner's seat of every match; otherwise they get a table of
    // their own.
    const bool winners_by_seat = test.positions() == "seat" &&
                                 test.outcome() == "the winner's seat" &&
                                 test.matches_left_out() == 0;
    std::map<int, const v1::PositionRow*> expected;
    for (const v1::PositionRow& r : test.rows()) expected[r.position()] = &r;
    std::vector<std::vector<std::string>> seat_rows;
    for (const v1::SeatEffect& s : g.seat_effect()) {
      std::vector<std::string> row = {
          absl::StrCat(s.seat()), absl::StrCat(s.games()),
          absl::StrCat(s.wins()), Fixed(100 * s.win_rate(), 1),
          FormatInterval(s.win_rate_ci(), 1, 100), Fixed(s.score_mean(), 2)};
      if (winners_by_seat) {
        auto it = expected.find(s.seat());
        row.push_back(it == expected.end() ? "-"
                                           : Fixed(it->second->expected(), 1));
      }
      seat_rows.push_back(std::move(row));
    }
    std::vector<Column> seat_columns = {{"seat"}, {"games"},    {"wins"},
                                        {"win%"}, {"win% 95%"}, {"score"}};
    if (winners_by_seat) seat_columns.push_back({"wins expected"});
    absl::StrAppend(&out, "\n", Sanitize(g.game()), " by seat:\n",
                    RenderTable(seat_columns, seat_rows));
    if (!winners_by_seat && !test.rows().empty()) {
      std::vector<std::vector<std::string>> rows;
      for (const v1::PositionRow& r : test.rows()) {
        rows.push_back({absl::StrCat(r.position()), absl::StrCat(r.matches()),
                        absl::StrCat(r.chosen()), Fixed(r.expected(), 1),
                        Fixed(100 * r.rate(), 1),
                        FormatInterval(r.rate_ci(), 1, 100)});
      }
      absl::StrAppend(
          &out, "\n", Sanitize(g.game()), " seat test, by ", test.positions(),
          ": how often ", test.outcome(), " was each, over ",
          test.matches_used(), test.matches_used() == 1 ? " match" : " matches",
          ":\n",
          RenderTable({{test.positions()}, {"matches"}, {"picked"},
                       {"expected"}, {"rate%"}, {"rate% 95%"}},
                      rows));
    }
    absl::StrAppend(&out, SeatTestLine(test));
    // Game-specific tables, one per table title, in report order.
    std::vector<std::string> tables;
    for (const v1::ExtraRowProto& r : g.extra_rows()) {
      if (std::find(tables.begin(), tables.end(), r.table()) == tables.end()) {
        tables.push_back(r.table());
      }
    }
    for (const std::string& table : tables) {
      std::set<std::string> names;
      for (const v1::ExtraRowProto& r : g.extra_rows()) {
        if (r.table() != table) continue;
        for (const v1::NamedValue& v : r.metrics()) names.insert(v.name());
      }
      std::vector<Column> ec = {{"row", true}, {"count"}};
      for (const std::string& n : names) ec.push_back({n});
      std::vector<std::vector<std::string>> rows;
      for (const v1::ExtraRowProto& r : g.extra_rows()) {
        if (r.table() != table) continue;
        std::vector<std::string> row = {Sanitize(r.label()),
                                        absl::StrCat(r.count())};
        for (const std::string& n : names)
          row.push_back(metric(r.metrics(), n));
        rows.push_back(std::move(row));
      }
      absl::StrAppend(&out, "\n", Sanitize(g.game()), " ", table, ":\n",
                      RenderTable(ec, rows));
    }
  }
  return out + SkippedSection(report.skipped());
}

std::string SkippedSection(
    const google::protobuf::RepeatedPtrField<v1::FileAudit>& skipped) {
  if (skipped.empty()) return "";
  std::string out = "\nskipped:\n";
  for (const v1::FileAudit& f : skipped) {
    absl::StrAppend(&out, "  ", AuditLine(f), "\n");
  }
  return out;
}

}  // namespace cardref::analyzer
