// The fixed parts of the replay page (log_html.cc puts the game's JSON data
// between them): HTML skeleton, style sheet and script. Everything the page
// needs is here; it loads nothing.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_
#define CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_

namespace cardref::log_tools {

extern const char kReplayPageHead[];
extern const char kReplayPageStyle[];
extern const char kReplayPageBody[];
extern const char kReplayPageScript[];

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_REPLAY_PAGE_H_
