#include "ladder/store/sqlite_store.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ladder/store/migrate.h"
#include "ladder/store/validation.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {
namespace {

constexpr char kMatchColumns[] =
    "id, game_id, kind, round, deal_set, seed, state, claim_owner, "
    "lease_expiry_micros, attempts, reason, scheduled_micros, "
    "finished_micros";

constexpr char kVersionColumns[] =
    "v.id, v.entrant_id, e.name, v.command, v.content_hash, v.status, "
    "v.reason, v.created_micros, v.status_micros";

// The first column of the one row `sql` returns with `args` bound to ?1...
template <typename... Args>
absl::StatusOr<int64_t> SingleInt(SqliteDb* db, absl::string_view sql,
                                  const Args&... args) {
  ASSIGN_OR_RETURN(SqliteStatement statement, db->Prepare(sql));
  statement.BindAll(args...);
  ASSIGN_OR_RETURN(bool row, statement.Step());
  if (!row) return absl::InternalError(absl::StrCat("no row from `", sql, "`"));
  return statement.Int(0);
}

int64_t Changes(SqliteDb* db) { return sqlite3_changes64(db->raw()); }

absl::StatusOr<Match> MatchFromRow(const SqliteStatement& row) {
  Match match;
  match.id = row.Int(0);
  match.game_id = row.Int(1);
  ASSIGN_OR_RETURN(match.kind, ParseMatchKind(row.Text(2)));
  match.round = row.Int(3);
  match.deal_set = row.Text(4);
  match.seed = row.Text(5);
  ASSIGN_OR_RETURN(match.state, ParseMatchState(row.Text(6)));
  match.claim_owner = row.Text(7);
  match.lease_expiry_micros = row.Int(8);
  match.attempts = static_cast<int>(row.Int(9));
  match.reason = row.Text(10);
  match.scheduled_micros = row.Int(11);
  match.finished_micros = row.Int(12);
  return match;
}

absl::StatusOr<Version> VersionFromRow(const SqliteStatement& row) {
  Version version;
  version.id = row.Int(0);
  version.entrant_id = row.Int(1);
  version.entrant_name = row.Text(2);
  version.command = row.Text(3);
  version.content_hash = row.Text(4);
  ASSIGN_OR_RETURN(version.status, ParseVersionStatus(row.Text(5)));
  version.reason = row.Text(6);
  version.created_micros = row.Int(7);
  version.status_micros = row.Int(8);
  return version;
}

}  // namespace

absl::StatusOr<std::unique_ptr<SqliteStore>> SqliteStore::Open(
    const std::string& path, const SqliteStoreOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDb> db,
                   SqliteDb::Open(path, options.open));
  const std::vector<Migration>& migrations =
      options.migrations != nullptr ? *options.migrations : LadderMigrations();
  RETURN_IF_ERROR(Migrate(db.get(), migrations, options.now_micros).status());
  return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db)));
}

absl::Status SqliteStore::Backup(const std::string& dest_path) {
  absl::MutexLock lock(&mu_);
  if (std::filesystem::exists(dest_path)) {
    return absl::AlreadyExistsError(
        absl::StrCat("backup destination ", dest_path, " exists"));
  }
  sqlite3* dest = nullptr;
  int code = sqlite3_open_v2(dest_path.c_str(), &dest,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                             nullptr);
  if (code != SQLITE_OK) {
    absl::Status status =
        SqliteError(code, dest, absl::StrCat("creating ", dest_path));
    sqlite3_close_v2(dest);
    return status;
  }
  sqlite3_backup* backup =
      sqlite3_backup_init(dest, "main", db_->raw(), "main");
  if (backup == nullptr) {
    absl::Status status = SqliteError(sqlite3_errcode(dest), dest,
                                      "starting the backup");
    sqlite3_close_v2(dest);
    return status;
  }
  // All pages in one step: one read transaction, so the copy is one
  // consistent snapshot however busy the writers are.
  do {
    code = sqlite3_backup_step(backup, -1);
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) sqlite3_sleep(20);
  } while (code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED);
  sqlite3_backup_finish(backup);
  absl::Status status = code == SQLITE_DONE
                            ? absl::OkStatus()
                            : SqliteError(code, dest, "copying the backup");
  sqlite3_close_v2(dest);
  if (!status.ok()) std::filesystem::remove(dest_path);
  return status;
}

absl::Status SqliteStore::RunExclusively(
    const std::function<absl::Status()>& body) {
  absl::MutexLock turn(&exclusive_mu_);
  std::string lock_path;
  {
    absl::MutexLock lock(&mu_);
    lock_path = db_->path() + "-exclusive";
  }
  const int fd = open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("opening ", lock_path, ": ", strerror(errno)));
  }
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const std::string error = strerror(errno);
      close(fd);
      return absl::InternalError(
          absl::StrCat("locking ", lock_path, ": ", error));
    }
  }
  absl::Status status = body();
  close(fd);  // releases the lock
  return status;
}

absl::Status RestoreSqliteBackup(const std::string& backup_path,
                                 const std::string& dest_path) {
  if (std::filesystem::exists(dest_path)) {
    return absl::AlreadyExistsError(absl::StrCat(
        "restore destination ", dest_path,
        " exists; restore into a new file, then move it into place with no "
        "store open"));
  }
  SqliteOpenOptions read_only;
  read_only.create = false;
  read_only.read_only = true;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDb> source,
                   SqliteDb::Open(backup_path, read_only));
  ASSIGN_OR_RETURN(SqliteStatement check,
                   source->Prepare("PRAGMA integrity_check"));
  ASSIGN_OR_RETURN(bool row, check.Step());
  if (!row || check.Text(0) != "ok") {
    return absl::DataLossError(
        absl::StrCat(backup_path, " fails SQLite's integrity check: ",
                     row ? check.Text(0) : "no answer"));
  }
  ASSIGN_OR_RETURN(int version, SchemaVersion(source.get()));
  const int known = static_cast<int>(LadderMigrations().size());
  if (version > known) {
    return absl::FailedPreconditionError(absl::StrCat(
        backup_path, " has ladder schema version ", version,
        ", newer than this binary knows (", known, ")"));
  }
  if (version == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(backup_path, " is not a ladder store (no schema)"));
  }
  sqlite3* dest = nullptr;
  int code = sqlite3_open_v2(dest_path.c_str(), &dest,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                             nullptr);
  if (code != SQLITE_OK) {
    absl::Status status =
        SqliteError(code, dest, absl::StrCat("creating ", dest_path));
    sqlite3_close_v2(dest);
    return status;
  }
  sqlite3_backup* backup =
      sqlite3_backup_init(dest, "main", source->raw(), "main");
  if (backup == nullptr) {
    absl::Status status =
        SqliteError(sqlite3_errcode(dest), dest, "starting the restore");
    sqlite3_close_v2(dest);
    std::filesystem::remove(dest_path);
    return status;
  }
  code = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  absl::Status status = code == SQLITE_DONE
                            ? absl::OkStatus()
                            : SqliteError(code, dest, "copying the backup");
  sqlite3_close_v2(dest);
  if (!status.ok()) std::filesystem::remove(dest_path);
  return status;
}

