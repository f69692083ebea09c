// The registry-backed entry points of transcript.h: every registered game
// with its JSON adapter. Kept apart from transcript.cc so the generic core
// (and its test with a fake game) links no real game.
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/transcript.h"
#include "games/all_games.h"

namespace cardref::conformance {

GameSources DefaultGameSources() {
  return GameSources{&AllGames(), &FindJsonAdapter};
}

TranscriptReport ReplayTranscript(absl::string_view line_json_text,
                                  int line_number) {
  return ReplayTranscript(line_json_text, line_number, DefaultGameSources());
}

FileReport CheckFile(const std::string& path) {
  return CheckFile(path, DefaultGameSources());
}

}  // namespace cardref::conformance
