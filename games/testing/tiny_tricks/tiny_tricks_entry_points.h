// The functions through which the game-independent layers reach
// Tiny Tricks (games/api/entry_points.h says what each does).
#ifndef CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_
#define CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_

#include "games/api/entry_points.h"

CARDREF_GAME_ENTRY_POINTS(tiny_tricks)

#endif  // CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_