absl::StatusOr<int64_t> SqliteStore::NextId(absl::string_view table) {
  return SingleInt(db_.get(),
                   absl::StrCat("SELECT COALESCE(MAX(id), 0) + 1 FROM ", table));
}

absl::StatusOr<LadderConfig> SqliteStore::ReadConfig() {
  ASSIGN_OR_RETURN(
      SqliteStatement ladder,
      db_->Prepare("SELECT name, duplicate, frozen, decision_time_limit_ms, "
                   "match_budget_ms, reference_entrant, rating_mu, "
                   "rating_sigma, rating_beta, rating_kappa, rating_tau "
                   "FROM ladder WHERE id = 1"));
  ASSIGN_OR_RETURN(bool row, ladder.Step());
  if (!row) {
    return absl::FailedPreconditionError(
        absl::StrCat(db_->path(), " holds no ladder yet: initialise it"));
  }
  LadderConfig config;
  config.name = ladder.Text(0);
  config.duplicate = ladder.Int(1) != 0;
  config.frozen = ladder.Int(2) != 0;
  config.decision_time_limit_ms = ladder.Int(3);
  config.match_budget_ms = ladder.Int(4);
  config.reference_entrant = ladder.Text(5);
  config.rating.mu = ladder.Double(6);
  config.rating.sigma = ladder.Double(7);
  config.rating.beta = ladder.Double(8);
  config.rating.kappa = ladder.Double(9);
  config.rating.tau = ladder.Double(10);
  ASSIGN_OR_RETURN(SqliteStatement games,
                   db_->Prepare("SELECT id, game, players, teams, params "
                                "FROM games ORDER BY id"));
  while (true) {
    ASSIGN_OR_RETURN(row, games.Step());
    if (!row) break;
    LadderGame game;
    game.id = games.Int(0);
    game.game = games.Text(1);
    game.players = static_cast<int>(games.Int(2));
    ASSIGN_OR_RETURN(game.teams, ParseTeams(games.Text(3)));
    game.params = games.Text(4);
    config.games.push_back(std::move(game));
  }
  return config;
}

absl::Status SqliteStore::Initialize(const LadderConfig& config,
                                     int64_t now_micros) {
  RETURN_IF_ERROR(ValidateConfig(config));
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(int64_t ladders,
                   SingleInt(db_.get(), "SELECT count(*) FROM ladder"));
  if (ladders != 0) {
    return absl::AlreadyExistsError(
        absl::StrCat(db_->path(), " already holds a ladder"));
  }
  ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db_->Prepare(
          "INSERT INTO ladder (id, name, duplicate, frozen, "
          "decision_time_limit_ms, match_budget_ms, reference_entrant, "
          "rating_mu, rating_sigma, rating_beta, rating_kappa, rating_tau, "
          "created_micros) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
          "?10, ?11, ?12)"));
  const RatingParams& r = config.rating;
  RETURN_IF_ERROR(
      insert
          .BindAll(config.name, config.duplicate ? 1 : 0,
                   config.frozen ? 1 : 0, config.decision_time_limit_ms,
                   config.match_budget_ms, config.reference_entrant, r.mu,
                   r.sigma, r.beta, r.kappa, r.tau, now_micros)
          .Run());
  int64_t id = 0;
  for (const LadderGame& game : config.games) {
    ASSIGN_OR_RETURN(SqliteStatement add,
                     db_->Prepare("INSERT INTO games (id, game, players, "
                                  "teams, params) VALUES (?1, ?2, ?3, ?4, "
                                  "?5)"));
    RETURN_IF_ERROR(add.BindAll(++id, game.game, game.players,
                                FormatTeams(game.teams), game.params)
                        .Run());
  }
  return transaction.Commit();
}

absl::StatusOr<LadderConfig> SqliteStore::GetConfig() {
  absl::MutexLock lock(&mu_);
  return ReadConfig();
}

absl::Status SqliteStore::SetFrozen(bool frozen) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteStatement update,
                   db_->Prepare("UPDATE ladder SET frozen = ?1 WHERE id = 1"));
  RETURN_IF_ERROR(update.BindAll(frozen ? 1 : 0).Run());
  if (Changes(db_.get()) == 0) return ReadConfig().status();
  return absl::OkStatus();
}

absl::StatusOr<Entrant> SqliteStore::AddEntrant(absl::string_view name,
                                                int64_t now_micros) {
  RETURN_IF_ERROR(ValidateEntrantName(name));
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(SqliteStatement find,
                   db_->Prepare("SELECT id FROM entrants WHERE name = ?1"));
  ASSIGN_OR_RETURN(bool taken, find.BindAll(name).Step());
  if (taken) {
    return absl::AlreadyExistsError(
        absl::StrCat("entrant '", name, "' exists (id ", find.Int(0), ")"));
  }
  Entrant entrant;
  ASSIGN_OR_RETURN(entrant.id, NextId("entrants"));
  entrant.name = std::string(name);
  entrant.created_micros = now_micros;
  ASSIGN_OR_RETURN(SqliteStatement insert,
                   db_->Prepare("INSERT INTO entrants (id, name, "
                                "created_micros) VALUES (?1, ?2, ?3)"));
  RETURN_IF_ERROR(insert.BindAll(entrant.id, name, now_micros).Run());
  RETURN_IF_ERROR(transaction.Commit());
  return entrant;
}

