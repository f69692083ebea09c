// Plays one ladder match on a referee with the tournament's match runner
// (tournament/match_runner.h: one bot process per seat) and turns what
// happened into what the ladder may count: a result read from the audited,
// signed log, a fault of a bot, or a fault on the referee's side (which is
// never scored against a bot: the caller voids the match and replays its
// deal).
//
// The match's stored seed is the secret its deal and its bots' seeds are
// derived from (tournament::DealSeed with the deal set, BotSeed with the
// match key "m<id>"), so replaying a match with the same versions deals the
// same cards and seeds the bots alike (reproduce.h).
#ifndef CARDREF_LADDER_RUN_PLAY_MATCH_H_
#define CARDREF_LADDER_RUN_PLAY_MATCH_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "ladder/store/store.h"
#include "tournament/match_runner.h"

namespace cardref::ladder::run {

// Where a ladder keeps its files: a folder beside its database, DB.d/,
// owner-only (0700) like everything in it.
struct LadderPaths {
  std::string root;     // <db>.d
  std::string referee;  // the local referee's folder: token, signing key
                        // (referee_ed25519.key), its logs and output
  std::string logs;     // <log hash>.cardlog: every log that was recorded
  std::string bots;     // m<match id>.seat<N>.stderr
  // <player>.credential: remote entrants' bot credentials (remote_seats.h)
  std::string credentials;
};
LadderPaths PathsFor(const std::string& db);
// The ladder's folder: `dir` when given, else <db>.d beside a SQLite file
// (INVALID_ARGUMENT for a PostgreSQL URL: there is no file to sit beside).
// With a PostgreSQL store, workers on several machines may share the
// folder, so each runner's referee gets one of its own,
// referees/<host>.<pid>, and signs with its own key.
[[nodiscard]] absl::StatusOr<LadderPaths> LadderFolder(const std::string& db,
                                                       const std::string& dir);
// Creates the folders (0700) that do not exist yet; existing ones are made
// owner-only. Empty paths are skipped.
[[nodiscard]] absl::Status MakeLadderDirs(const LadderPaths& paths);
[[nodiscard]] absl::Status MakeDir(const std::string& path);

// The player name of a version in the logs: "<entrant>-v<id>".
std::string PlayerName(const Version& version);

// What a worker plays with. The stub and the runner's options are shared by
// the worker threads (both are thread-safe to use concurrently).
struct Table {
  cardref::v1::Referee::Stub* stub = nullptr;
  // Server, organiser token, bot output folder, run_as; the limits are set
  // per match from the ladder's configuration.
  tournament::MatchOptions match;
  // The referee's Ed25519 public key (32 bytes): a log signed with any
  // other key does not count.
  std::string referee_public_key;
  std::string logs_dir;  // where recorded logs are kept
};

enum class Outcome {
  kScored,         // finished, audited: `result` may be recorded
  kBotFault,       // a bot kept the match from being played (never joined,
                   // died before its seats were taken)
  kRefereeFault,   // the referee, the disk or the connection failed
};

struct PlayedMatch {
  Outcome outcome = Outcome::kRefereeFault;
  // kScored: ranks and scores from the log, its hash, and `worker`.
  MatchResult result;
  std::string log_path;  // kScored: the kept copy, <logs>/<hash>.cardlog
  std::string referee_log;  // the referee's own file, when there is one
  // Why it was not scored; for a scored match, the seats' faults, if any.
  std::string reason;
  // Per seat: what its bot did wrong (crashed, timed out, rejected
  // submissions, made absent), empty if nothing. Validation judges these.
  std::vector<std::string> seat_faults;
  // SHA-256 of the game itself (analyzer's game_digest: game, parameters,
  // seating, chance events, actions), hex; kScored only.
  std::string game_digest;
};

// The bots of `seats` (seat -> version) as the tournament starts them: the
// command split on spaces; a remote entrant's (remote_entrant.h) as a
// remote bot, whose seats are invited.
std::vector<tournament::BotSpec> SeatBots(const std::vector<Version>& seats);

// Plays `match` of `game`; never throws. `seats` are the versions of
// match.seat_versions, in seat order. `info` is the game as the referee
// serves it.
PlayedMatch PlayLadderMatch(const Table& table, const LadderConfig& config,
                            const LadderGame& game,
                            const cardref::v1::GameInfo& info,
                            const Match& match,
                            const std::vector<Version>& seats,
                            const std::string& worker);

// Audits `path` against `referee_public_key` and reads its result: the
// ranks and scores per seat (versions from `match`), the file's hash and
// the game digest. FAILED_PRECONDITION with the audit's line if the log
// does not audit OK.
[[nodiscard]] absl::StatusOr<PlayedMatch> ReadAuditedLog(
    const std::string& path, const std::string& referee_public_key,
    const Match& match);

// SHA-256 of a file's bytes, hex.
[[nodiscard]] absl::StatusOr<std::string> FileSha256(const std::string& path);

}  // namespace cardref::ladder::run

#endif  // CARDREF_LADDER_RUN_PLAY_MATCH_H_
