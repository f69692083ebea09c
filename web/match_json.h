// The JSON API's view of matches (docs/web.md, "JSON API"): what anyone may
// read of a match. A match whose events are not public yet (the twin rule,
// public_match_view.h) shows its id and status only. Player-chosen text is
// a JSON string, and the names also as people should see them
// (log_tools::DisplayName: control, bidirectional and invisible characters
// escaped, look-alike mixes of scripts as code points).
#ifndef CARDREF_WEB_MATCH_JSON_H_
#define CARDREF_WEB_MATCH_JSON_H_

#include <string>

#include "cardref/v1/referee.pb.h"
#include "games/api/registry.h"
#include "nlohmann/json.hpp"

namespace cardref::web {

// "waiting_for_players", "in_progress", "finished", "aborted", "cancelled".
std::string StatusName(v1::MatchStatus status);

// What the pages offer of a match now: "full" (the replay with every hand:
// the match is over and its seed revealed, so no match dealt from it is
// still played), "public" (the live page, or the public replay), "none"
// (not public yet).
std::string ReplayKind(const v1::MatchInfo& info, bool events_public);

// One match (`info` as GetMatch shows it to a client: no log path).
nlohmann::json MatchJson(const v1::MatchInfo& info, bool events_public,
                         const GameRegistry& registry);

// JSON text for an HTTP answer: ASCII only, invalid UTF-8 as U+FFFD.
std::string JsonText(const nlohmann::json& value);

}  // namespace cardref::web

#endif  // CARDREF_WEB_MATCH_JSON_H_
