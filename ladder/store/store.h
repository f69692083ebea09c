// The ladder's persistent state behind one interface (docs/ladder.md,
// "Store"): the ladder's configuration, entrants and their versions,
// scheduled matches with worker claims, results keyed by the log's hash,
// ratings and their history. SqliteStore implements it over one SQLite
// file; a PostgreSQL backend implements the same interface over the same
// schema text (schema.h).
//
// Time is passed in (`now_micros`, microseconds since the Unix epoch) rather
// than read from a clock, so lease expiry is exact in tests and a backend
// never mixes two machines' clocks within one call.
//
// Thread-safety: every implementation is thread-safe. Several instances
// over the same database (threads, processes, machines) coordinate through
// the database: each mutating call is one transaction.
#ifndef CARDREF_LADDER_STORE_STORE_H_
#define CARDREF_LADDER_STORE_STORE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::ladder {

enum class VersionStatus { kValidating, kRanked, kRejected, kRetired };
enum class MatchState { kScheduled, kClaimed, kFinished, kVoided };
// Validation matches (a new version playing before it is ranked) are
// recorded but never rated.
enum class MatchKind { kRated, kValidation };

// The words stored in the database, and back (INVALID_ARGUMENT if unknown).
absl::string_view VersionStatusName(VersionStatus status);
absl::string_view MatchStateName(MatchState state);
absl::string_view MatchKindName(MatchKind kind);
[[nodiscard]] absl::StatusOr<VersionStatus> ParseVersionStatus(
    absl::string_view name);
[[nodiscard]] absl::StatusOr<MatchState> ParseMatchState(
    absl::string_view name);
[[nodiscard]] absl::StatusOr<MatchKind> ParseMatchKind(absl::string_view name);

// The rating model's parameters (ladder/rating/plackett_luce.h), kept with
// the ladder so that its ratings can be recomputed.
struct RatingParams {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;
  double kappa = 0.0001;
  double tau = 25.0 / 300.0;  // drift per game; applied as 0 when frozen
};

// A game the ladder plays: rules id, player count, parameters, and its
// partnerships as the game declares them (GameTraits::teams, read by the
// binary: the ladder's libraries name no game).
struct LadderGame {
  int64_t id = 0;  // assigned by the store
  std::string game;
  int players = 0;
  // The team of each seat ({0, 1, 0, 1} for two partnerships of two);
  // empty when every seat plays for itself. Partners share their rank and
  // are rated as one side.
  std::vector<int> teams;
  std::string params;  // "name=value,..." as cardref_tournament --params
};

struct LadderConfig {
  std::string name;
  std::vector<LadderGame> games;
  bool duplicate = false;  // duplicate deals: a group plays every seating
  bool frozen = false;     // no drift (tau = 0), no new versions
  int64_t decision_time_limit_ms = 5000;
  int64_t match_budget_ms = 600000;
  std::string reference_entrant;  // an entrant's name, or empty
  RatingParams rating;
};

struct Entrant {
  int64_t id = 0;
  std::string name;
  int64_t created_micros = 0;
};

struct Version {
  int64_t id = 0;
  int64_t entrant_id = 0;
  std::string entrant_name;
  std::string command;
  // Hash of the bot's folder or program (hex), as the caller computed it.
  std::string content_hash;
  VersionStatus status = VersionStatus::kValidating;
  std::string reason;  // why rejected or retired; empty otherwise
  int64_t created_micros = 0;
  int64_t status_micros = 0;
};

// Whether `version` may move to `to` (validating -> ranked | rejected,
// ranked -> retired); FAILED_PRECONDITION naming both if not. Every store
// checks with it.
[[nodiscard]] absl::Status CheckVersionTransition(const Version& version,
                                                  VersionStatus to);

// A credential an entrant's author presents to the ladder's web front
// (docs/web.md, "Owner-only"): only its SHA-256 is stored.
struct EntrantCredential {
  int64_t id = 0;
  int64_t entrant_id = 0;
  std::string entrant_name;
  int64_t created_micros = 0;
  int64_t revoked_micros = 0;  // 0: in force
};

