// Craits for people: card faces, the table, results in words (cardref_log).
#ifndef CARDREF_GAMES_CRAITS_CRAITS_VIEW_H_
#define CARDREF_GAMES_CRAITS_CRAITS_VIEW_H_

#include "analyzer/log_tools/game_view.h"

#include <memory>

namespace cardref::craits {

std::unique_ptr<log_tools::GameView> MakeView();

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_VIEW_H_
