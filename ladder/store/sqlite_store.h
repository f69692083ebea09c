// LadderStore over one SQLite file in WAL mode (docs/ladder.md, "Store").
//
// Each SqliteStore is one connection; it serialises its own callers with a
// mutex. Any number of SqliteStores, in threads or processes on one
// machine, may open the same file: every mutating call is one BEGIN
// IMMEDIATE transaction, so claims and results are atomic across them.
// (Several machines: the PostgreSQL backend, same interface and schema.)
#ifndef CARDREF_LADDER_STORE_SQLITE_STORE_H_
#define CARDREF_LADDER_STORE_SQLITE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "ladder/store/schema.h"
#include "ladder/store/sqlite_db.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

struct SqliteStoreOptions {
  SqliteOpenOptions open;
  // The migrations to bring the file to (tests pass older lists to stand
  // for an older binary); default: every migration this binary knows.
  const std::vector<Migration>* migrations = nullptr;
  int64_t now_micros = 0;  // recorded with each migration applied
};

class SqliteStore final : public LadderStore {
 public:
  // Opens `path` (creating it unless options.open.create is false) and
  // migrates it to the newest schema. FAILED_PRECONDITION if the file's
  // schema is newer than this binary's; DATA_LOSS if it is not a database.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<SqliteStore>> Open(
      const std::string& path, const SqliteStoreOptions& options = {});

  // An online backup (SQLite's backup API) of the whole store to
  // `dest_path`, a consistent snapshot taken while other connections keep
  // reading and writing. ALREADY_EXISTS if `dest_path` exists.
  [[nodiscard]] absl::Status Backup(const std::string& dest_path);

  // Turns are taken on an flock of "<file>-exclusive" beside the store
  // (SQLite's own locks are not held across calls), which the kernel
  // releases when the holder dies.
  absl::Status RunExclusively(
      const std::function<absl::Status()>& body) override;

  absl::Status Initialize(const LadderConfig& config,
                          int64_t now_micros) override;
  absl::StatusOr<LadderConfig> GetConfig() override;
  absl::Status SetFrozen(bool frozen) override;
  absl::StatusOr<Entrant> AddEntrant(absl::string_view name,
                                     int64_t now_micros) override;
  absl::StatusOr<std::vector<Entrant>> ListEntrants() override;
  absl::StatusOr<Version> AddVersion(absl::string_view entrant,
                                     absl::string_view command,
                                     absl::string_view content_hash,
                                     int64_t now_micros) override;
  absl::Status SetVersionStatus(int64_t version_id, VersionStatus status,
                                absl::string_view reason,
                                int64_t now_micros) override;
  absl::StatusOr<Version> GetVersion(int64_t version_id) override;
  absl::StatusOr<std::vector<Version>> ListVersions(
      std::optional<VersionStatus> status) override;
  absl::StatusOr<std::vector<int64_t>> ScheduleMatches(
      const std::vector<NewMatch>& matches, int64_t now_micros) override;
  absl::StatusOr<Match> GetMatch(int64_t match_id) override;
  absl::StatusOr<std::vector<Match>> ListMatches(
      std::optional<MatchState> state) override;
  absl::StatusOr<std::optional<Match>> ClaimNext(
      const ClaimRequest& request) override;
  absl::Status RenewLease(int64_t match_id, absl::string_view owner,
                          int64_t now_micros, int64_t lease_micros) override;
  absl::Status ReleaseClaim(int64_t match_id,
                            absl::string_view owner) override;
  absl::Status VoidMatch(int64_t match_id, absl::string_view reason,
                         int64_t now_micros) override;
  absl::StatusOr<RecordOutcome> RecordResult(const MatchResult& result,
                                             int64_t now_micros,
                                             const RateResultFn& rate) override;
  absl::StatusOr<std::optional<MatchResult>> GetResult(
      absl::string_view log_hash) override;
  absl::StatusOr<std::optional<MatchResult>> ResultOfMatch(
      int64_t match_id) override;
  absl::StatusOr<std::vector<MatchResult>> ListResults(
      int64_t game_id, std::optional<MatchKind> kind) override;
  absl::StatusOr<EntrantCredential> AddEntrantCredential(
      absl::string_view entrant, absl::string_view credential_sha256,
      int64_t now_micros) override;
  absl::StatusOr<std::optional<EntrantCredential>> FindEntrantCredential(
      absl::string_view credential_sha256) override;
  absl::StatusOr<int> RevokeEntrantCredentials(absl::string_view entrant,
                                               int64_t now_micros) override;
  absl::StatusOr<std::vector<Rating>> Ratings(int64_t game_id) override;
  absl::StatusOr<std::vector<RatingChange>> RatingHistory(
      int64_t version_id, int64_t game_id) override;
  absl::StatusOr<std::vector<MatchmakingEntry>> MatchmakingState(
      int64_t game_id) override;
  absl::StatusOr<int64_t> NextRound(int64_t game_id) override;

 private:
  explicit SqliteStore(std::unique_ptr<SqliteDb> db) : db_(std::move(db)) {}

  // Helpers that run inside the caller's transaction (or read alone).
  absl::StatusOr<LadderConfig> ReadConfig() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<int64_t> NextId(absl::string_view table)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<std::optional<Match>> ReadMatch(int64_t match_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Versions in `status` (any if nullopt) of `entrant_id` (any if 0).
  absl::StatusOr<std::vector<Version>> ReadVersions(
      std::optional<VersionStatus> status, int64_t entrant_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<std::optional<Version>> ReadVersion(int64_t version_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<Rating> ReadRating(const LadderConfig& config,
                                    int64_t version_id, int64_t game_id)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<int64_t> ScheduleInTransaction(const LadderConfig& config,
                                                const NewMatch& match,
                                                int64_t now_micros)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Counts a version's seat_tallies again from the match tables (after
  // matches it sat in were voided). Inside a transaction.
  absl::Status RecountTallies(int64_t version_id);
  // RecountTallies for every version seated in `match_id`.
  absl::Status RecountTalliesOfMatch(int64_t match_id);
  absl::Status VoidScheduledMatchesOf(int64_t version_id,
                                      absl::string_view reason,
                                      int64_t now_micros)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::unique_ptr<SqliteDb> db_ ABSL_GUARDED_BY(mu_);
  // Held through RunExclusively: threads of one process take turns here,
  // processes on the lock file.
  absl::Mutex exclusive_mu_;
};

// Restores a backup made by Backup into `dest_path` (a new file; open it
// with SqliteStore::Open afterwards). The backup is checked first: DATA_LOSS
// if SQLite's integrity check fails or it is not a database,
// FAILED_PRECONDITION if its schema is newer than this binary's,
// ALREADY_EXISTS if `dest_path` exists.
[[nodiscard]] absl::Status RestoreSqliteBackup(const std::string& backup_path,
                                               const std::string& dest_path);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_SQLITE_STORE_H_
