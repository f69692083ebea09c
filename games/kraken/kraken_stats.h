// Kraken's own statistics in `cardref_analyze stats` (analyzer/stats_hook.h).
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_STATS_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_STATS_H_

#include "analyzer/stats_hook.h"

namespace cardref::kraken {

const analyzer::GameStatsHook& StatsHook();

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_STATS_H_
