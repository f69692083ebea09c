// The functions through which the game-independent layers reach
// Krass Kariert (games/api/entry_points.h says what each does).
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ENTRY_POINTS_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ENTRY_POINTS_H_

#include "games/api/entry_points.h"

CARDREF_GAME_ENTRY_POINTS(krass_kariert)

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_ENTRY_POINTS_H_
