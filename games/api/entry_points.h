// The functions through which the game-independent layers reach a game,
// one per part of its folder, each in its own build target: the registry
// of each layer is generated from games/games.cmake and calls them
// (docs/adding_a_game.md). A game's <g>_entry_points.h declares them in its
// namespace with CARDREF_GAME_ENTRY_POINTS(g). Types are only declared
// here, so the header pulls in no layer.
#ifndef CARDREF_GAMES_API_ENTRY_POINTS_H_
#define CARDREF_GAMES_API_ENTRY_POINTS_H_

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
}  // namespace cardref

// Declares, in namespace cardref::GAME:
//   <g>_codec.cc:     const codec::GameCodec& Codec();
//                     engine values <-> the game's protobuf messages
//   <g>_view.cc:      std::unique_ptr<log_tools::GameView> MakeView();
//                     the game for people (cardref_log, the replay page)
//   <g>_json.cc:      std::unique_ptr<conformance::GameJsonAdapter>
//                     MakeJsonAdapter();  the conformance transcripts' JSON
//   <g>_stats.cc:     const analyzer::GameStatsHook& StatsHook();
//                     the game's own statistics in `cardref_analyze stats`
//   <g>_heuristic.cc: int HeuristicChoice(const v1::Observation& obs);
//                     cardref_bot --strategy=heuristic: the index in
//                     obs.legal_actions() of the action to play (obs has
//                     at least one); deterministic
#define CARDREF_GAME_ENTRY_POINTS(GAME)                                \
  namespace cardref::GAME {                                            \
  const codec::GameCodec& Codec();                                     \
  std::unique_ptr<log_tools::GameView> MakeView();                     \
  std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter();     \
  const analyzer::GameStatsHook& StatsHook();                          \
  int HeuristicChoice(const v1::Observation& obs);                     \
  }  // namespace cardref::GAME

#endif  // CARDREF_GAMES_API_ENTRY_POINTS_H_
