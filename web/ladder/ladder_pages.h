// The ladder's HTML pages (docs/web.md, "Ladder pages"), drawn on the
// server from the JSON ladder_view.h makes (the API answers the same):
// no script. Every string from the store goes through HtmlEscape (names
// through log_tools::DisplayName first); the rating charts are SVG made
// here, styled by /assets/ladder.css.
#ifndef CARDREF_WEB_LADDER_LADDER_PAGES_H_
#define CARDREF_WEB_LADDER_LADDER_PAGES_H_

#include <string>

#include "nlohmann/json.hpp"

namespace cardref::web {

// `/`: each game's leaderboard, the entrants and a link to the matches.
std::string LadderIndexPage(const nlohmann::json& standings,
                            const nlohmann::json& entrants);
// `/entrants/<name>`: EntrantJson drawn.
std::string LadderEntrantPage(const std::string& ladder_name,
                              const nlohmann::json& entrant);
// `/matches`: RecentMatchesJson drawn.
std::string LadderMatchesPage(const std::string& ladder_name,
                              const nlohmann::json& matches);
// The rating history of one version in one game as an SVG element: mu and
// mu - 3 sigma after each game.
std::string RatingChartSvg(const nlohmann::json& history);

}  // namespace cardref::web

#endif  // CARDREF_WEB_LADDER_LADDER_PAGES_H_
