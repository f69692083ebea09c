// The functions through which the game-independent layers reach
// Tiny Tricks, one per part of this folder, each in its own build target
// (CMakeLists.txt): the registry of each layer is generated from
// games/games.cmake and calls them. Types are only declared here, so this
// header pulls in no layer.
#ifndef CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_
#define CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_

#include <memory>

namespace cardref {
namespace v1 {
class Observation;
}  // namespace v1
namespace codec {
class GameCodec;
}  // namespace codec
namespace log_tools {
class GameView;
}  // namespace log_tools
namespace conformance {
class GameJsonAdapter;
}  // namespace conformance
namespace analyzer {
class GameStatsHook;
}  // namespace analyzer

namespace tiny_tricks {

// tiny_tricks_codec.cc: engine values <-> the game's protobuf messages.
const codec::GameCodec& Codec();
// tiny_tricks_view.cc: the game for people (cardref_log, the replay page).
std::unique_ptr<log_tools::GameView> MakeView();
// tiny_tricks_json.cc: the game in the conformance transcripts' JSON.
std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter();
// tiny_tricks_stats.cc: the game's own statistics in `cardref_analyze stats`.
const analyzer::GameStatsHook& StatsHook();
// tiny_tricks_heuristic.cc: cardref_bot --strategy=heuristic. The index in
// obs.legal_actions() of the action to play; obs is this game's
// observation with at least one legal action. Deterministic.
int HeuristicChoice(const v1::Observation& obs);

}  // namespace tiny_tricks
}  // namespace cardref

#endif  // CARDREF_GAMES_TESTING_TINY_TRICKS_TINY_TRICKS_ENTRY_POINTS_H_
