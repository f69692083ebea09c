// LadderStore over one PostgreSQL database (docs/ladder.md, "Store";
// docs/scale.md for workers on several machines): the same interface,
// schema text and migrations as SqliteStore, for many writers.
//
// Each PgStore is one connection; it serialises its own callers with a
// mutex. Any number of PgStores, in threads, processes or machines, may
// share the database; each mutating call is one READ COMMITTED transaction
// that locks what it reads before deciding:
//   - ClaimNext takes the oldest claimable match with SELECT ... FOR UPDATE
//     SKIP LOCKED, so concurrent workers never wait for, nor get, the same
//     match;
//   - RecordResult locks the match's row (one result per match, whichever
//     worker's comes first) and rates under an advisory lock per seated
//     version, so results that share a version are rated one after the
//     other and no update is lost, while results of other versions are
//     rated at the same time;
//   - ids are MAX(id) + 1 in the inserting transaction, as on SQLite; two
//     transactions that pick the same id collide on the primary key and the
//     later one is rerun (PgConnection::Transact).
// The tables live in the first schema of the connection's search_path
// (public by default; `?options=-csearch_path%3Dname` in the URL picks
// another), so one database may hold several ladders.
#ifndef CARDREF_LADDER_STORE_PG_STORE_H_
#define CARDREF_LADDER_STORE_PG_STORE_H_

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
#include "ladder/store/pg_db.h"
#include "ladder/store/schema.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

struct PgStoreOptions {
  PgConnectOptions connect;
  // The migrations to bring the database to (tests pass other lists to
  // stand for another binary); default: every migration this binary knows.
  const std::vector<Migration>* migrations = nullptr;
  int64_t now_micros = 0;  // recorded with each migration applied
};

class PgStore final : public LadderStore {
 public:
  // Connects to `url` (postgresql://user@host:port/database?...; the
  // database must exist) and migrates it to the newest schema. UNAVAILABLE
  // if the server cannot be reached, NOT_FOUND if the database does not
  // exist, FAILED_PRECONDITION if its schema is newer than this binary's.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<PgStore>> Open(
      const std::string& url, const PgStoreOptions& options = {});

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
  // Turns are taken on a session-level advisory lock of this connection,
  // which the server releases when the connection ends.
  absl::Status RunExclusively(
      const std::function<absl::Status()>& body) override;

 private:
  explicit PgStore(std::unique_ptr<PgConnection> db) : db_(std::move(db)) {}

  absl::Mutex mu_;
  std::unique_ptr<PgConnection> db_ ABSL_GUARDED_BY(mu_);
  // Held through RunExclusively: the advisory lock belongs to the session,
  // which every thread using this store shares.
  absl::Mutex exclusive_mu_;
};

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_PG_STORE_H_