absl::StatusOr<EntrantCredential> SqliteStore::AddEntrantCredential(
    absl::string_view entrant, absl::string_view credential_sha256,
    int64_t now_micros) {
  RETURN_IF_ERROR(ValidateHex64(credential_sha256, "a credential's SHA-256"));
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(SqliteStatement find,
                   db_->Prepare("SELECT id FROM entrants WHERE name = ?1"));
  ASSIGN_OR_RETURN(bool found, find.BindAll(entrant).Step());
  if (!found) {
    return absl::NotFoundError(absl::StrCat("no entrant '", entrant, "'"));
  }
  EntrantCredential credential;
  credential.entrant_id = find.Int(0);
  credential.entrant_name = std::string(entrant);
  credential.created_micros = now_micros;
  ASSIGN_OR_RETURN(
      SqliteStatement taken,
      db_->Prepare(
          "SELECT id FROM entrant_credentials WHERE credential_sha256 = ?1"));
  ASSIGN_OR_RETURN(bool exists, taken.BindAll(credential_sha256).Step());
  if (exists) {
    return absl::AlreadyExistsError("this credential is stored already");
  }
  ASSIGN_OR_RETURN(credential.id, NextId("entrant_credentials"));
  ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db_->Prepare("INSERT INTO entrant_credentials (id, entrant_id, "
                   "credential_sha256, created_micros, revoked_micros) "
                   "VALUES (?1, ?2, ?3, ?4, 0)"));
  RETURN_IF_ERROR(insert
                      .BindAll(credential.id, credential.entrant_id,
                               credential_sha256, now_micros)
                      .Run());
  RETURN_IF_ERROR(transaction.Commit());
  return credential;
}

absl::StatusOr<std::optional<EntrantCredential>>
SqliteStore::FindEntrantCredential(absl::string_view credential_sha256) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement find,
      db_->Prepare("SELECT c.id, c.entrant_id, e.name, c.created_micros FROM "
                   "entrant_credentials c JOIN entrants e ON e.id = "
                   "c.entrant_id WHERE c.credential_sha256 = ?1 AND "
                   "c.revoked_micros = 0"));
  ASSIGN_OR_RETURN(bool found, find.BindAll(credential_sha256).Step());
  if (!found) return std::nullopt;
  EntrantCredential credential;
  credential.id = find.Int(0);
  credential.entrant_id = find.Int(1);
  credential.entrant_name = find.Text(2);
  credential.created_micros = find.Int(3);
  return credential;
}

absl::StatusOr<int> SqliteStore::RevokeEntrantCredentials(
    absl::string_view entrant, int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(SqliteStatement find,
                   db_->Prepare("SELECT id FROM entrants WHERE name = ?1"));
  ASSIGN_OR_RETURN(bool found, find.BindAll(entrant).Step());
  if (!found) {
    return absl::NotFoundError(absl::StrCat("no entrant '", entrant, "'"));
  }
  const int64_t entrant_id = find.Int(0);
  ASSIGN_OR_RETURN(
      SqliteStatement revoke,
      db_->Prepare("UPDATE entrant_credentials SET revoked_micros = ?1 WHERE "
                   "entrant_id = ?2 AND revoked_micros = 0"));
  // A revocation at time 0 would read as "in force".
  RETURN_IF_ERROR(
      revoke.BindAll(std::max<int64_t>(now_micros, 1), entrant_id).Run());
  const int revoked = static_cast<int>(Changes(db_.get()));
  RETURN_IF_ERROR(transaction.Commit());
  return revoked;
}

absl::StatusOr<std::vector<Entrant>> SqliteStore::ListEntrants() {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement list,
      db_->Prepare("SELECT id, name, created_micros FROM entrants ORDER BY id"));
  std::vector<Entrant> entrants;
  while (true) {
    ASSIGN_OR_RETURN(bool row, list.Step());
    if (!row) return entrants;
    entrants.push_back({list.Int(0), list.Text(1), list.Int(2)});
  }
}

absl::StatusOr<std::vector<Version>> SqliteStore::ReadVersions(
    std::optional<VersionStatus> status, int64_t entrant_id) {
  ASSIGN_OR_RETURN(
      SqliteStatement list,
      db_->Prepare(absl::StrCat(
          "SELECT ", kVersionColumns,
          " FROM versions v JOIN entrants e ON e.id = v.entrant_id WHERE "
          "(?1 = '' OR v.status = ?1) AND (?2 = 0 OR v.entrant_id = ?2) "
          "ORDER BY v.id")));
  list.BindAll(status.has_value() ? VersionStatusName(*status)
                                  : absl::string_view(),
               entrant_id);
  std::vector<Version> versions;
  while (true) {
    ASSIGN_OR_RETURN(bool row, list.Step());
    if (!row) return versions;
    ASSIGN_OR_RETURN(Version version, VersionFromRow(list));
    versions.push_back(std::move(version));
  }
}

absl::StatusOr<std::optional<Version>> SqliteStore::ReadVersion(
    int64_t version_id) {
  ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_->Prepare(absl::StrCat("SELECT ", kVersionColumns,
                                " FROM versions v JOIN entrants e ON "
                                "e.id = v.entrant_id WHERE v.id = ?1")));
  ASSIGN_OR_RETURN(bool row, select.BindAll(version_id).Step());
  if (!row) return std::nullopt;
  ASSIGN_OR_RETURN(Version version, VersionFromRow(select));
  return version;
}

absl::StatusOr<Version> SqliteStore::AddVersion(absl::string_view entrant,
                                                absl::string_view command,
                                                absl::string_view content_hash,
                                                int64_t now_micros) {
  if (command.empty()) {
    return absl::InvalidArgumentError("a version needs a command");
  }
  if (content_hash.empty()) {
    return absl::InvalidArgumentError("a version needs a content hash");
  }
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(LadderConfig config, ReadConfig());
  if (config.frozen) {
    return absl::FailedPreconditionError(absl::StrCat(
        "ladder '", config.name, "' is frozen: it takes no new versions"));
  }
  ASSIGN_OR_RETURN(SqliteStatement find,
                   db_->Prepare("SELECT id FROM entrants WHERE name = ?1"));
  ASSIGN_OR_RETURN(bool found, find.BindAll(entrant).Step());
  if (!found) {
    return absl::NotFoundError(
        absl::StrCat("no entrant '", entrant, "': add it first"));
  }
  const int64_t entrant_id = find.Int(0);
  ASSIGN_OR_RETURN(SqliteStatement same,
                   db_->Prepare("SELECT id FROM versions WHERE entrant_id = "
                                "?1 AND content_hash = ?2"));
  ASSIGN_OR_RETURN(bool duplicate,
                   same.BindAll(entrant_id, content_hash).Step());
  if (duplicate) {
    return absl::AlreadyExistsError(
        absl::StrCat("entrant '", entrant, "' already has version ",
                     same.Int(0), " with content hash ", content_hash));
  }
  ASSIGN_OR_RETURN(int64_t id, NextId("versions"));
  ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db_->Prepare("INSERT INTO versions (id, entrant_id, command, "
                   "content_hash, status, reason, created_micros, "
                   "status_micros) VALUES (?1, ?2, ?3, ?4, 'validating', '', "
                   "?5, ?5)"));
  RETURN_IF_ERROR(
      insert.BindAll(id, entrant_id, command, content_hash, now_micros).Run());
  ASSIGN_OR_RETURN(std::optional<Version> version, ReadVersion(id));
  RETURN_IF_ERROR(transaction.Commit());
  return *std::move(version);
}

