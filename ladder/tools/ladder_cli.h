// The commands of cardref_ladder (docs/ladder.md), as functions over a
// store file so that tests run them without a process. Each writes what a
// person reads to `out` and returns an error a person can act on.
#ifndef CARDREF_LADDER_TOOLS_LADDER_CLI_H_
#define CARDREF_LADDER_TOOLS_LADDER_CLI_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"

namespace cardref::ladder::cli {

struct InitOptions {
  std::string store;
  std::string name;
  // "GAME:PLAYERS,...": games this build knows, each
  // with its partnerships as the game declares them (GameTraits::teams).
  std::string games;
  std::string params;        // "name=value,..." for every game
  bool duplicate = false;
  bool frozen = false;
  int64_t decision_time_limit_ms = 5000;
  int64_t match_budget_ms = 600000;
  std::string reference_entrant;
};

// Creates the store and its ladder. ALREADY_EXISTS if it has one.
[[nodiscard]] absl::Status Init(const InitOptions& options, int64_t now_micros,
                                std::ostream& out);

struct AddOptions {
  std::string store;
  std::string entrant;
  std::string command;
  // What to hash for the version's identity: a file or folder; empty: the
  // folder the bot sandbox shows the bot (sandbox::ResolveBotFolder: its
  // program's, or its script's for an interpreter), or the command's first
  // word when that cannot be resolved. Ignored when content_hash is given.
  std::string path;
  std::string content_hash;
  // A remote entrant (remote_entrant.h): no command, no files; its bot
  // connects by invitation with the credential `run` issues.
  bool remote = false;
  // The ladder's folder, to say where that credential will be; empty:
  // <store>.d beside a SQLite file.
  std::string dir;
};

// Adds a version (validating), and the entrant if it is new. A remote
// entrant has one version: adding it again is ALREADY_EXISTS.
[[nodiscard]] absl::Status Add(const AddOptions& options, int64_t now_micros,
                               std::ostream& out);

// Moves a version to ranked, rejected or retired.
[[nodiscard]] absl::Status SetStatus(const std::string& store,
                                     int64_t version_id,
                                     const std::string& status,
                                     const std::string& reason,
                                     int64_t now_micros, std::ostream& out);

// The ranked versions of each game (or of `game`, as "id:players"), best
// conservative rating (mu - 3 sigma) first. `format`: text, json (per game,
// entries with player, rating = mu - 3 sigma, mu, sigma, games) or csv (one
// row per game and version). Text ends with the versions that were
// rejected, and why.
[[nodiscard]] absl::Status Standings(const std::string& store,
                                     const std::string& game,
                                     const std::string& format,
                                     std::ostream& out);

// Every version with its status and, for a rejected or retired one, why.
// `format`: text, json or csv.
[[nodiscard]] absl::Status Versions(const std::string& store,
                                    const std::string& format,
                                    std::ostream& out);

// The recorded results (of `game`, "id:players", or all), oldest first:
// csv (one row per seat) or json (one object per result).
[[nodiscard]] absl::Status Export(const std::string& store,
                                  const std::string& game,
                                  const std::string& format, std::ostream& out);

// Freezes the ladder for its finals (no new versions, no rating drift:
// tau = 0), or thaws it.
[[nodiscard]] absl::Status Freeze(const std::string& store, bool frozen,
                                  std::ostream& out);

[[nodiscard]] absl::Status Backup(const std::string& store,
                                  const std::string& to, std::ostream& out);
[[nodiscard]] absl::Status Restore(const std::string& from,
                                   const std::string& to, std::ostream& out);

}  // namespace cardref::ladder::cli

#endif  // CARDREF_LADDER_TOOLS_LADDER_CLI_H_