struct NewMatch {
  int64_t game_id = 0;
  MatchKind kind = MatchKind::kRated;
  int64_t round = 0;         // the matchmaking round (one group, all deals)
  std::string deal_set;      // matches of one deal set share `seed`
  std::string seed;          // 64 hex digits (32 bytes), the dealing seed
  std::vector<int64_t> seat_versions;  // seat -> version id
};

struct Match {
  int64_t id = 0;
  int64_t game_id = 0;
  MatchKind kind = MatchKind::kRated;
  int64_t round = 0;
  std::string deal_set;
  std::string seed;
  MatchState state = MatchState::kScheduled;
  std::string claim_owner;  // empty unless claimed
  int64_t lease_expiry_micros = 0;
  int attempts = 0;         // claims so far
  std::string reason;       // why voided
  int64_t scheduled_micros = 0;
  int64_t finished_micros = 0;
  std::vector<int64_t> seat_versions;
};

struct SeatResult {
  int seat = 0;
  int64_t version_id = 0;
  int rank = 1;  // 1 = first; equal ranks tie
  double score = 0;
};

struct MatchResult {
  int64_t match_id = 0;
  std::string log_hash;  // SHA-256 of the finished log, 64 hex digits
  std::string worker;
  std::vector<SeatResult> seats;  // one per seat, any order
};

struct Rating {
  int64_t version_id = 0;
  int64_t game_id = 0;
  double mu = 0;
  double sigma = 0;
  int64_t games = 0;  // rated results counted
};

struct RatingChange {
  std::string log_hash;
  int64_t version_id = 0;
  int64_t game_id = 0;
  double mu_before = 0, sigma_before = 0;
  double mu_after = 0, sigma_after = 0;
};

// Computes the ratings after a rated result from those before it, inside
// the transaction that records the result (so concurrent workers never lose
// an update). `before[i]` is the rating of `result.seats[i]`'s version
// (the ladder's prior, games = 0, if it has none); returns the new rating
// per seat, in the same order. An error aborts the recording.
using RateResultFn = std::function<absl::StatusOr<std::vector<Rating>>(
    const LadderConfig& config, const LadderGame& game,
    const MatchResult& result, const std::vector<Rating>& before)>;

enum class RecordOutcome {
  kRecorded,   // counted, claim released, ratings updated
  kDuplicate,  // this log hash was already recorded: nothing changed
};

struct ClaimRequest {
  std::string owner;  // the worker, unique among live workers
  int64_t now_micros = 0;
  int64_t lease_micros = 0;  // > 0
  // A match claimed this many times without a result is voided instead of
  // handed out again (it kills workers, or its bots never finish).
  int max_attempts = 3;
};

// What matchmaking needs to know of one ranked version in one game.
struct MatchmakingEntry {
  int64_t version_id = 0;
  int64_t entrant_id = 0;
  double mu = 0;
  double sigma = 0;
  int64_t games = 0;  // scheduled rated matches, voided ones excluded
  // Matchmaking rounds of this game scheduled since its last one (or since
  // it was ranked, if it has none).
  int64_t rounds_waited = 0;
  std::vector<int64_t> seat_counts;  // per seat, scheduled rated matches
};

class LadderStore {
 public:
  virtual ~LadderStore() = default;

  // Sets the ladder up once: ALREADY_EXISTS if it is, INVALID_ARGUMENT for a
  // bad configuration (no games, players outside 2..5, teams that are not
  // one per seat in 0..players-1 with at least two teams, non-positive
  // limits or rating parameters).
  [[nodiscard]] virtual absl::Status Initialize(const LadderConfig& config,
                                                int64_t now_micros) = 0;
  // FAILED_PRECONDITION until Initialize. Games carry their ids.
  [[nodiscard]] virtual absl::StatusOr<LadderConfig> GetConfig() = 0;
  [[nodiscard]] virtual absl::Status SetFrozen(bool frozen) = 0;

  // ALREADY_EXISTS if the name is taken; INVALID_ARGUMENT if it is not 1-64
  // of letters, digits and `_ - .`.
  [[nodiscard]] virtual absl::StatusOr<Entrant> AddEntrant(
      absl::string_view name, int64_t now_micros) = 0;
  [[nodiscard]] virtual absl::StatusOr<std::vector<Entrant>>
  ListEntrants() = 0;

