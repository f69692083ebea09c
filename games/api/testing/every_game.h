// Test support: every registered game at every seat count it allows, with
// its default parameters, so a generic suite covers a new game with no edit
// (docs/adding_a_game.md). A game whose seat count varies takes it as the
// parameter `num_players` (the convention every game follows). Test-only.
#ifndef CARDREF_GAMES_API_TESTING_EVERY_GAME_H_
#define CARDREF_GAMES_API_TESTING_EVERY_GAME_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "games/api/game.h"
#include "games/api/registry.h"

namespace cardref::every_game {

struct GameConfig {
  std::string id;
  int seats = 0;
  GameParams params;  // as given to GameInfo::create
  std::string name() const { return absl::StrCat(id, "_", seats); }
};

// One config per (game, seat count).
inline std::vector<GameConfig> Configs(const GameRegistry& registry) {
  std::vector<GameConfig> configs;
  for (const std::string& id : registry.Ids()) {
    const GameInfo* info = *registry.Find(id);
    bool variable = false;
    for (const ParamSpec& spec : info->params) {
      variable |= spec.name == "num_players";
    }
    for (int seats = info->min_seats; seats <= info->max_seats; ++seats) {
      GameConfig config;
      config.id = id;
      config.seats = seats;
      if (variable) config.params.Set("num_players", int64_t{seats});
      configs.push_back(std::move(config));
      if (!variable) break;
    }
  }
  return configs;
}

// gtest prints a parameter by this, so test names stay readable and stable.
inline void PrintTo(const GameConfig& config, std::ostream* os) {
  *os << config.name();
}

inline std::unique_ptr<Game> Create(const GameRegistry& registry,
                                    const GameConfig& config) {
  absl::StatusOr<std::unique_ptr<Game>> game =
      registry.Create(config.id, config.params);
  return game.ok() ? *std::move(game) : nullptr;
}

}  // namespace cardref::every_game

#endif  // CARDREF_GAMES_API_TESTING_EVERY_GAME_H_
