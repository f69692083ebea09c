// Every game cardref knows, registered explicitly.
#ifndef CARDREF_GAMES_ALL_GAMES_H_
#define CARDREF_GAMES_ALL_GAMES_H_

#include "games/api/registry.h"

namespace cardref {

// Adds every game to `registry`.
void RegisterAllGames(GameRegistry& registry);

// A process-wide registry holding every game, built on first use.
// Thread-safe.
const GameRegistry& AllGames();

// The games a referee serves: AllGames() without the test-only ones
// (GameTraits::test_only) unless `with_test_games`.
const GameRegistry& ServedGames(bool with_test_games);

// The traits of the game `id` in AllGames(); empty traits (no
// partnerships) for an id it does not know, e.g. from another build's log.
const GameTraits& TraitsOf(absl::string_view id);

}  // namespace cardref

#endif  // CARDREF_GAMES_ALL_GAMES_H_