absl::Status SqliteStore::VoidScheduledMatchesOf(int64_t version_id,
                                                 absl::string_view reason,
                                                 int64_t now_micros) {
  // Everyone seated with it loses those matches from their tallies.
  ASSIGN_OR_RETURN(
      SqliteStatement seated,
      db_->Prepare("SELECT DISTINCT o.version_id FROM match_seats s JOIN "
                   "matches m ON m.id = s.match_id JOIN match_seats o ON "
                   "o.match_id = m.id WHERE s.version_id = ?1 AND m.state = "
                   "'scheduled'"));
  seated.BindAll(version_id);
  std::vector<int64_t> recount;
  while (true) {
    ASSIGN_OR_RETURN(bool row, seated.Step());
    if (!row) break;
    recount.push_back(seated.Int(0));
  }
  ASSIGN_OR_RETURN(
      SqliteStatement update,
      db_->Prepare("UPDATE matches SET state = 'voided', reason = ?1, "
                   "finished_micros = ?2 WHERE state = 'scheduled' AND id IN "
                   "(SELECT match_id FROM match_seats WHERE version_id = ?3)"));
  RETURN_IF_ERROR(update.BindAll(reason, now_micros, version_id).Run());
  for (int64_t v : recount) RETURN_IF_ERROR(RecountTallies(v));
  return absl::OkStatus();
}

absl::Status SqliteStore::RecountTallies(int64_t version_id) {
  ASSIGN_OR_RETURN(
      SqliteStatement clear,
      db_->Prepare("DELETE FROM seat_tallies WHERE version_id = ?1"));
  RETURN_IF_ERROR(clear.BindAll(version_id).Run());
  // CROSS JOIN: the version's seats by their index, then each match by its
  // key (not every match of the game).
  ASSIGN_OR_RETURN(
      SqliteStatement count,
      db_->Prepare("INSERT INTO seat_tallies (version_id, game_id, seat, "
                   "matches, last_round) SELECT s.version_id, m.game_id, "
                   "s.seat, COUNT(*), MAX(m.round) FROM match_seats s CROSS "
                   "JOIN matches m WHERE m.id = s.match_id AND s.version_id = "
                   "?1 AND m.kind = 'rated' AND m.state <> 'voided' GROUP BY "
                   "s.version_id, m.game_id, s.seat"));
  return count.BindAll(version_id).Run();
}

absl::Status SqliteStore::RecountTalliesOfMatch(int64_t match_id) {
  ASSIGN_OR_RETURN(
      SqliteStatement seated,
      db_->Prepare("SELECT DISTINCT version_id FROM match_seats WHERE "
                   "match_id = ?1"));
  seated.BindAll(match_id);
  std::vector<int64_t> versions;
  while (true) {
    ASSIGN_OR_RETURN(bool row, seated.Step());
    if (!row) break;
    versions.push_back(seated.Int(0));
  }
  for (int64_t v : versions) RETURN_IF_ERROR(RecountTallies(v));
  return absl::OkStatus();
}

absl::Status SqliteStore::SetVersionStatus(int64_t version_id,
                                           VersionStatus status,
                                           absl::string_view reason,
                                           int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(std::optional<Version> found, ReadVersion(version_id));
  if (!found.has_value()) {
    return absl::NotFoundError(absl::StrCat("no version ", version_id));
  }
  const Version& version = *found;
  RETURN_IF_ERROR(CheckVersionTransition(version, status));
  if (status == VersionStatus::kRanked) {
    ASSIGN_OR_RETURN(std::vector<Version> ranked,
                     ReadVersions(VersionStatus::kRanked, version.entrant_id));
    for (const Version& old : ranked) {
      ASSIGN_OR_RETURN(
          SqliteStatement retire,
          db_->Prepare("UPDATE versions SET status = 'retired', reason = ?1, "
                       "status_micros = ?2 WHERE id = ?3"));
      const std::string why =
          absl::StrCat("replaced by version ", version_id);
      RETURN_IF_ERROR(retire.BindAll(why, now_micros, old.id).Run());
      RETURN_IF_ERROR(VoidScheduledMatchesOf(
          old.id, absl::StrCat("version ", old.id, " ", why), now_micros));
    }
  }
  if (status == VersionStatus::kRetired) {
    RETURN_IF_ERROR(VoidScheduledMatchesOf(
        version_id, absl::StrCat("version ", version_id, " retired"),
        now_micros));
  }
  ASSIGN_OR_RETURN(
      SqliteStatement update,
      db_->Prepare("UPDATE versions SET status = ?1, reason = ?2, "
                   "status_micros = ?3 WHERE id = ?4"));
  RETURN_IF_ERROR(
      update.BindAll(VersionStatusName(status), reason, now_micros, version_id)
          .Run());
  return transaction.Commit();
}

absl::StatusOr<Version> SqliteStore::GetVersion(int64_t version_id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(std::optional<Version> found, ReadVersion(version_id));
  if (!found.has_value()) {
    return absl::NotFoundError(absl::StrCat("no version ", version_id));
  }
  return *std::move(found);
}

absl::StatusOr<std::vector<Version>> SqliteStore::ListVersions(
    std::optional<VersionStatus> status) {
  absl::MutexLock lock(&mu_);
  return ReadVersions(status, /*entrant_id=*/0);
}

absl::StatusOr<std::vector<int64_t>> SqliteStore::ScheduleMatches(
    const std::vector<NewMatch>& matches, int64_t now_micros) {
  for (const NewMatch& match : matches) {
    RETURN_IF_ERROR(ValidateHex64(match.seed, "the dealing seed"));
  }
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(LadderConfig config, ReadConfig());
  std::vector<int64_t> ids;
  for (const NewMatch& match : matches) {
    ASSIGN_OR_RETURN(int64_t id,
                     ScheduleInTransaction(config, match, now_micros));
    ids.push_back(id);
  }
  RETURN_IF_ERROR(transaction.Commit());
  return ids;
}

