#include "web/ladder/ladder_pages.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/playback.h"
#include "web/pages.h"

namespace cardref::web {
namespace {

using log_tools::HtmlEscape;
using nlohmann::json;

const std::vector<std::string> kSheets = {"replay.css", "web.css",
                                          "ladder.css"};

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  return it->dump();
}

// A name chosen by a stranger, as text in HTML.
std::string Name(const json& j, const char* key) {
  return HtmlEscape(log_tools::DisplayName(Str(j, key)));
}

std::string Number(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return "";
  return absl::StrFormat("%.2f", it->get<double>());
}

std::string When(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer() || it->get<int64_t>() <= 0) {
    return "";
  }
  return absl::FormatTime("%Y-%m-%d %H:%M UTC",
                          absl::FromUnixMicros(it->get<int64_t>()),
                          absl::UTCTimeZone());
}

std::string Link(const std::string& href, const std::string& text_html) {
  return absl::StrCat("<a href=\"", HtmlEscape(href), "\">", text_html, "</a>");
}

std::string Header(const std::string& title, const std::string& crumbs) {
  return absl::StrCat("<body>\n<header><h1>", HtmlEscape(title),
                      "</h1></header>\n<nav class=\"crumbs\">", crumbs,
                      "</nav>\n<div class=\"page\">\n");
}

constexpr char kCrumbs[] =
    "<a href=\"/\">leaderboard</a> &middot; <a href=\"/matches\">recent "
    "matches</a>";

constexpr char kFooter[] = "</div>\n</body>\n</html>\n";

std::string MatchRows(const json& matches, bool with_players) {
  if (matches.empty()) return "<p class=\"note\">No match yet.</p>\n";
  std::string out = absl::StrCat(
      "<div class=\"scroll\"><table class=\"matches\">\n<tr><th>match</th><th>game</th>"
      "<th>kind</th><th>state</th>",
      with_players ? "<th class=\"players\">seats</th>" : "",
      "<th>result</th><th>finished</th></tr>\n");
  for (const json& m : matches) {
    std::vector<std::string> seats, result;
    if (m.contains("seats")) {
      for (const json& s : m["seats"]) {
        seats.push_back(Link(Str(s["links"], "page"), Name(s, "entrant")));
        if (s.contains("rank")) {
          result.push_back(absl::StrCat(Name(s, "entrant"), " #",
                                        Str(s, "rank"), " (",
                                        Number(s, "score"), ")"));
        }
      }
    }
    std::string state = Str(m, "state");
    if (!m.value("deal_set_over", false)) {
      state += " (deal set in play)";
    } else if (m.contains("reason")) {
      absl::StrAppend(&state, ": ", Str(m, "reason"));
    }
    absl::StrAppend(
        &out, "<tr><td>", Link(Str(m["links"], "page"), Str(m, "id")),
        "</td><td>", HtmlEscape(Str(m, "game")), "</td><td>",
        HtmlEscape(Str(m, "kind")), "</td><td class=\"status-",
        HtmlEscape(Str(m, "state")), "\">", HtmlEscape(state), "</td>",
        with_players ? absl::StrCat("<td class=\"players\">",
                                    absl::StrJoin(seats, ", "), "</td>")
                     : "",
        "<td>", absl::StrJoin(result, ", "), "</td><td>",
        When(m, "finished_micros"), "</td></tr>\n");
  }
  absl::StrAppend(&out, "</table></div>\n");
  return out;
}

}  // namespace

