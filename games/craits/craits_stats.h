// Craits's own statistics in `cardref_analyze stats` (analyzer/stats_hook.h).
#ifndef CARDREF_GAMES_CRAITS_CRAITS_STATS_H_
#define CARDREF_GAMES_CRAITS_CRAITS_STATS_H_

#include "analyzer/stats_hook.h"

namespace cardref::craits {

const analyzer::GameStatsHook& StatsHook();

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_STATS_H_
