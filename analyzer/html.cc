#include "analyzer/html.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analyzer/interval_proto.h"
#include "analyzer/render.h"

namespace cardref::analyzer {
namespace {

constexpr char kStyle[] = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.5em; }
section.game { border: 1px solid #ccc; border-radius: 6px; padding: 0 1em 1em;
  margin-bottom: 1.5em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ddd; padding: 2px 6px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.charts { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { margin: 0; } figcaption { font-size: 0.85em; color: #555; }
svg text { font-size: 11px; fill: #222; }
)";

std::string Num(double x, int decimals = 1) { return Fixed(x, decimals); }

// About how wide the longest of `names` is as 11 px SVG text: 7 px a
// character, 12 for wide scripts; charts make room for it, so that no name
// is clipped.
double LabelWidth(const std::vector<std::string>& names) {
  double longest = 0;
  for (const std::string& name : names) {
    double w = 0;
    for (unsigned char c : name) {
      if ((c & 0xc0) != 0x80) w += c >= 0xe1 ? 12 : 7;  // lead bytes only
    }
    longest = std::max(longest, w);
  }
  return longest;
}

// Ratings with their 95% intervals: one row per player.
std::string RatingsChart(const v1::GameRatings& g) {
  if (g.players().empty()) return "";
  // A separated player has a bound but no rating; a player without a
  // bound on one side is drawn to the edge of the chart on that side.
  double lo = 1e300, hi = -1e300;
  for (const v1::PlayerRating& p : g.players()) {
    std::vector<double> values;
    if (p.has_rating()) values.push_back(p.rating());
    if (p.has_ci_low()) values.push_back(p.ci_low());
    if (p.has_ci_high()) values.push_back(p.ci_high());
    for (double v : values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi) lo = hi = 1500;
  if (hi - lo < 1) {
    lo -= 50;
    hi += 50;
  }
  std::vector<std::string> names;
  for (const v1::PlayerRating& p : g.players()) names.push_back(p.player());
  const double left = std::max(140.0, LabelWidth(names) + 16), width = 360,
               row = 22;
  const double height = row * g.players_size() + 30;
  auto x = [&](double r) { return left + (r - lo) / (hi - lo) * width; };
  std::string svg = absl::StrFormat(
      "<svg class=\"ratings\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%d\" height=\"%d\" role=\"img\">",
      // The axis labels sit on the bottom edge: room for their descent.
      static_cast<int>(left + width + 60), static_cast<int>(height + 6));
  int i = 0;
  for (const v1::PlayerRating& p : g.players()) {
    const double y = 15 + row * i++;
    const double low = p.has_ci_low() ? p.ci_low() : lo;
    const double high = p.has_ci_high() ? p.ci_high() : hi;
    const double point =
        p.has_rating() ? p.rating() : p.has_ci_low() ? p.ci_low() : high;
    const std::string interval =
        p.has_ci_low() && p.has_ci_high()
            ? absl::StrCat(Num(p.ci_low()), "..", Num(p.ci_high()))
            : p.ci_note();
    absl::StrAppend(
        &svg,
        absl::StrFormat("<text x=\"%d\" y=\"%s\" text-anchor=\"end\">%s</text>",
                        static_cast<int>(left - 8), Num(y + 4),
                        HtmlEscape(p.player())),
        absl::StrFormat(
            "<line class=\"interval\" x1=\"%s\" x2=\"%s\" y1=\"%s\" "
            "y2=\"%s\" stroke=\"#4a78b5\" stroke-width=\"3\"/>",
            Num(x(low)), Num(x(high)), Num(y), Num(y)),
        absl::StrFormat("<circle cx=\"%s\" cy=\"%s\" r=\"4\" fill=\"#c33\">"
                        "<title>%s: %s (%s)</title></circle>",
                        Num(x(point)), Num(y), HtmlEscape(p.player()),
                        p.has_rating() ? Num(p.rating()) : "no finite rating",
                        HtmlEscape(interval)),
        absl::StrFormat("<text x=\"%s\" y=\"%s\">%s</text>",
                        Num(x(high) + 6), Num(y + 4),
                        p.has_rating() ? Num(p.rating(), 0)
                        : p.has_ci_low() ? absl::StrCat("&gt;= ", Num(p.ci_low(), 0))
                                         : absl::StrCat("&lt;= ", Num(high, 0))));
  }
  const double axis = height - 10;
  absl::StrAppend(
      &svg,
      absl::StrFormat("<line x1=\"%d\" x2=\"%d\" y1=\"%s\" y2=\"%s\" "
                      "stroke=\"#888\"/>",
                      static_cast<int>(left), static_cast<int>(left + width),
                      Num(axis), Num(axis)),
      absl::StrFormat("<text x=\"%d\" y=\"%s\">%s</text>",
                      static_cast<int>(left), Num(axis + 10), Num(lo, 0)),
      absl::StrFormat("<text x=\"%d\" y=\"%s\" text-anchor=\"end\">%s</text>",
                      static_cast<int>(left + width), Num(axis + 10),
                      Num(hi, 0)),
      "</svg>");
  return svg;
}

// One player's final scores as a histogram.
std::string ScoreHistogram(const v1::PlayerStatsProto& p) {
  const int bins = 12;
  if (p.score_distribution().empty()) return "";
  const int64_t lo = p.score_distribution(0).value();
  const int64_t hi =
      p.score_distribution(p.score_distribution_size() - 1).value();
  const double span = static_cast<double>(hi - lo + 1);
  std::vector<int64_t> counts(bins, 0);
  for (const v1::ValueCount& v : p.score_distribution()) {
    const int b =
        std::min(bins - 1, static_cast<int>((v.value() - lo) / span * bins));
    counts[b] += v.count();
  }
  const int64_t top = *std::max_element(counts.begin(), counts.end());
  const double w = 180, h = 70, bar = w / bins;
  std::string svg = absl::StrFormat(
      "<svg class=\"histogram\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%d\" height=\"%d\" role=\"img\">",
      static_cast<int>(w), static_cast<int>(h + 28));
  for (int b = 0; b < bins; ++b) {
    const double bh = top == 0 ? 0 : h * counts[b] / static_cast<double>(top);
    absl::StrAppend(
        &svg, absl::StrFormat("<rect x=\"%s\" y=\"%s\" width=\"%s\" "
                              "height=\"%s\" fill=\"#6a9f58\"><title>%d</title>"
                              "</rect>",
                              Num(b * bar + 1), Num(h - bh + 14), Num(bar - 2),
                              Num(bh), counts[b]));
  }
  absl::StrAppend(
      &svg,
      absl::StrFormat("<text x=\"0\" y=\"10\">%s</text>",
                      HtmlEscape(p.player())),
      absl::StrFormat("<text x=\"0\" y=\"%d\">%d</text>",
                      static_cast<int>(h + 26), lo),
      absl::StrFormat("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>",
                      static_cast<int>(w), static_cast<int>(h + 26), hi),
      "</svg>");
  return svg;
}

// Row player's share of finishing ahead of the column player.
std::string HeadToHeadMap(const v1::GameStatsProto& g) {
  if (g.head_to_head().empty()) return "";
  std::vector<std::string> names;
  for (const v1::PlayerStatsProto& p : g.players()) names.push_back(p.player());
  std::map<std::pair<std::string, std::string>, const v1::HeadToHead*> cells;
  for (const v1::HeadToHead& h : g.head_to_head()) {
    cells[{h.player(), h.opponent()}] = &h;
  }
  // Row names end left of the map; column names rise at 45 degrees.
  const double label_width = LabelWidth(names);
  const double left = std::max(140.0, label_width + 16), cell = 34;
  const double rise = label_width * 0.71;  // a name's height at 45 degrees
  const double top = std::max(90.0, rise + 16);
  const double size = cell * static_cast<double>(names.size());
  std::string svg = absl::StrFormat(
      "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" "
      "width=\"%d\" height=\"%d\" role=\"img\">",
      static_cast<int>(left + size + std::max(60.0, rise + 10)),
      static_cast<int>(top + size + 10));
  for (size_t c = 0; c < names.size(); ++c) {
    const double x = left + cell * c + cell / 2;
    absl::StrAppend(&svg, absl::StrFormat("<text transform=\"translate(%s,%d) "
                                          "rotate(-45)\">%s</text>",
                                          Num(x), static_cast<int>(top - 6),
                                          HtmlEscape(names[c])));
  }
  // White at an even share, towards red (behind) or blue (ahead).
  auto mix = [](double t, int r, int g, int b) {
    auto channel = [t](int c) {
      return static_cast<int>(std::lround(255 + t * (c - 255)));
    };
    return absl::StrFormat("#%02x%02x%02x", channel(r), channel(g), channel(b));
  };
  for (size_t r = 0; r < names.size(); ++r) {
    absl::StrAppend(
        &svg, absl::StrFormat("<text x=\"%d\" y=\"%s\" text-anchor=\"end\">"
                              "%s</text>",
                              static_cast<int>(left - 6),
                              Num(top + cell * r + cell / 2 + 4),
                              HtmlEscape(names[r])));
    for (size_t c = 0; c < names.size(); ++c) {
      auto it = cells.find({names[r], names[c]});
      std::string fill = "#eee", label, title, ink = "#222";
      if (it != cells.end() && it->second->games() > 0) {
        const v1::HeadToHead& h = *it->second;
        const double share =
            (h.ahead() + 0.5 * h.level()) / static_cast<double>(h.games());
        const double t = std::abs(share - 0.5) * 2;
        fill = share < 0.5 ? mix(t, 215, 48, 39) : mix(t, 69, 117, 180);
        if (t > 0.6) ink = "#fff";
        label = Num(100 * share, 0);
        title = absl::StrCat(names[r], " vs ", names[c], ": ahead ", h.ahead(),
                             ", behind ", h.behind(), ", level ", h.level());
      }
      absl::StrAppend(
          &svg,
          absl::StrFormat(
              "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" "
              "fill=\"%s\" stroke=\"#fff\"><title>%s</title></rect>",
              Num(left + cell * c), Num(top + cell * r), Num(cell), Num(cell),
              fill, HtmlEscape(title)),
          absl::StrFormat("<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" "
                          "style=\"fill:%s\">%s</text>",
                          Num(left + cell * c + cell / 2),
                          Num(top + cell * r + cell / 2 + 4), ink, label));
    }
  }
  absl::StrAppend(&svg, "</svg>");
  return svg;
}

std::string PlayerTable(const v1::GameStatsProto& g) {
  std::string out =
      "<table><tr><th>player</th><th>games</th><th>wins</th><th>win %</th>"
      "<th>95% interval</th><th>score mean</th><th>median</th><th>sd</th>"
      "<th>decision p50 ms</th><th>p95 ms</th><th>rejected</th>"
      "<th>timeouts</th><th>substitutions</th></tr>";
  for (const v1::PlayerStatsProto& p : g.players()) {
    absl::StrAppend(&out, "<tr><td>", HtmlEscape(p.player()), "</td><td>",
                    p.games(), "</td><td>", p.wins(), "</td><td>",
                    Num(100 * p.win_rate()), "</td><td>",
                    HtmlEscape(FormatInterval(p.win_rate_ci(), 1, 100)),
                    "</td><td>",
                    Num(p.score_mean(), 2), "</td><td>", Num(p.score_median()),
                    "</td><td>", Num(p.score_stddev(), 2), "</td><td>",
                    Num(p.decision_micros().p50() / 1000.0, 3), "</td><td>",
                    Num(p.decision_micros().p95() / 1000.0, 3), "</td><td>",
                    p.rejected(), "</td><td>", p.timeouts(), "</td><td>",
                    p.substitutions(), "</td></tr>");
  }
  return out + "</table>";
}

std::string SeatTable(const v1::GameStatsProto& g) {
  std::string out =
      "<table><tr><th>seat</th><th>games</th><th>wins</th><th>win %</th>"
      "<th>95% interval</th><th>score mean</th></tr>";
  for (const v1::SeatEffect& s : g.seat_effect()) {
    absl::StrAppend(&out, "<tr><td>", s.seat(), "</td><td>", s.games(),
                    "</td><td>", s.wins(), "</td><td>", Num(100 * s.win_rate()),
                    "</td><td>",
                    HtmlEscape(FormatInterval(s.win_rate_ci(), 1, 100)),
                    "</td><td>",
                    Num(s.score_mean(), 2), "</td></tr>");
  }
  return out + "</table>";
}

}  // namespace

std::string HtmlEscape(absl::string_view s) {
  std::string out;
  for (char c : Sanitize(s)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderHtml(const v1::AnalysisReport& report) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>cardref analysis</title><style>",
      kStyle, "</style></head><body>\n<h1>cardref analysis</h1>\n");
  const v1::AuditReportProto& audit = report.audit();
  absl::StrAppend(&out, "<section id=\"audit\"><h2>Audit: ", audit.files_size(),
                  " files</h2><table><tr><th>verdict</th>"
                  "<th>files</th></tr>");
  for (const v1::NamedCount& c : audit.verdicts()) {
    absl::StrAppend(&out, "<tr><td>", HtmlEscape(c.name()), "</td><td>",
                    c.count(), "</td></tr>");
  }
  absl::StrAppend(&out, "</table>");
  bool listed = false;
  for (const v1::FileAudit& f : audit.files()) {
    if (f.verdict() == "OK") continue;
    if (!listed) absl::StrAppend(&out, "<ul class=\"problems\">");
    listed = true;
    absl::StrAppend(&out, "<li><b>", HtmlEscape(f.verdict()), "</b> ",
                    HtmlEscape(f.file()), ": ", HtmlEscape(f.message()),
                    "</li>");
  }
  if (listed) absl::StrAppend(&out, "</ul>");
  absl::StrAppend(&out, "</section>\n");
  std::map<std::string, const v1::GameRatings*> ratings;
  for (const v1::GameRatings& g : report.ratings().games()) {
    ratings[g.game()] = &g;
  }
  for (const v1::GameStatsProto& g : report.stats().games()) {
    absl::StrAppend(&out, "<section class=\"game\" id=\"game-",
                    HtmlEscape(g.game()), "\"><h2>", HtmlEscape(g.game()), ": ",
                    g.logs(), " games</h2><div class=\"charts\">");
    auto it = ratings.find(g.game());
    if (it != ratings.end()) {
      absl::StrAppend(&out, "<figure>", RatingsChart(*it->second),
                      "<figcaption>Ratings (mean 1500) with 95% bootstrap "
                      "intervals</figcaption></figure>");
    }
    absl::StrAppend(&out, "<figure>", HeadToHeadMap(g),
                    "<figcaption>Head to head: % of games the row player "
                    "finished ahead (level = half)</figcaption></figure>"
                    "</div><h3>Final scores</h3><div class=\"charts\">");
    for (const v1::PlayerStatsProto& p : g.players()) {
      absl::StrAppend(&out, "<figure>", ScoreHistogram(p), "</figure>");
    }
    absl::StrAppend(&out, "</div><h3>Players</h3>", PlayerTable(g),
                    "<h3>By seat</h3>", SeatTable(g), "</section>\n");
  }
  absl::StrAppend(&out, "</body></html>\n");
  return out;
}

absl::Status WriteHtmlReport(const std::string& path,
                             const v1::AnalysisReport& report) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << RenderHtml(report);
  out.close();
  if (!out) {
    return absl::InternalError(
        absl::StrCat("cannot write the HTML report ", path));
  }
  return absl::OkStatus();
}

}  // namespace cardref::analyzer
