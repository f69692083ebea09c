// The functions through which the game-independent layers reach
// Kraken (games/api/entry_points.h says what each does).
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_ENTRY_POINTS_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_ENTRY_POINTS_H_

#include "games/api/entry_points.h"

CARDREF_GAME_ENTRY_POINTS(kraken)

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_ENTRY_POINTS_H_
