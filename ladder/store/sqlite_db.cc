#include "ladder/store/sqlite_db.h"

#include <sqlite3.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {

absl::Status SqliteError(int code, sqlite3* db, absl::string_view what) {
  const std::string message =
      absl::StrCat(what, ": ", db != nullptr ? sqlite3_errmsg(db)
                                             : sqlite3_errstr(code));
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::UnavailableError(
          absl::StrCat(message, " (another connection holds the database; "
                                "try again)"));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::DataLossError(message);
    case SQLITE_CANTOPEN:
      return absl::NotFoundError(message);
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return absl::PermissionDeniedError(message);
    case SQLITE_CONSTRAINT:
      return absl::FailedPreconditionError(message);
    case SQLITE_FULL:
      return absl::ResourceExhaustedError(message);
    default:
      return absl::InternalError(message);
  }
}

absl::StatusOr<std::unique_ptr<SqliteDb>> SqliteDb::Open(
    const std::string& path, const SqliteOpenOptions& options) {
  int flags = SQLITE_OPEN_NOMUTEX;
  if (options.read_only) {
    flags |= SQLITE_OPEN_READONLY;
  } else {
    flags |= SQLITE_OPEN_READWRITE;
    if (options.create) flags |= SQLITE_OPEN_CREATE;
  }
  sqlite3* raw = nullptr;
  const int code = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  // sqlite3_open_v2 returns a handle even on failure; it must be closed.
  std::unique_ptr<SqliteDb> db(new SqliteDb(raw, path));
  if (code != SQLITE_OK) {
    return SqliteError(code, raw, absl::StrCat("opening ", path));
  }
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, options.busy_timeout_ms);
  // Reading the schema is the first access to the file: a file that is not
  // a database fails here, with SQLITE_NOTADB.
  RETURN_IF_ERROR(db->Exec("PRAGMA foreign_keys = ON;"));
  {
    // Finalised at once: an unfinished statement holds a read transaction,
    // in which the journal mode cannot change.
    ASSIGN_OR_RETURN(SqliteStatement probe,
                     db->Prepare("SELECT count(*) FROM sqlite_master"));
    RETURN_IF_ERROR(probe.Step().status());
  }
  if (!options.read_only) {
    ASSIGN_OR_RETURN(SqliteStatement wal,
                     db->Prepare("PRAGMA journal_mode = WAL"));
    ASSIGN_OR_RETURN(bool row, wal.Step());
    if (!row || wal.Text(0) != "wal") {
      return absl::FailedPreconditionError(absl::StrCat(
          path, ": cannot use WAL mode (journal_mode is ",
          row ? wal.Text(0) : "unknown",
          "); is it on a network file system?"));
    }
    RETURN_IF_ERROR(db->Exec(options.sync_every_commit
                                 ? "PRAGMA synchronous = FULL;"
                                 : "PRAGMA synchronous = NORMAL;"));
  }
  return db;
}

SqliteDb::~SqliteDb() {
  // Statements are owned by their SqliteStatement objects, which must not
  // outlive the connection; close_v2 defers the close if one does.
  sqlite3_close_v2(db_);
}

absl::Status SqliteDb::Exec(absl::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (code != SQLITE_OK) {
    const std::string detail = error != nullptr ? error : "";
    sqlite3_free(error);
    absl::Status status = SqliteError(code, db_, "executing SQL");
    return absl::Status(status.code(),
                        absl::StrCat(status.message(), " [", detail, "] in: ",
                                     text.substr(0, 200)));
  }
  return absl::OkStatus();
}

absl::StatusOr<SqliteStatement> SqliteDb::Prepare(absl::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int code = sqlite3_prepare_v2(db_, sql.data(),
                                      static_cast<int>(sql.size()), &stmt,
                                      nullptr);
  if (code != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return SqliteError(code, db_, absl::StrCat("preparing `", sql, "`"));
  }
  return SqliteStatement(db_, stmt, std::string(sql));
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_),
      stmt_(std::exchange(other.stmt_, nullptr)),
      sql_(std::move(other.sql_)),
      bind_status_(std::move(other.bind_status_)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
    sql_ = std::move(other.sql_);
    bind_status_ = std::move(other.bind_status_);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

void SqliteStatement::NoteBind(int code) {
  if (code != SQLITE_OK && bind_status_.ok()) {
    bind_status_ = SqliteError(code, db_, absl::StrCat("binding `", sql_, "`"));
  }
}

SqliteStatement& SqliteStatement::Bind(int index, int64_t value) {
  NoteBind(sqlite3_bind_int64(stmt_, index, value));
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, double value) {
  NoteBind(sqlite3_bind_double(stmt_, index, value));
  return *this;
}

SqliteStatement& SqliteStatement::Bind(int index, absl::string_view value) {
  // SQLite binds a null pointer as NULL, and an empty string_view may have
  // one: text is always text.
  NoteBind(sqlite3_bind_text(stmt_, index, value.data() == nullptr ? "" : value.data(),
                             static_cast<int>(value.size()),
                             SQLITE_TRANSIENT));
  return *this;
}

SqliteStatement& SqliteStatement::BindNull(int index) {
  NoteBind(sqlite3_bind_null(stmt_, index));
  return *this;
}

absl::StatusOr<bool> SqliteStatement::Step() {
  RETURN_IF_ERROR(bind_status_);
  const int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  return SqliteError(code, db_, absl::StrCat("running `", sql_, "`"));
}

absl::Status SqliteStatement::Run() {
  while (true) {
    ASSIGN_OR_RETURN(bool row, Step());
    if (!row) return absl::OkStatus();
  }
}

int64_t SqliteStatement::Int(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double SqliteStatement::Double(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string SqliteStatement::Text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, column)));
}

bool SqliteStatement::IsNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::optional<int64_t> SqliteStatement::OptionalInt(int column) const {
  if (IsNull(column)) return std::nullopt;
  return Int(column);
}

absl::StatusOr<SqliteTransaction> SqliteTransaction::Begin(SqliteDb* db) {
  RETURN_IF_ERROR(db->Exec("BEGIN IMMEDIATE;"));
  return SqliteTransaction(db);
}

SqliteTransaction::~SqliteTransaction() {
  if (db_ != nullptr) {
    // Nothing to report to: the caller is already returning an error.
    (void)db_->Exec("ROLLBACK;");
  }
}

absl::Status SqliteTransaction::Commit() {
  SqliteDb* db = std::exchange(db_, nullptr);
  absl::Status status = db->Exec("COMMIT;");
  if (!status.ok()) (void)db->Exec("ROLLBACK;");
  return status;
}

}  // namespace cardref::ladder
