// KrassKariert for people: card faces, the table, results in words (cardref_log).
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_VIEW_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_VIEW_H_

#include "analyzer/log_tools/game_view.h"

#include <memory>

namespace cardref::krass_kariert {

std::unique_ptr<log_tools::GameView> MakeView();

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_VIEW_H_
