// What one game looks like to a person: card faces, the table drawn from
// the seats' observations, the public effects of a step, round results in
// words. One implementation per game (games/<g>/<g>_view.cc); playback.cc is
// game-independent.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_GAME_VIEW_H_
#define CARDREF_ANALYZER_LOG_TOOLS_GAME_VIEW_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "analyzer/log_tools/table.h"
#include "cardref/v1/game.pb.h"

namespace cardref::log_tools {

class GameView {
 public:
  virtual ~GameView() = default;

  virtual CardFace Face(uint32_t card) const = 0;
  std::string CardsText(const std::vector<uint32_t>& cards) const;

  // The table after a step. `views[s]` is seat s's observation; in a seat's
  // view (viewer >= 0) only views[viewer] may be used: the others are the
  // same observation, so that no other seat's private field is at hand.
  virtual Table MakeTable(const std::vector<v1::Observation>& views, int viewer,
                          const std::vector<std::string>& names) const = 0;

  // What a step changed that every seat saw, from the public parts of two
  // observations of the same seat, one before and one after the record.
  // `action`: the record's action (public), nullptr for a chance event.
  virtual std::vector<std::string> Effects(
      const v1::Observation& before, const v1::Observation& after,
      const v1::Action* action,
      const std::vector<std::string>& names) const = 0;

  // A round result in words, and as one row of the table of rounds.
  virtual std::vector<std::string> RoundResultLines(
      const v1::RoundResult& result,
      const std::vector<std::string>& names) const = 0;
  virtual std::vector<std::string> ScoreColumns(
      const std::vector<std::string>& names) const = 0;
  virtual std::vector<std::string> ScoreRow(
      const v1::RoundResult& result) const = 0;
  // The game-specific part of the final result, in words (may be empty).
  virtual std::vector<std::string> FinalResultLines(
      const v1::FinalResult& result,
      const std::vector<std::string>& names) const = 0;
};

// nullptr for a game without a view (generated from the list of games).
std::unique_ptr<GameView> MakeGameView(absl::string_view game_id);

// "alice 12, bob 30": one value per seat.
std::string PerSeat(const std::vector<std::string>& names,
                    const std::vector<std::string>& values);
// "alice, bob"; "nobody" for an empty list.
std::string SeatList(const std::vector<std::string>& names,
                     const std::vector<int>& seats);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_GAME_VIEW_H_
