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

namespace cardref::log_tools {

// The transcript as the page's JSON data (escaped for a script element).
std::string PlaybackJson(const Playback& transcript);

// The whole page.
std::string RenderHtml(const Playback& transcript);

// &, <, >, " and ' as character references.
std::string HtmlEscape(absl::string_view text);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_HTML_H_
