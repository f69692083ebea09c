// Conformance transcript files (../shared/conformance/README.md): one game
// per line. Reads a file, parses each line, finds its game and JSON adapter,
// and replays it (replay.h). A bad line costs that line only.
#ifndef CARDREF_ANALYZER_CONFORMANCE_TRANSCRIPT_H_
#define CARDREF_ANALYZER_CONFORMANCE_TRANSCRIPT_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/replay.h"
#include "games/api/registry.h"

namespace cardref::conformance {

// Where the games and their adapters come from. Not owned; must outlive the
// calls that use it.
struct GameSources {
  const GameRegistry* games = nullptr;
  std::function<const GameJsonAdapter*(absl::string_view game_id)> adapter;
};

// Every game of AllGames() with the adapter FindJsonAdapter() gives it.
// Defined in cardref_conformance_lib (the target that links the games).
GameSources DefaultGameSources();

// Replays one transcript line. A malformed line (the JSON parser's message),
// an unknown game or a game without adapter is a setup difference.
TranscriptReport ReplayTranscript(absl::string_view line_json_text,
                                  int line_number, const GameSources& sources);
// With DefaultGameSources(); in cardref_conformance_lib.
TranscriptReport ReplayTranscript(absl::string_view line_json_text,
                                  int line_number);

struct FileReport {
  std::string path;
  // Not OK if the file cannot be read or holds no game; `games` then holds
  // what was read before the failure.
  absl::Status status;
  std::vector<TranscriptReport> games;  // in line order; blank lines skipped

  int num_ok() const;
  int num_differ() const;
};

// Replays every line of the file at `path`.
FileReport CheckFile(const std::string& path, const GameSources& sources);
// With DefaultGameSources(); in cardref_conformance_lib.
FileReport CheckFile(const std::string& path);

// The runner's line for one game:
//   "OK <path>:<line> <game> (<n> decisions)"
//   "DIFF <path>:<line> <where>: <detail>"   (see Difference::ToString)
std::string FormatGameLine(absl::string_view path,
                           const TranscriptReport& report);

}  // namespace cardref::conformance

#endif  // CARDREF_ANALYZER_CONFORMANCE_TRANSCRIPT_H_