absl::StatusOr<int64_t> SqliteStore::ScheduleInTransaction(
    const LadderConfig& config, const NewMatch& match, int64_t now_micros) {
  auto game = std::find_if(
      config.games.begin(), config.games.end(),
      [&](const LadderGame& g) { return g.id == match.game_id; });
  if (game == config.games.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("no ladder game with id ", match.game_id));
  }
  if (static_cast<int>(match.seat_versions.size()) != game->players) {
    return absl::InvalidArgumentError(absl::StrCat(
        game->game, " has ", game->players, " seats; the match gives ",
        match.seat_versions.size(), " versions"));
  }
  std::set<int64_t> distinct;
  for (int64_t version_id : match.seat_versions) {
    ASSIGN_OR_RETURN(std::optional<Version> found, ReadVersion(version_id));
    if (!found.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no version ", version_id));
    }
    if (match.kind == MatchKind::kRated &&
        found->status != VersionStatus::kRanked) {
      return absl::InvalidArgumentError(absl::StrCat(
          "version ", version_id, " of ", found->entrant_name, " is ",
          VersionStatusName(found->status),
          "; rated matches seat ranked versions only"));
    }
    if (match.kind == MatchKind::kRated &&
        !distinct.insert(version_id).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "version ", version_id, " is seated twice; a rated match needs "
          "distinct versions"));
    }
  }
  ASSIGN_OR_RETURN(int64_t id, NextId("matches"));
  ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db_->Prepare("INSERT INTO matches (id, game_id, kind, round, deal_set, "
                   "seed, state, claim_owner, lease_expiry_micros, attempts, "
                   "reason, scheduled_micros, finished_micros) VALUES (?1, "
                   "?2, ?3, ?4, ?5, ?6, 'scheduled', '', 0, 0, '', ?7, 0)"));
  RETURN_IF_ERROR(insert
                      .BindAll(id, match.game_id, MatchKindName(match.kind),
                               match.round, match.deal_set, match.seed,
                               now_micros)
                      .Run());
  for (size_t seat = 0; seat < match.seat_versions.size(); ++seat) {
    ASSIGN_OR_RETURN(SqliteStatement add,
                     db_->Prepare("INSERT INTO match_seats (match_id, seat, "
                                  "version_id) VALUES (?1, ?2, ?3)"));
    RETURN_IF_ERROR(
        add.BindAll(id, static_cast<int64_t>(seat), match.seat_versions[seat])
            .Run());
    if (match.kind != MatchKind::kRated) continue;
    ASSIGN_OR_RETURN(
        SqliteStatement tally,
        db_->Prepare("INSERT INTO seat_tallies (version_id, game_id, seat, "
                     "matches, last_round) VALUES (?1, ?2, ?3, 1, ?4) ON "
                     "CONFLICT (version_id, game_id, seat) DO UPDATE SET "
                     "matches = seat_tallies.matches + 1, last_round = CASE "
                     "WHEN ?4 > seat_tallies.last_round THEN ?4 ELSE "
                     "seat_tallies.last_round END"));
    RETURN_IF_ERROR(tally
                        .BindAll(match.seat_versions[seat], match.game_id,
                                 static_cast<int64_t>(seat), match.round)
                        .Run());
  }
  return id;
}

absl::StatusOr<std::optional<Match>> SqliteStore::ReadMatch(int64_t match_id) {
  ASSIGN_OR_RETURN(SqliteStatement select,
                   db_->Prepare(absl::StrCat("SELECT ", kMatchColumns,
                                             " FROM matches WHERE id = ?1")));
  ASSIGN_OR_RETURN(bool row, select.BindAll(match_id).Step());
  if (!row) return std::nullopt;
  ASSIGN_OR_RETURN(Match match, MatchFromRow(select));
  ASSIGN_OR_RETURN(SqliteStatement seats,
                   db_->Prepare("SELECT version_id FROM match_seats WHERE "
                                "match_id = ?1 ORDER BY seat"));
  seats.Bind(1, match_id);
  while (true) {
    ASSIGN_OR_RETURN(row, seats.Step());
    if (!row) break;
    match.seat_versions.push_back(seats.Int(0));
  }
  return match;
}

absl::StatusOr<Match> SqliteStore::GetMatch(int64_t match_id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(std::optional<Match> match, ReadMatch(match_id));
  if (!match.has_value()) {
    return absl::NotFoundError(absl::StrCat("no match ", match_id));
  }
  return *std::move(match);
}

absl::StatusOr<std::vector<Match>> SqliteStore::ListMatches(
    std::optional<MatchState> state) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement list,
      db_->Prepare("SELECT id FROM matches WHERE ?1 = '' OR state = ?1 "
                   "ORDER BY id"));
  list.Bind(1, state.has_value() ? MatchStateName(*state) : "");
  std::vector<int64_t> ids;
  while (true) {
    ASSIGN_OR_RETURN(bool row, list.Step());
    if (!row) break;
    ids.push_back(list.Int(0));
  }
  std::vector<Match> matches;
  for (int64_t id : ids) {
    ASSIGN_OR_RETURN(std::optional<Match> match, ReadMatch(id));
    if (match.has_value()) matches.push_back(*std::move(match));
  }
  return matches;
}

