// A game log replayed into steps a person can follow: one step per record,
// each with what happened in words (the action's notation, the effects it
// had) and the table after it (every seat's cards, the pile, trick or combo
// in play, the scores). `cardref_log cat` prints it as text, `cardref_log
// html` embeds it in a replay page.
//
// The table is built from the engine's own per-seat observations
// (codec::FillObservation, exactly what the referee sends each bot), never
// from the engine's full state. The full view merges every seat's
// observation; a seat's view (viewer >= 0) uses only that seat's
// observation and what the log shows every seat (actions, faults, results),
// so it cannot show a card the seat did not see. The public view
// (kPublicViewer) shows what every seat sees: a part of the table, or an
// effect, only if every seat's own view draws it alike (public_table.h), no
// hand but its size, no deck order, no refused submission.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_PLAYBACK_H_
#define CARDREF_ANALYZER_LOG_TOOLS_PLAYBACK_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cardref/v1/log.pb.h"
#include "analyzer/log_tools/table.h"
#include "analyzer/replay.h"
#include "games/api/registry.h"
#include "referee/record/game_log.h"

namespace cardref::log_tools {

class GameView;

// The viewer of the public view (what spectators may see).
inline constexpr int kPublicViewer = -2;

// A card as drawn on the table: its rank ("A", "T", "7", "12", "X", "STOP")
// and suit letter ("C", "D", "H", "S"; empty for unsuited cards).
struct Step {
  int64_t record_index = 0;
  uint64_t byte_offset = 0;
  std::string kind;  // RecordKind: "chance", "action", ...
  int round = 0;     // the round the record belongs to (1-based)
  int seat = -1;     // the acting seat, if any
  std::string text;  // "alice: play 8S:H"
  std::vector<std::string> effects;  // "bob draws 2 (CRANK_LOSS)"
  // Lines shown at this step only (a deal's hands, a round's result).
  std::vector<std::string> details;
  Table table;  // after the record
  // A round result's row of the table of rounds (GameView::ScoreRow).
  std::vector<std::string> score_row;
};

struct Playback {
  v1::LogHeader header;
  std::string game_name;  // GameInfo::display_name
  int viewer = -1;        // -1: every seat's cards
  std::vector<std::string> seat_names;
  std::vector<Step> steps;
  // Round scores for the table of rounds: column titles, one row per round.
  std::vector<std::string> score_columns;
  std::vector<std::vector<std::string>> score_rows;
  std::string final_text;  // empty unless the log has a final result
  std::string end_text;    // how the file ends (record::DescribeEnd)
  // Set when the replay stopped following the log (a damaged or
  // inconsistent log): the steps end there.
  std::string problem;
};

// Replays `log` (its header must be readable by this build). viewer: -1 for
// the full view, kPublicViewer for the public one, else a seat number
// (INVALID_ARGUMENT if not a seat).
[[nodiscard]] absl::StatusOr<Playback> BuildPlayback(
    const record::GameLog& log, const GameRegistry& registry, int viewer);

// The same one record at a time, for a log still being written (the web
// front's live pages). Thread-compatible.
class PlaybackBuilder {
 public:
  // The replay of the game `header` describes (LogReplay::Create's errors),
  // seen by `viewer` as in BuildPlayback.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<PlaybackBuilder>>
  Create(const v1::LogHeader& header, const GameRegistry& registry,
         int viewer);
  ~PlaybackBuilder();

  // The step of the log's record `index` (the header is record 0), which
  // must follow the records added so far. FAILED_PRECONDITION (the replay's
  // discrepancy) if the game does not follow it; do not add more then.
  [[nodiscard]] absl::StatusOr<Step> Add(const v1::LogRecord& record,
                                         int64_t index, uint64_t byte_offset);

  const v1::LogHeader& header() const { return header_; }
  int viewer() const { return viewer_; }
  const std::string& game_name() const { return game_name_; }
  const std::vector<std::string>& seat_names() const { return names_; }
  const std::vector<std::string>& score_columns() const {
    return score_columns_;
  }
  // The table before the first record after the header.
  const Table& initial_table() const { return initial_table_; }

 private:
  PlaybackBuilder();
  std::vector<v1::Observation> Observe() const;
  Table MakeTable() const;
  std::vector<std::string> Effects(const std::vector<v1::Observation>& after,
                                   const v1::LogRecord& record) const;

  v1::LogHeader header_;
  int viewer_ = -1;
  std::string game_name_;
  std::vector<std::string> names_;
  std::vector<std::string> score_columns_;
  std::unique_ptr<analyzer::LogReplay> replay_;
  std::unique_ptr<GameView> view_;
  std::vector<v1::Observation> views_;  // as Observe() made them last
  Table previous_table_;
  Table initial_table_;
};

// A seat's name for people: DisplayName of the player's name, or "seat N"
// without one.
std::string SeatName(const v1::LogHeader& header, int seat);

// A player's name as text for a terminal. Names are chosen by strangers,
// and a log may come from a referee before today's naming rule
// (docs/bots.md, "Names"): escaped as analyzer::Sanitize escapes all text
// from a log (controls, bidirectional controls, invisible characters), and
// a name that mixes scripts, or holds a character of no script, shows every
// character outside ASCII as its code point ("p\u0430ypal"), so that a
// look-alike cannot pass for the name it imitates.
std::string DisplayName(absl::string_view name);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_PLAYBACK_H_
