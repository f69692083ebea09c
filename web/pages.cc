#include "web/pages.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/log_tools/log_html.h"
#include "analyzer/log_tools/replay_page.h"
#include "nlohmann/json.hpp"
#include "web/match_json.h"

namespace cardref::web {
namespace {

using log_tools::HtmlEscape;

std::string Head(const std::string& title,
                 const std::vector<std::string>& style_sheets) {
  std::string head = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">\n<title>",
      HtmlEscape(title),
      "</title>\n<link rel=\"icon\" href=\"/assets/icon.svg\" "
      "type=\"image/svg+xml\">\n");
  for (const std::string& sheet : style_sheets) {
    absl::StrAppend(&head, "<link rel=\"stylesheet\" href=\"/assets/", sheet,
                    "\">\n");
  }
  absl::StrAppend(&head, "</head>\n");
  return head;
}

std::string Players(const v1::MatchInfo& info) {
  std::vector<std::string> names;
  for (const v1::SeatInfo& seat : info.seats()) {
    names.push_back(log_tools::DisplayName(seat.player_name()));
  }
  return absl::StrJoin(names, ", ");
}

constexpr char kIndexLink[] =
    "<nav class=\"crumbs\"><a href=\"/\">all matches</a></nav>\n";

}  // namespace

std::string IndexPage(const std::vector<IndexEntry>& matches,
                      const std::string& next_page_token,
                      const GameRegistry& registry) {
  std::string page = absl::StrCat(
      Head("cardref: matches", {"replay.css", "web.css"}),
      "<body>\n<header><h1>Matches</h1></header>\n<div class=\"page\">\n");
  if (matches.empty()) {
    absl::StrAppend(&page, "<p class=\"note\">No match yet.</p>\n");
  } else {
    absl::StrAppend(&page,
                    "<table class=\"matches\">\n<tr><th>match</th><th>game</th>"
                    "<th>status</th><th class=\"players\">players</th>"
                    "<th>result</th></tr>\n");
    for (const IndexEntry& e : matches) {
      const v1::MatchInfo& info = e.info;
      const std::string status = StatusName(info.status());
      std::string game, players, result;
      if (e.events_public) {
        absl::StatusOr<const GameInfo*> found = registry.Find(info.game());
        game = found.ok() ? (*found)->display_name : info.game();
        players = Players(info);
        if (info.status() == v1::MATCH_STATUS_FINISHED) {
          std::vector<std::string> scores;
          for (int64_t s : info.result().scores()) scores.push_back(absl::StrCat(s));
          result = absl::StrJoin(scores, " : ");
        }
      } else {
        game = "(not public yet)";
      }
      absl::StrAppend(
          &page, "<tr><td><a href=\"/matches/", HtmlEscape(info.match_id()),
          "\">", HtmlEscape(info.match_id()), "</a></td><td>",
          HtmlEscape(game), "</td><td class=\"status-", HtmlEscape(status),
          "\">", HtmlEscape(status), "</td><td class=\"players\">",
          HtmlEscape(players), "</td><td>", HtmlEscape(result),
          "</td></tr>\n");
    }
    absl::StrAppend(&page, "</table>\n");
  }
  if (!next_page_token.empty()) {
    absl::StrAppend(&page, "<p><a href=\"/?page_token=",
                    HtmlEscape(next_page_token), "\">more matches</a></p>\n");
  }
  absl::StrAppend(&page,
                  "<p class=\"note\">The same as JSON: <a "
                  "href=\"/api/matches\">/api/matches</a></p>\n</div>\n"
                  "</body>\n</html>\n");
  return page;
}

std::string LivePage(const LivePageData& d) {
  const nlohmann::json data = {
      {"matchId", d.match_id},
      {"status", d.status},
      {"mode", d.mode},
      {"delay", d.delay_decisions},
      {"apiUrl", absl::StrCat("/api/matches/", d.match_id)},
      {"eventsUrl", absl::StrCat("/api/matches/", d.match_id, "/events")}};
  return absl::StrCat(
      Head(absl::StrCat(d.game_name, " match ", d.match_id),
           {"replay.css", "web.css"}),
      log_tools::kReplayPageBody, kIndexLink,
      "<p id=\"live\" data-state=\"connecting\"></p>\n"
      "<script type=\"application/json\" id=\"page-data\">",
      log_tools::JsonForPage(data),
      "</script>\n<script src=\"/assets/replay.js\"></script>\n"
      "<script src=\"/assets/live.js\"></script>\n</body>\n</html>\n");
}

std::string ReplayPage(const log_tools::Playback& playback) {
  return absl::StrCat(
      Head(absl::StrCat(playback.game_name, " replay: ",
                        playback.header.match_id()),
           {"replay.css", "web.css"}),
      log_tools::kReplayPageBody, kIndexLink,
      "<script type=\"application/json\" id=\"game-data\">",
      log_tools::PlaybackJson(playback),
      "</script>\n<script src=\"/assets/replay.js\"></script>\n</body>\n"
      "</html>\n");
}

std::string PageHead(const std::string& title,
                     const std::vector<std::string>& style_sheets) {
  return Head(title, style_sheets);
}

std::string MessagePage(const std::string& title, const std::string& text) {
  return absl::StrCat(Head(title, {"replay.css", "web.css"}),
                      "<body>\n<header><h1>", HtmlEscape(title),
                      "</h1></header>\n", kIndexLink, "<div class=\"page\"><p>",
                      HtmlEscape(text), "</p></div>\n</body>\n</html>\n");
}

}  // namespace cardref::web
