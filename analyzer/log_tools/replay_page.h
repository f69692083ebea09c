// The fixed parts of the replay page (log_html.cc puts the game's JSON data
// between them): HTML skeleton, style sheet and script. Everything the page
// needs is here; it loads nothing. The style sheet and the script are bare
// text (CSS, JavaScript), so that the web front (web/) serves them as files
// and cardref_log html puts them inside <style> and <script> elements.
//
// The script defines window.cardrefReplay(data), which draws the steps of
// `data` (log_html.h's PlaybackJson) into kReplayPageBody's elements and
// returns a controller that takes more steps (a live page); and it starts
// one on the JSON of a <script type="application/json" id="game-data">
// element if the page has one.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_
#define CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_

namespace cardref::log_tools {

extern const char kReplayPageHead[];    // up to the <title>, for a file
extern const char kReplayPageStyle[];   // CSS
extern const char kReplayPageBody[];    // <body> and the page's elements
extern const char kReplayPageScript[];  // JavaScript

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_
