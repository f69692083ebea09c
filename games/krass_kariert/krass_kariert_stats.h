// Krass Kariert's own statistics in `cardref_analyze stats` (analyzer/stats_hook.h).
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_STATS_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_STATS_H_

#include "analyzer/stats_hook.h"

namespace cardref::krass_kariert {

const analyzer::GameStatsHook& StatsHook();

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_STATS_H_
