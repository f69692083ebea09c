// `cardref_ladder reproduce`: plays a recorded ladder match again on a
// fresh local referee, with the same deal (the match's seed), the same bot
// versions (their commands; their files are checked against the versions'
// content hashes) and the same bot seeds, and compares the two games: equal
// when the analyzer's game digests are (the game, its parameters, who sat
// where, every chance event and every action). Timing is not compared.
#ifndef CARDREF_LADDER_RUN_REPRODUCE_H_
#define CARDREF_LADDER_RUN_REPRODUCE_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/statusor.h"
#include "tournament/bot_process.h"

namespace cardref::ladder::run {

struct ReproduceOptions {
  std::string db;   // a SQLite file or a postgresql:// URL
  std::string dir;  // the ladder's folder, as RunOptions::dir
  int64_t match_id = 0;  // or:
  std::string log;       // a recorded log (found in the store by its hash)
  std::string referee_binary;  // empty: cardref_referee beside this binary
  tournament::RunAs run_as;
};

struct Reproduction {
  int64_t match_id = 0;
  std::string old_log, new_log;
  std::string old_digest, new_digest;  // hex
  bool same = false;
  // Versions whose files no longer hash to what was recorded: the replay
  // may differ for that reason alone.
  std::vector<std::string> changed_versions;
};

// Replays the match and prints what it did to `out`. NOT_FOUND for an
// unknown match or log, FAILED_PRECONDITION for a match without a recorded
// result, UNAVAILABLE if the replay could not be played (its reason).
[[nodiscard]] absl::StatusOr<Reproduction> Reproduce(
    const ReproduceOptions& options, std::ostream& out);

}  // namespace cardref::ladder::run

#endif  // CARDREF_LADDER_RUN_REPRODUCE_H_