absl::StatusOr<std::optional<Match>> SqliteStore::ClaimNext(
    const ClaimRequest& request) {
  if (request.owner.empty() || request.lease_micros <= 0 ||
      request.max_attempts < 1) {
    return absl::InvalidArgumentError(
        "a claim needs an owner, a positive lease and max_attempts >= 1");
  }
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  while (true) {
    ASSIGN_OR_RETURN(
        SqliteStatement next,
        db_->Prepare("SELECT id, attempts, claim_owner FROM matches WHERE "
                     "state = 'scheduled' OR (state = 'claimed' AND "
                     "lease_expiry_micros <= ?1) ORDER BY id LIMIT 1"));
    ASSIGN_OR_RETURN(bool row, next.BindAll(request.now_micros).Step());
    if (!row) {
      RETURN_IF_ERROR(transaction.Commit());  // keeps any voids made
      return std::nullopt;
    }
    const int64_t id = next.Int(0);
    const int64_t attempts = next.Int(1);
    if (attempts >= request.max_attempts) {
      ASSIGN_OR_RETURN(
          SqliteStatement abandon,
          db_->Prepare("UPDATE matches SET state = 'voided', reason = ?1, "
                       "claim_owner = '', lease_expiry_micros = 0, "
                       "finished_micros = ?2 WHERE id = ?3"));
      RETURN_IF_ERROR(
          abandon
              .BindAll(absl::StrCat("abandoned after ", attempts,
                                    " claims without a result (last by '",
                                    next.Text(2), "')"),
                       request.now_micros, id)
              .Run());
      RETURN_IF_ERROR(RecountTalliesOfMatch(id));
      continue;
    }
    ASSIGN_OR_RETURN(
        SqliteStatement claim,
        db_->Prepare("UPDATE matches SET state = 'claimed', claim_owner = ?1, "
                     "lease_expiry_micros = ?2, attempts = attempts + 1 "
                     "WHERE id = ?3"));
    RETURN_IF_ERROR(
        claim
            .BindAll(request.owner,
                     request.now_micros + request.lease_micros, id)
            .Run());
    ASSIGN_OR_RETURN(std::optional<Match> match, ReadMatch(id));
    RETURN_IF_ERROR(transaction.Commit());
    return match;
  }
}

absl::Status SqliteStore::RenewLease(int64_t match_id, absl::string_view owner,
                                     int64_t now_micros,
                                     int64_t lease_micros) {
  if (lease_micros <= 0) {
    return absl::InvalidArgumentError("the lease must be positive");
  }
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement renew,
      db_->Prepare("UPDATE matches SET lease_expiry_micros = ?1 WHERE id = ?2 "
                   "AND state = 'claimed' AND claim_owner = ?3"));
  RETURN_IF_ERROR(
      renew.BindAll(now_micros + lease_micros, match_id, owner).Run());
  if (Changes(db_.get()) == 0) {
    return absl::AbortedError(absl::StrCat(
        "'", owner, "' no longer holds match ", match_id,
        ": its lease expired and another worker claimed it, or it ended"));
  }
  return absl::OkStatus();
}

absl::Status SqliteStore::ReleaseClaim(int64_t match_id,
                                       absl::string_view owner) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement release,
      db_->Prepare("UPDATE matches SET state = 'scheduled', claim_owner = '', "
                   "lease_expiry_micros = 0 WHERE id = ?1 AND state = "
                   "'claimed' AND claim_owner = ?2"));
  RETURN_IF_ERROR(release.BindAll(match_id, owner).Run());
  if (Changes(db_.get()) == 0) {
    return absl::AbortedError(absl::StrCat("'", owner,
                                           "' does not hold match ", match_id));
  }
  return absl::OkStatus();
}

absl::Status SqliteStore::VoidMatch(int64_t match_id, absl::string_view reason,
                                    int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(std::optional<Match> match, ReadMatch(match_id));
  if (!match.has_value()) {
    return absl::NotFoundError(absl::StrCat("no match ", match_id));
  }
  if (match->state == MatchState::kFinished) {
    return absl::FailedPreconditionError(absl::StrCat(
        "match ", match_id, " is finished; its result stands"));
  }
  if (match->state == MatchState::kVoided) return absl::OkStatus();
  ASSIGN_OR_RETURN(
      SqliteStatement update,
      db_->Prepare("UPDATE matches SET state = 'voided', reason = ?1, "
                   "claim_owner = '', lease_expiry_micros = 0, "
                   "finished_micros = ?2 WHERE id = ?3"));
  RETURN_IF_ERROR(update.BindAll(reason, now_micros, match_id).Run());
  RETURN_IF_ERROR(RecountTalliesOfMatch(match_id));
  return transaction.Commit();
}

absl::StatusOr<Rating> SqliteStore::ReadRating(const LadderConfig& config,
                                               int64_t version_id,
                                               int64_t game_id) {
  ASSIGN_OR_RETURN(SqliteStatement select,
                   db_->Prepare("SELECT mu, sigma, games FROM ratings WHERE "
                                "version_id = ?1 AND game_id = ?2"));
  ASSIGN_OR_RETURN(bool row, select.BindAll(version_id, game_id).Step());
  Rating rating;
  rating.version_id = version_id;
  rating.game_id = game_id;
  if (row) {
    rating.mu = select.Double(0);
    rating.sigma = select.Double(1);
    rating.games = select.Int(2);
  } else {
    rating.mu = config.rating.mu;
    rating.sigma = config.rating.sigma;
  }
  return rating;
}

