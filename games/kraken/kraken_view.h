// Kraken for people: card faces, the table, results in words (cardref_log).
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_VIEW_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_VIEW_H_

#include "analyzer/log_tools/game_view.h"

#include <memory>

namespace cardref::kraken {

std::unique_ptr<log_tools::GameView> MakeView();

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_VIEW_H_