std::string RatingChartSvg(const json& history) {
  constexpr double kWidth = 600, kHeight = 180, kPad = 24;
  std::vector<double> mu, low;
  for (const json& p : history) {
    mu.push_back(p.value("mu", 0.0));
    low.push_back(p.value("conservative", 0.0));
  }
  if (mu.empty()) return "";
  double top = *std::max_element(mu.begin(), mu.end());
  double bottom = *std::min_element(low.begin(), low.end());
  if (!(top > bottom)) {
    top += 1;
    bottom -= 1;
  }
  const size_t n = mu.size();
  auto x = [&](size_t i) {
    return kPad + (n == 1 ? 0.0 : (kWidth - 2 * kPad) * i / (n - 1));
  };
  auto y = [&](double v) {
    return kPad + (kHeight - 2 * kPad) * (top - v) / (top - bottom);
  };
  auto line = [&](const std::vector<double>& values) {
    std::vector<std::string> points;
    for (size_t i = 0; i < values.size(); ++i) {
      points.push_back(absl::StrFormat("%.1f,%.1f", x(i), y(values[i])));
    }
    return absl::StrJoin(points, " ");
  };
  return absl::StrFormat(
      "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
      "aria-label=\"rating after each game\">"
      "<title>rating after each game: mu (upper line) and mu - 3 sigma "
      "(lower line)</title>"
      "<line class=\"axis\" x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\"/>"
      "<text class=\"tick\" x=\"2\" y=\"%.1f\">%.1f</text>"
      "<text class=\"tick\" x=\"2\" y=\"%.1f\">%.1f</text>"
      "<polyline class=\"mu\" points=\"%s\"/>"
      "<polyline class=\"low\" points=\"%s\"/>"
      "<text class=\"tick\" x=\"%.0f\" y=\"%.0f\">%d games</text></svg>\n",
      kWidth, kHeight, kPad, kHeight - kPad, kWidth - kPad, kHeight - kPad,
      y(top) - 4, top, y(bottom) + 12, bottom, line(mu), line(low),
      kWidth - 90, kHeight - 6, static_cast<int>(n) - 1);
}

std::string LadderIndexPage(const json& standings, const json& entrants) {
  const std::string ladder = Str(standings, "ladder");
  std::string page = absl::StrCat(
      PageHead(absl::StrCat("cardref ladder: ", ladder), kSheets),
      Header(absl::StrCat("Ladder ", ladder), kCrumbs));
  for (const json& game : standings["games"]) {
    absl::StrAppend(&page, "<h2>", HtmlEscape(Str(game, "label")), "</h2>\n");
    if (game["standings"].empty()) {
      absl::StrAppend(&page,
                      "<p class=\"note\">No ranked version yet.</p>\n");
      continue;
    }
    absl::StrAppend(
        &page,
        "<div class=\"scroll\"><table class=\"matches leaderboard\">\n<tr><th>#</th>"
        "<th>entrant</th><th title=\"mu - 3 sigma\">rating</th>"
        "<th class=\"players\">interval</th><th>games</th>"
        "<th class=\"players\">last game</th>"
        "</tr>\n");
    for (const json& s : game["standings"]) {
      absl::StrAppend(
          &page, "<tr><td>", Str(s, "rank"), "</td><td>",
          Link(Str(s["links"], "page"), Name(s, "entrant")), " v",
          Str(s, "version_id"), "</td><td>", Number(s, "conservative"),
          "</td><td class=\"players\">",
          absl::StrFormat("%.2f to %.2f", s["interval"][0].get<double>(),
                          s["interval"][1].get<double>()),
          "</td><td>", Str(s, "games"), "</td><td class=\"players\">",
          When(s, "last_game_micros"), "</td></tr>\n");
    }
    absl::StrAppend(&page, "</table></div>\n");
  }
  absl::StrAppend(&page,
                  "<p class=\"note\">Rating: the conservative mu - 3 sigma "
                  "of the ladder's model; interval: mu - 3 sigma to mu + 3 "
                  "sigma.</p>\n<h2>Entrants</h2>\n");
  std::vector<std::string> names;
  for (const json& e : entrants["entrants"]) {
    names.push_back(Link(Str(e["links"], "page"), Name(e, "name")));
  }
  absl::StrAppend(
      &page,
      names.empty() ? "<p class=\"note\">None yet.</p>\n"
                    : absl::StrCat("<ul class=\"entrants\"><li>",
                                   absl::StrJoin(names, "</li><li>"),
                                   "</li></ul>\n"),
      "<p class=\"note\">The same as JSON: <a href=\"/api/standings\">"
      "/api/standings</a>, <a href=\"/api/entrants\">/api/entrants</a>, <a "
      "href=\"/api/matches\">/api/matches</a></p>\n",
      kFooter);
  return page;
}

