// `cardref_ladder run`: workers that keep a ladder playing on a local
// referee (docs/ladder.md, "Running a ladder").
//
// The runner starts a referee of its own (tournament::StartLocalReferee)
// in the ladder's folder, whose signing key stays there (owner-only), so
// every log of the ladder carries one key. Each worker (a thread with its
// own store connection) loops:
//
//   1. claim the oldest scheduled match (LadderStore::ClaimNext, with a
//      lease it renews while the match plays); with none, schedule: the
//      validation matches of new versions, then a matchmaking round of
//      each game that has fewer than `ahead` matches waiting;
//   2. play it (play_match.h) and audit its signed log;
//   3. record the result under the log's hash, rating it in the same
//      transaction (a retry never counts twice); a validation match
//      ranks or rejects its new version; a match the referee's side failed
//      is voided and its deal replayed as a new match; one a bot kept from
//      being played is voided.
//
// A worker killed mid-match leaves its claim; once the lease ends, the
// next worker takes the match again (ClaimNext) and plays it afresh.
// Every `refit_every` rated results the runner refits each game's results
// in batch and prints the comparison with the online order (refit.h).
//
// Thread-safety: RunLadder is one call; `stop` may be set from anywhere (a
// signal handler may set it: it is lock-free).
#ifndef CARDREF_LADDER_RUN_RUNNER_H_
#define CARDREF_LADDER_RUN_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "tournament/bot_process.h"
#include "tournament/uid_pool.h"

namespace cardref::ladder::run {

struct RunOptions {
  std::string db;  // a SQLite file or a postgresql:// URL (OpenStore)
  // The ladder's folder (LadderFolder: play_match.h); empty: <db>.d beside
  // a SQLite file. Needed with PostgreSQL.
  std::string dir;
  // Matches to play to an end (scored, or voided for a bot's fault), then
  // stop; 0: until `stop`.
  int64_t matches = 0;
  int workers = 1;
  std::string referee_binary;  // empty: cardref_referee beside this binary
  // The reference bot's command when the ladder names no reference entrant:
  // an entrant "reference" is added with it and ranked without validation.
  // Empty: cardref_bot --strategy=random beside this binary.
  std::string reference_command;
  // Validation matches a new version plays per game before it is ranked.
  int validation_matches = 1;
  // Scheduled rated matches kept waiting per game; 0: 2 per worker.
  int ahead = 0;
  double lease_s = 60;  // a claim's lease; renewed every lease_s / 4
  int max_attempts = 3;
  // A referee-side fault voids the match and replays its deal; after this
  // many voided plays of one deal and seating it is given up.
  int max_replays = 3;
  // Rated results between two batch refits; 0: none.
  int refit_every = 100;
  // How bots are started. With `sandbox`, each in the bot sandbox
  // (tournament::StartBotSandbox: it reaches the referee only through its
  // socket, which is checked never to be the organiser's) as a uid of its
  // own from `uid_pool` (required), its CPU time held to `max_bot_cpu_s`;
  // a bot ended at a limit is reported to the referee, which settles its
  // seat. Without: plain processes as `run_as`, or as a uid of its own
  // from `uid_pool` when given (--trust_bots).
  bool sandbox = false;
  tournament::UidPool* uid_pool = nullptr;  // not owned
  tournament::RunAs run_as;
  double max_bot_cpu_s = 0;      // per bot and match; 0: no limit
  int max_bot_memory_mb = 2048;  // each bot with its children
  // Where the referee listens: remote entrants connect there. Port 0: a
  // free port, kept when the referee is started again.
  std::string referee_host = "localhost";
  int referee_port = 0;
  // How long a match with a remote entrant's seat waits for its bot's
  // invitation stream before it is voided (not counted against it).
  double remote_wait_s = 60;
  // The worker's name in claims: "<host>:<pid>:<n>" when empty; a prefix
  // otherwise.
  std::string worker_name;
};

// Runs until `stop`, or until `options.matches` matches are played;
// in-flight matches are finished (their results recorded) before it
// returns, and claims not yet started are released. Progress lines go to
// `progress`. INVALID_ARGUMENT for bad options; FAILED_PRECONDITION for a
// store without a ladder, or, with `matches`, when no game has enough
// ranked or validating versions to seat a match (the message names each
// game and what it needs; without `matches` the runner waits for entrants
// and says so once); UNAVAILABLE if the referee does not start; the errors
// of tournament::StartBotSandbox with `sandbox`.
[[nodiscard]] absl::Status RunLadder(const RunOptions& options,
                                     const std::atomic<bool>& stop,
                                     std::ostream& progress);

// The reference bot's command of this build: cardref_bot beside the running
// binary, random strategy.
std::string DefaultReferenceCommand();

}  // namespace cardref::ladder::run

#endif  // CARDREF_LADDER_RUN_RUNNER_H_
