// The registry of games by id. Games are registered explicitly by
// RegisterAllGames() (games/all_games.h), never by static
// initialisers, which the linker drops from static libraries.
#ifndef CARDREF_GAMES_API_REGISTRY_H_
#define CARDREF_GAMES_API_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "games/api/game.h"
#include "games/api/params.h"

namespace cardref {

struct GameInfo {
  std::string id;            // as in logs; also the game's folder under games/
  std::string display_name;  // as people read it
  std::string rules_prefix;  // of its rule IDs
  int rules_version = 1;
  int min_seats = 0;
  int max_seats = 0;
  GameTraits traits;  // the same as every Game of this id has
  std::vector<ParamSpec> params;  // every parameter, spec order
  // Validates `given` (unknown names, types, ranges, cross-parameter
  // constraints, each error naming its rule), fills defaults, and creates the
  // game. Given parameters that are absent take their defaults.
  std::function<absl::StatusOr<std::unique_ptr<Game>>(const GameParams& given)>
      create;
};

// Thread-compatible during registration; immutable (thread-safe) afterwards.
class GameRegistry {
 public:
  // Fails (ALREADY_EXISTS) on a duplicate id.
  absl::Status Register(GameInfo info);

  // NOT_FOUND with the list of known ids.
  absl::StatusOr<const GameInfo*> Find(absl::string_view id) const;
  absl::StatusOr<std::unique_ptr<Game>> Create(absl::string_view id,
                                               const GameParams& params) const;
  // Ids in ascending order.
  std::vector<std::string> Ids() const;

 private:
  std::map<std::string, GameInfo, std::less<>> games_;
};

}  // namespace cardref

#endif  // CARDREF_GAMES_API_REGISTRY_H_