std::string LadderEntrantPage(const std::string& ladder_name,
                              const json& entrant) {
  const std::string name = log_tools::DisplayName(Str(entrant, "name"));
  std::string page = absl::StrCat(
      PageHead(absl::StrCat(name, " on ladder ", ladder_name), kSheets),
      Header(absl::StrCat("Entrant ", name), kCrumbs), "<h2>Versions</h2>\n");
  absl::StrAppend(&page,
                  "<div class=\"scroll\"><table class=\"matches versions\">\n<tr><th>version</th>"
                  "<th>status</th><th>since</th><th class=\"players\">content "
                  "hash</th></tr>\n");
  for (const json& v : entrant["versions"]) {
    std::string status = Str(v, "status");
    if (!Str(v, "reason").empty()) absl::StrAppend(&status, ": ", Str(v, "reason"));
    absl::StrAppend(&page, "<tr><td>v", Str(v, "id"), "</td><td>",
                    HtmlEscape(status), "</td><td>", When(v, "status_micros"),
                    "</td><td class=\"players hash\">",
                    HtmlEscape(Str(v, "content_hash").substr(0, 16)),
                    "</td></tr>\n");
  }
  absl::StrAppend(&page, "</table></div>\n<h2>Rating history</h2>\n");
  if (entrant["ratings"].empty()) {
    absl::StrAppend(&page, "<p class=\"note\">No rated game yet.</p>\n");
  }
  for (const json& r : entrant["ratings"]) {
    absl::StrAppend(&page, "<h3>", HtmlEscape(Str(r, "game")), ", v",
                    Str(r, "version_id"), "</h3>\n<figure>",
                    RatingChartSvg(r["history"]), "</figure>\n");
  }
  absl::StrAppend(&page, "<h2>Faults</h2>\n");
  const json& faults = entrant["faults"];
  if (faults["by_kind"].empty()) {
    absl::StrAppend(&page, "<p class=\"note\">None in its ",
                    Str(faults, "counted_matches"),
                    " newest finished matches.</p>\n");
  } else {
    absl::StrAppend(&page,
                    "<table class=\"matches faults\">\n<tr><th>kind</th>"
                    "<th>count</th></tr>\n");
    for (const auto& [kind, n] : faults["by_kind"].items()) {
      absl::StrAppend(&page, "<tr><td>", HtmlEscape(kind), "</td><td>",
                      n.dump(), "</td></tr>\n");
    }
    absl::StrAppend(&page, "</table>\n<p class=\"note\">Counted in the logs "
                           "of its ",
                    Str(faults, "counted_matches"),
                    " newest finished matches whose deal sets are over, "
                    "and over its voided matches.</p>\n");
  }
  absl::StrAppend(&page, "<h2>Recent games</h2>\n",
                  MatchRows(entrant["recent_matches"], true),
                  "<p class=\"note\">Its author sees its bots' output, "
                  "timings and logs with its credential: docs/web.md, "
                  "\"Owner-only\".</p>\n",
                  kFooter);
  return page;
}

std::string LadderMatchesPage(const std::string& ladder_name,
                              const json& matches) {
  return absl::StrCat(
      PageHead(absl::StrCat("cardref ladder ", ladder_name, ": matches"),
               kSheets),
      Header(absl::StrCat("Ladder ", ladder_name, ": recent matches"),
             kCrumbs),
      MatchRows(matches["matches"], true), kFooter);
}

}  // namespace cardref::web