  // A new version of an entrant, `validating`. NOT_FOUND for an unknown
  // entrant; ALREADY_EXISTS if the entrant has a version with this content
  // hash; FAILED_PRECONDITION if the ladder is frozen.
  [[nodiscard]] virtual absl::StatusOr<Version> AddVersion(
      absl::string_view entrant, absl::string_view command,
      absl::string_view content_hash, int64_t now_micros) = 0;
  // Moves a version to `status` with `reason`. Ranking a version retires the
  // entrant's other ranked version (one active version per entrant).
  // Allowed: validating -> ranked | rejected, ranked -> retired; anything
  // else is FAILED_PRECONDITION.
  [[nodiscard]] virtual absl::Status SetVersionStatus(
      int64_t version_id, VersionStatus status, absl::string_view reason,
      int64_t now_micros) = 0;
  [[nodiscard]] virtual absl::StatusOr<Version> GetVersion(
      int64_t version_id) = 0;
  // Versions in `status` (all if nullopt), by id.
  [[nodiscard]] virtual absl::StatusOr<std::vector<Version>> ListVersions(
      std::optional<VersionStatus> status) = 0;

  // Schedules matches (a matchmaking round: with duplicate deals, every
  // seating of one deal set) in one transaction: all or none. Returns their
  // ids in order. INVALID_ARGUMENT if the seats do not fit the game, a seed
  // is not 64 hex digits, or a rated match repeats a version or seats a
  // version that is not ranked.
  [[nodiscard]] virtual absl::StatusOr<std::vector<int64_t>> ScheduleMatches(
      const std::vector<NewMatch>& matches, int64_t now_micros) = 0;
  // One match, as ScheduleMatches.
  [[nodiscard]] absl::StatusOr<int64_t> ScheduleMatch(const NewMatch& match,
                                                      int64_t now_micros) {
    absl::StatusOr<std::vector<int64_t>> ids =
        ScheduleMatches({match}, now_micros);
    if (!ids.ok()) return ids.status();
    return ids->at(0);
  }
  [[nodiscard]] virtual absl::StatusOr<Match> GetMatch(int64_t match_id) = 0;
  [[nodiscard]] virtual absl::StatusOr<std::vector<Match>> ListMatches(
      std::optional<MatchState> state) = 0;

  // Atomically claims the oldest match that is scheduled, or claimed with a
  // lease that expired at or before `now_micros` (its worker is presumed
  // dead). nullopt if there is none. Expired claims with `max_attempts`
  // attempts are voided on the way.
  [[nodiscard]] virtual absl::StatusOr<std::optional<Match>> ClaimNext(
      const ClaimRequest& request) = 0;
  // Extends the lease of a match the owner still holds: ABORTED if the
  // claim was lost (lease expired and someone else claimed it, or the match
  // ended).
  [[nodiscard]] virtual absl::Status RenewLease(int64_t match_id,
                                                absl::string_view owner,
                                                int64_t now_micros,
                                                int64_t lease_micros) = 0;
  // Gives a claim back unplayed (the attempt still counts); ABORTED if the
  // owner no longer holds it.
  [[nodiscard]] virtual absl::Status ReleaseClaim(int64_t match_id,
                                                  absl::string_view owner) = 0;
  // FAILED_PRECONDITION if the match is finished.
  [[nodiscard]] virtual absl::Status VoidMatch(int64_t match_id,
                                               absl::string_view reason,
                                               int64_t now_micros) = 0;

