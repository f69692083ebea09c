// What every seat of a game sees at one moment, drawn as a table: the view
// of spectators (the web front's live pages, playback's kPublicViewer).
//
// It is derived from the seats' own views, never from the engine's state:
// each seat's table is drawn by the game's view (GameView::MakeTable with
// that seat as the viewer, so it holds that seat's observation only), and a
// part of the public table is kept only if the seats agree on it. A seat's
// row comes from the other seats' tables (its hand as a count only; its
// info line, face-up cards and turn only if every other seat draws them
// alike); a pile or the status line only if every seat draws it alike. A
// game whose view puts a seat's secret into a shared part loses that part
// rather than showing it.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_PUBLIC_TABLE_H_
#define CARDREF_ANALYZER_LOG_TOOLS_PUBLIC_TABLE_H_

#include <string>
#include <vector>

#include "analyzer/log_tools/game_view.h"
#include "analyzer/log_tools/table.h"
#include "cardref/v1/game.pb.h"

namespace cardref::log_tools {

// `views[s]` is seat s's observation (codec::FillObservation).
Table PublicTable(const GameView& view, const std::vector<v1::Observation>& views,
                  const std::vector<std::string>& names);

// The lines every seat's Effects list holds (as many times as the one that
// holds it fewest), in the order of seat 0's list. `before[s]` and
// `after[s]`: seat s's observations around the record.
std::vector<std::string> PublicEffects(
    const GameView& view, const std::vector<v1::Observation>& before,
    const std::vector<v1::Observation>& after, const v1::Action* action,
    const std::vector<std::string>& names);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_PUBLIC_TABLE_H_
