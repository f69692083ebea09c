// cardref_log html: one self-contained page that replays a game. The
// transcript (transcript.h) is embedded as JSON and drawn by plain
// JavaScript in the page: no network, no fonts, images or scripts from
// elsewhere; cards are CSS boxes with text and suit symbols.
//
// Player-controlled strings (names, versions, refusal messages) reach the
// page only as JSON data inside a <script type="application/json"> element,
// with '<', '>' and '&' written as \u escapes so no string can close the
// element, and the script puts text into the page with textContent only,
// never as HTML. The title is HTML-escaped.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_HTML_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_HTML_H_

#include <string>

#include "absl/strings/string_view.h"
#include "analyzer/log_tools/playback.h"
#include "nlohmann/json.hpp"

namespace cardref::log_tools {

// The transcript as the page's JSON data (escaped for a script element).
std::string PlaybackJson(const Playback& transcript);

// One step as the page's script reads it; `rounds`: the round results up to
// and including it (rows of the table of rounds to show).
nlohmann::json StepJson(const Step& step, int rounds);
// A table as the page's script draws it.
nlohmann::json TableJson(const Table& table);
// `data` as text for a page: ASCII only (U+2028 and friends escaped too),
// invalid UTF-8 as U+FFFD, and '<', '>', '&' as \u escapes, so that no
// string can close the element it is in.
std::string JsonForPage(const nlohmann::json& data);

// The whole page.
std::string RenderHtml(const Playback& transcript);

// &, <, >, " and ' as character references.
std::string HtmlEscape(absl::string_view text);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_HTML_H_
