// The web front's HTML pages. Every string from a bot, a log or the
// request goes through log_tools::HtmlEscape or into JSON data with '<',
// '>' and '&' escaped (log_tools::JsonForPage); scripts and style sheets
// are files under /assets/ (assets.h), never inline, so the
// Content-Security-Policy of every answer forbids inline script.
#ifndef CARDREF_WEB_PAGES_H_
#define CARDREF_WEB_PAGES_H_

#include <string>
#include <vector>

#include "analyzer/log_tools/playback.h"
#include "cardref/v1/referee.pb.h"
#include "games/api/registry.h"

namespace cardref::web {

// Sent with every answer (docs/web.md, "Security").
inline constexpr char kContentSecurityPolicy[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

struct IndexEntry {
  v1::MatchInfo info;
  bool events_public = false;
};

// `/`: the matches, a link to each, and to the next page if there is one.
std::string IndexPage(const std::vector<IndexEntry>& matches,
                      const std::string& next_page_token,
                      const GameRegistry& registry);

struct LivePageData {
  std::string match_id;
  std::string game_name;
  std::string status;  // match_json.h's StatusName
  // "live": reloads into the full replay at the end; "public-replay": a
  // match over whose full replay is not shown yet.
  std::string mode = "live";
  uint32_t delay_decisions = 0;
};

// `/matches/<id>` while the match is played (or over without its full
// replay): live.js follows its events.
std::string LivePage(const LivePageData& data);

// `/matches/<id>` once it is over: the replay with every hand.
std::string ReplayPage(const log_tools::Playback& playback);

// A page's head: <!DOCTYPE html> to </head>, with the icon and the style
// sheets (files under /assets/).
std::string PageHead(const std::string& title,
                     const std::vector<std::string>& style_sheets);

// A page that says one thing (a match not public yet, not found...).
std::string MessagePage(const std::string& title, const std::string& text);

}  // namespace cardref::web

#endif  // CARDREF_WEB_PAGES_H_
