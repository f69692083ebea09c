#include "referee/games/all_games.h"

#include <cstdlib>
#include <iostream>

#include "referee/games/craits/craits.h"
#include "referee/games/kraken/kraken.h"
#include "referee/games/krass_kariert/krass_kariert.h"

namespace cardref {

namespace {
void MustRegister(GameRegistry& registry, GameInfo info) {
  absl::Status st = registry.Register(std::move(info));
  if (!st.ok()) {  // a programming error: two games with one id
    std::cerr << st << "\n";
    std::abort();
  }
}
}  // namespace

void RegisterAllGames(GameRegistry& registry) {
  MustRegister(registry, craits::CraitsGameInfo());
  MustRegister(registry, kraken::KrakenGameInfo());
  MustRegister(registry, krass_kariert::KrassKariertGameInfo());
}

const GameRegistry& AllGames() {
  static const GameRegistry* registry = [] {
    auto* r = new GameRegistry;
    RegisterAllGames(*r);
    return r;
  }();
  return *registry;
}

}  // namespace cardref
