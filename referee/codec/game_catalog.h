// The games a registry offers, as ListGames answers them: id, seats and
// every parameter with its type, range and default. The referee serves it;
// the tournament runner checks its games and parameters against it before
// it starts a referee of its own.
#ifndef CARDREF_REFEREE_CODEC_GAME_CATALOG_H_
#define CARDREF_REFEREE_CODEC_GAME_CATALOG_H_

#include "cardref/v1/referee.pb.h"
#include "games/api/registry.h"

namespace cardref::codec {

v1::ListGamesResponse GameCatalog(const GameRegistry& registry);

}  // namespace cardref::codec

#endif  // CARDREF_REFEREE_CODEC_GAME_CATALOG_H_
