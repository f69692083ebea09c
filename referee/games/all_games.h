// Every game cardref knows, registered explicitly.
#ifndef CARDREF_REFEREE_GAMES_ALL_GAMES_H_
#define CARDREF_REFEREE_GAMES_ALL_GAMES_H_

#include "referee/games/api/registry.h"

namespace cardref {

// Adds every game to `registry`.
void RegisterAllGames(GameRegistry& registry);

// A process-wide registry holding every game, built on first use.
// Thread-safe.
const GameRegistry& AllGames();

}  // namespace cardref

#endif  // CARDREF_REFEREE_GAMES_ALL_GAMES_H_