absl::StatusOr<RecordOutcome> SqliteStore::RecordResult(
    const MatchResult& result, int64_t now_micros, const RateResultFn& rate) {
  RETURN_IF_ERROR(ValidateHex64(result.log_hash, "the log hash"));
  if (result.worker.empty()) {
    return absl::InvalidArgumentError("a result names its worker");
  }
  if (!rate) {
    return absl::InvalidArgumentError("RecordResult needs a rating update");
  }
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteTransaction transaction,
                   SqliteTransaction::Begin(db_.get()));
  ASSIGN_OR_RETURN(
      SqliteStatement known,
      db_->Prepare("SELECT match_id FROM results WHERE log_hash = ?1"));
  ASSIGN_OR_RETURN(bool recorded, known.BindAll(result.log_hash).Step());
  if (recorded) {
    if (known.Int(0) != result.match_id) {
      return absl::InvalidArgumentError(absl::StrCat(
          "log ", result.log_hash, " is recorded for match ", known.Int(0),
          ", not match ", result.match_id));
    }
    return RecordOutcome::kDuplicate;  // the transaction rolls back: no-op
  }
  ASSIGN_OR_RETURN(std::optional<Match> match, ReadMatch(result.match_id));
  if (!match.has_value()) {
    return absl::NotFoundError(absl::StrCat("no match ", result.match_id));
  }
  if (match->state == MatchState::kVoided) {
    return absl::FailedPreconditionError(
        absl::StrCat("match ", match->id, " was voided (", match->reason,
                     "); its result is not counted"));
  }
  if (match->state == MatchState::kFinished) {
    ASSIGN_OR_RETURN(
        SqliteStatement other,
        db_->Prepare("SELECT log_hash FROM results WHERE match_id = ?1"));
    ASSIGN_OR_RETURN(bool row, other.BindAll(match->id).Step());
    return absl::FailedPreconditionError(absl::StrCat(
        "match ", match->id, " already has a result (log ",
        row ? other.Text(0) : "?", "); log ", result.log_hash,
        " is not counted"));
  }
  ASSIGN_OR_RETURN(LadderConfig config, ReadConfig());
  const LadderGame* game = nullptr;
  for (const LadderGame& g : config.games) {
    if (g.id == match->game_id) game = &g;
  }
  if (game == nullptr) {
    return absl::InternalError(
        absl::StrCat("match ", match->id, " has no game ", match->game_id));
  }
  RETURN_IF_ERROR(ValidateResult(*game, *match, result));

  ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db_->Prepare("INSERT INTO results (log_hash, match_id, worker, "
                   "recorded_micros) VALUES (?1, ?2, ?3, ?4)"));
  RETURN_IF_ERROR(insert
                      .BindAll(result.log_hash, result.match_id, result.worker,
                               now_micros)
                      .Run());
  for (const SeatResult& seat : result.seats) {
    ASSIGN_OR_RETURN(
        SqliteStatement add,
        db_->Prepare("INSERT INTO result_seats (log_hash, seat, version_id, "
                     "finish_rank, score) VALUES (?1, ?2, ?3, ?4, ?5)"));
    RETURN_IF_ERROR(add.BindAll(result.log_hash, seat.seat, seat.version_id,
                                seat.rank, seat.score)
                        .Run());
  }
  ASSIGN_OR_RETURN(
      SqliteStatement finish,
      db_->Prepare("UPDATE matches SET state = 'finished', claim_owner = '', "
                   "lease_expiry_micros = 0, finished_micros = ?1 WHERE "
                   "id = ?2"));
  RETURN_IF_ERROR(finish.BindAll(now_micros, result.match_id).Run());

  if (match->kind == MatchKind::kRated) {
    std::vector<Rating> before;
    for (const SeatResult& seat : result.seats) {
      ASSIGN_OR_RETURN(Rating rating,
                       ReadRating(config, seat.version_id, game->id));
      before.push_back(rating);
    }
    ASSIGN_OR_RETURN(std::vector<Rating> after,
                     rate(config, *game, result, before));
    if (after.size() != before.size()) {
      return absl::InternalError(absl::StrCat(
          "the rating update returned ", after.size(), " ratings for ",
          before.size(), " seats"));
    }
    for (size_t i = 0; i < after.size(); ++i) {
      if (!std::isfinite(after[i].mu) || !std::isfinite(after[i].sigma) ||
          !(after[i].sigma > 0)) {
        return absl::InternalError(absl::StrCat(
            "the rating update gave version ", before[i].version_id,
            " mu=", after[i].mu, " sigma=", after[i].sigma));
      }
      ASSIGN_OR_RETURN(
          SqliteStatement upsert,
          db_->Prepare("INSERT INTO ratings (version_id, game_id, mu, sigma, "
                       "games, updated_micros) VALUES (?1, ?2, ?3, ?4, 1, ?5) "
                       "ON CONFLICT (version_id, game_id) DO UPDATE SET "
                       "mu = ?3, sigma = ?4, games = ratings.games + 1, "
                       "updated_micros = ?5"));
      RETURN_IF_ERROR(upsert
                          .BindAll(before[i].version_id, game->id,
                                   after[i].mu, after[i].sigma, now_micros)
                          .Run());
      ASSIGN_OR_RETURN(
          SqliteStatement history,
          db_->Prepare("INSERT INTO rating_history (log_hash, version_id, "
                       "game_id, mu_before, sigma_before, mu_after, "
                       "sigma_after) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"));
      RETURN_IF_ERROR(history
                          .BindAll(result.log_hash, before[i].version_id,
                                   game->id, before[i].mu, before[i].sigma,
                                   after[i].mu, after[i].sigma)
                          .Run());
    }
  }
  RETURN_IF_ERROR(transaction.Commit());
  return RecordOutcome::kRecorded;
}

absl::StatusOr<std::optional<MatchResult>> SqliteStore::GetResult(
    absl::string_view log_hash) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_->Prepare("SELECT match_id, worker FROM results WHERE log_hash = ?1"));
  ASSIGN_OR_RETURN(bool row, select.BindAll(log_hash).Step());
  if (!row) return std::nullopt;
  MatchResult result;
  result.match_id = select.Int(0);
  result.worker = select.Text(1);
  result.log_hash = std::string(log_hash);
  ASSIGN_OR_RETURN(
      SqliteStatement seats,
      db_->Prepare("SELECT seat, version_id, finish_rank, score FROM "
                   "result_seats WHERE log_hash = ?1 ORDER BY seat"));
  seats.BindAll(log_hash);
  while (true) {
    ASSIGN_OR_RETURN(row, seats.Step());
    if (!row) break;
    result.seats.push_back({static_cast<int>(seats.Int(0)), seats.Int(1),
                            static_cast<int>(seats.Int(2)), seats.Double(3)});
  }
  return result;
}

absl::StatusOr<std::optional<MatchResult>> SqliteStore::ResultOfMatch(
    int64_t match_id) {
  std::string log_hash;
  {
    absl::MutexLock lock(&mu_);
    ASSIGN_OR_RETURN(
        SqliteStatement select,
        db_->Prepare("SELECT log_hash FROM results WHERE match_id = ?1"));
    ASSIGN_OR_RETURN(bool row, select.BindAll(match_id).Step());
    if (!row) return std::nullopt;
    log_hash = select.Text(0);
  }
  return GetResult(log_hash);
}

absl::StatusOr<std::vector<MatchResult>> SqliteStore::ListResults(
    int64_t game_id, std::optional<MatchKind> kind) {
  absl::MutexLock lock(&mu_);
  // One pass over the seats of every result, joined in result order.
  ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_->Prepare(
          "SELECT r.log_hash, r.match_id, r.worker, s.seat, s.version_id, "
          "s.finish_rank, s.score FROM results r JOIN matches m ON m.id = "
          "r.match_id JOIN result_seats s ON s.log_hash = r.log_hash WHERE "
          "m.game_id = ?1 AND (?2 = '' OR m.kind = ?2) ORDER BY "
          "r.recorded_micros, r.match_id, s.seat"));
  select.BindAll(game_id, kind.has_value() ? std::string(MatchKindName(*kind))
                                           : std::string());
  std::vector<MatchResult> results;
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) return results;
    std::string log_hash = select.Text(0);
    if (results.empty() || results.back().log_hash != log_hash) {
      MatchResult result;
      result.log_hash = std::move(log_hash);
      result.match_id = select.Int(1);
      result.worker = select.Text(2);
      results.push_back(std::move(result));
    }
    results.back().seats.push_back(
        {static_cast<int>(select.Int(3)), select.Int(4),
         static_cast<int>(select.Int(5)), select.Double(6)});
  }
}

