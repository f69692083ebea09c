// The functions through which the game-independent layers reach
// Craits (games/api/entry_points.h says what each does).
#ifndef CARDREF_GAMES_CRAITS_CRAITS_ENTRY_POINTS_H_
#define CARDREF_GAMES_CRAITS_CRAITS_ENTRY_POINTS_H_

#include "games/api/entry_points.h"

CARDREF_GAME_ENTRY_POINTS(craits)

#endif  // CARDREF_GAMES_CRAITS_CRAITS_ENTRY_POINTS_H_