  // Records a result and releases the match's claim in one transaction, and
  // for a rated match updates the ratings through `rate` in it too. A
  // result whose log hash is recorded already is a no-op (kDuplicate), so a
  // worker may retry until it hears back. Any worker's result is taken
  // while the match is scheduled or claimed (a late worker's log is as good
  // as any). FAILED_PRECONDITION if the match is voided, or finished with
  // another log (that log is not counted); INVALID_ARGUMENT if the seats or
  // versions differ from the schedule, a rank is below 1, or in a
  // partnership game partners' ranks differ.
  [[nodiscard]] virtual absl::StatusOr<RecordOutcome> RecordResult(
      const MatchResult& result, int64_t now_micros,
      const RateResultFn& rate) = 0;
  [[nodiscard]] virtual absl::StatusOr<std::optional<MatchResult>> GetResult(
      absl::string_view log_hash) = 0;
  // The result that counted for a match; nullopt if it has none.
  // UNIMPLEMENTED in a backend that does not have it yet.
  [[nodiscard]] virtual absl::StatusOr<std::optional<MatchResult>>
  ResultOfMatch(int64_t match_id) {
    (void)match_id;
    return absl::UnimplementedError("this store cannot find results by match");
  }
  // The recorded results of a game's matches of `kind` (all kinds if
  // nullopt), in the order they were recorded (by match id among equals),
  // seats by seat. For exports and the periodic refit. UNIMPLEMENTED in a
  // backend that does not have it yet.
  [[nodiscard]] virtual absl::StatusOr<std::vector<MatchResult>> ListResults(
      int64_t game_id, std::optional<MatchKind> kind) {
    (void)game_id;
    (void)kind;
    return absl::UnimplementedError("this store cannot list results");
  }

  // Stores a new credential of `entrant` by its SHA-256 (64 hex digits;
  // the credential itself is never stored). NOT_FOUND for an unknown
  // entrant; ALREADY_EXISTS if the hash is stored already; INVALID_ARGUMENT
  // for a hash that is not 64 lower-case hex digits. UNIMPLEMENTED in a
  // backend that does not have credentials yet.
  [[nodiscard]] virtual absl::StatusOr<EntrantCredential>
  AddEntrantCredential(absl::string_view entrant,
                       absl::string_view credential_sha256,
                       int64_t now_micros) {
    (void)entrant;
    (void)credential_sha256;
    (void)now_micros;
    return absl::UnimplementedError("this store has no entrant credentials");
  }
  // The credential in force whose SHA-256 is `credential_sha256`; nullopt
  // if none (unknown or revoked).
  [[nodiscard]] virtual absl::StatusOr<std::optional<EntrantCredential>>
  FindEntrantCredential(absl::string_view credential_sha256) {
    (void)credential_sha256;
    return absl::UnimplementedError("this store has no entrant credentials");
  }
  // Revokes every credential of `entrant` in force; returns how many.
  // NOT_FOUND for an unknown entrant.
  [[nodiscard]] virtual absl::StatusOr<int> RevokeEntrantCredentials(
      absl::string_view entrant, int64_t now_micros) {
    (void)entrant;
    (void)now_micros;
    return absl::UnimplementedError("this store has no entrant credentials");
  }

  // Current ratings of a game, by version id.
  [[nodiscard]] virtual absl::StatusOr<std::vector<Rating>> Ratings(
      int64_t game_id) = 0;
  // One version's changes in one game, oldest first.
  [[nodiscard]] virtual absl::StatusOr<std::vector<RatingChange>>
  RatingHistory(int64_t version_id, int64_t game_id) = 0;

  // The ranked versions of a game with what matchmaking weighs, by version
  // id; unrated versions carry the prior.
  [[nodiscard]] virtual absl::StatusOr<std::vector<MatchmakingEntry>>
  MatchmakingState(int64_t game_id) = 0;
  // The next matchmaking round number of a game (1 + the highest so far).
  [[nodiscard]] virtual absl::StatusOr<int64_t> NextRound(int64_t game_id) = 0;

  // Runs `body` while no other RunExclusively on this ladder runs its own
  // (in any thread, process or machine sharing the store), so that one
  // worker at a time reads the schedule and adds to it: matchmaking in one
  // place at a time, round numbers and deal sets never given twice. `body`
  // calls this store as usual. The turn ends when `body` returns, or when
  // the process holding it dies. Returns `body`'s status; ABORTED if the
  // turn may have been lost while `body` ran (the connection broke), so
  // another worker may have scheduled at the same time.
  [[nodiscard]] virtual absl::Status RunExclusively(
      const std::function<absl::Status()>& body) = 0;
};

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_STORE_H_