absl::StatusOr<std::vector<Rating>> SqliteStore::Ratings(int64_t game_id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(SqliteStatement select,
                   db_->Prepare("SELECT version_id, mu, sigma, games FROM "
                                "ratings WHERE game_id = ?1 ORDER BY "
                                "version_id"));
  select.Bind(1, game_id);
  std::vector<Rating> ratings;
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) return ratings;
    ratings.push_back({select.Int(0), game_id, select.Double(1),
                       select.Double(2), select.Int(3)});
  }
}

absl::StatusOr<std::vector<RatingChange>> SqliteStore::RatingHistory(
    int64_t version_id, int64_t game_id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(
      SqliteStatement select,
      db_->Prepare("SELECT h.log_hash, h.mu_before, h.sigma_before, "
                   "h.mu_after, h.sigma_after FROM rating_history h JOIN "
                   "results r ON r.log_hash = h.log_hash WHERE h.version_id = "
                   "?1 AND h.game_id = ?2 ORDER BY r.recorded_micros, "
                   "r.match_id"));
  select.BindAll(version_id, game_id);
  std::vector<RatingChange> changes;
  while (true) {
    ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) return changes;
    changes.push_back({select.Text(0), version_id, game_id, select.Double(1),
                       select.Double(2), select.Double(3), select.Double(4)});
  }
}

absl::StatusOr<std::vector<MatchmakingEntry>> SqliteStore::MatchmakingState(
    int64_t game_id) {
  absl::MutexLock lock(&mu_);
  ASSIGN_OR_RETURN(LadderConfig config, ReadConfig());
  const LadderGame* game = nullptr;
  for (const LadderGame& g : config.games) {
    if (g.id == game_id) game = &g;
  }
  if (game == nullptr) {
    return absl::NotFoundError(absl::StrCat("no ladder game ", game_id));
  }
  ASSIGN_OR_RETURN(std::vector<Version> ranked,
                   ReadVersions(VersionStatus::kRanked, /*entrant_id=*/0));
  std::vector<MatchmakingEntry> entries;
  std::map<int64_t, size_t> index;  // version id -> entry
  for (const Version& version : ranked) {
    MatchmakingEntry entry;
    entry.version_id = version.id;
    entry.entrant_id = version.entrant_id;
    entry.mu = config.rating.mu;
    entry.sigma = config.rating.sigma;
    entry.seat_counts.assign(game->players, 0);
    index[version.id] = entries.size();
    entries.push_back(std::move(entry));
  }
  ASSIGN_OR_RETURN(SqliteStatement ratings,
                   db_->Prepare("SELECT version_id, mu, sigma FROM ratings "
                                "WHERE game_id = ?1"));
  ratings.BindAll(game_id);
  while (true) {
    ASSIGN_OR_RETURN(bool row, ratings.Step());
    if (!row) break;
    auto it = index.find(ratings.Int(0));
    if (it == index.end()) continue;
    entries[it->second].mu = ratings.Double(1);
    entries[it->second].sigma = ratings.Double(2);
  }
  std::vector<std::optional<int64_t>> last_round(entries.size());
  ASSIGN_OR_RETURN(SqliteStatement tallies,
                   db_->Prepare("SELECT version_id, seat, matches, last_round "
                                "FROM seat_tallies WHERE game_id = ?1"));
  tallies.BindAll(game_id);
  while (true) {
    ASSIGN_OR_RETURN(bool row, tallies.Step());
    if (!row) break;
    auto it = index.find(tallies.Int(0));
    if (it == index.end()) continue;  // not ranked
    MatchmakingEntry& entry = entries[it->second];
    const int64_t seat = tallies.Int(1);
    if (seat >= 0 && seat < game->players) {
      entry.seat_counts[seat] = tallies.Int(2);
    }
    entry.games += tallies.Int(2);
    std::optional<int64_t>& last = last_round[it->second];
    last = std::max(last.value_or(0), tallies.Int(3));
  }
  // The rounds since each seated version's last one, from one ordered list
  // of the rounds since the earliest of them (the index on (game_id,
  // round) reads only those), rather than a count per version.
  int64_t min_last_round = std::numeric_limits<int64_t>::max();
  for (const std::optional<int64_t>& last : last_round) {
    if (last.has_value()) min_last_round = std::min(min_last_round, *last);
  }
  std::vector<int64_t> rounds;
  if (min_last_round != std::numeric_limits<int64_t>::max()) {
    ASSIGN_OR_RETURN(
        SqliteStatement rounds_after,
        db_->Prepare("SELECT DISTINCT round FROM matches WHERE game_id = ?1 "
                     "AND round > ?2 AND kind = 'rated' AND state <> "
                     "'voided' ORDER BY round"));
    rounds_after.BindAll(game_id, min_last_round);
    while (true) {
      ASSIGN_OR_RETURN(bool row, rounds_after.Step());
      if (!row) break;
      rounds.push_back(rounds_after.Int(0));
    }
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    if (last_round[i].has_value()) {
      entries[i].rounds_waited =
          rounds.end() -
          std::upper_bound(rounds.begin(), rounds.end(), *last_round[i]);
      continue;
    }
    // Never seated in this game: the rounds since it was ranked.
    const Version& version = ranked[i];
    ASSIGN_OR_RETURN(
        SqliteStatement waited,
        db_->Prepare("SELECT COUNT(DISTINCT round) FROM matches WHERE "
                     "game_id = ?1 AND scheduled_micros >= ?2 AND kind = "
                     "'rated' AND state <> 'voided'"));
    waited.BindAll(game_id, version.status_micros);
    ASSIGN_OR_RETURN(bool row, waited.Step());
    entries[i].rounds_waited = row ? waited.Int(0) : 0;
  }
  return entries;
}

absl::StatusOr<int64_t> SqliteStore::NextRound(int64_t game_id) {
  absl::MutexLock lock(&mu_);
  return SingleInt(db_.get(),
                   "SELECT COALESCE(MAX(round), 0) + 1 FROM matches WHERE "
                   "game_id = ?1",
                   game_id);
}

}  // namespace cardref::ladder
