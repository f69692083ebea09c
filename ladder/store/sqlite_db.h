// A thin RAII layer over the SQLite C API with absl::Status errors: one
// connection (SqliteDb), its prepared statements (SqliteStatement) and
// write transactions (SqliteTransaction).
//
// Thread-safety: a SqliteDb and its statements are used by one thread at a
// time (the connection is opened with SQLITE_OPEN_NOMUTEX); callers that
// share one serialise it themselves (SqliteStore holds a mutex). Several
// connections, in threads or processes, share a file through SQLite's own
// locks: in WAL mode readers never block the writer, and a writer waits up
// to `busy_timeout_ms` for another writer.
#ifndef CARDREF_LADDER_STORE_SQLITE_DB_H_
#define CARDREF_LADDER_STORE_SQLITE_DB_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct sqlite3;
struct sqlite3_stmt;

namespace cardref::ladder {

// SQLite's result code `code` as a Status, with `what` (the operation) and
// the connection's message. BUSY/LOCKED -> UNAVAILABLE (retry later),
// CORRUPT/NOTADB -> DATA_LOSS, CANTOPEN -> NOT_FOUND, READONLY/PERM ->
// PERMISSION_DENIED, CONSTRAINT -> FAILED_PRECONDITION, FULL ->
// RESOURCE_EXHAUSTED, anything else INTERNAL.
absl::Status SqliteError(int code, sqlite3* db, absl::string_view what);

struct SqliteOpenOptions {
  bool create = true;        // create the file if missing
  bool read_only = false;    // no writes, no WAL set-up, no create
  int busy_timeout_ms = 10000;
  // synchronous=FULL (every commit on disk before it returns) or NORMAL
  // (WAL mode: a commit may be lost on power failure, never on a crash).
  bool sync_every_commit = true;
};

class SqliteStatement;

class SqliteDb {
 public:
  // Opens `path` in WAL mode with foreign keys on. NOT_FOUND if it does not
  // exist and !create; DATA_LOSS if it is not an SQLite database.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<SqliteDb>> Open(
      const std::string& path, const SqliteOpenOptions& options);
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // Runs one or more statements that return no rows.
  [[nodiscard]] absl::Status Exec(absl::string_view sql);
  [[nodiscard]] absl::StatusOr<SqliteStatement> Prepare(absl::string_view sql);

  sqlite3* raw() const { return db_; }
  const std::string& path() const { return path_; }

 private:
  SqliteDb(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::string path_;
};

// One prepared statement. Bind indices are 1-based (SQLite's), column
// indices 0-based.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  SqliteStatement& Bind(int index, int64_t value);
  SqliteStatement& Bind(int index, int value) {
    return Bind(index, static_cast<int64_t>(value));
  }
  SqliteStatement& Bind(int index, double value);
  SqliteStatement& Bind(int index, absl::string_view value);
  SqliteStatement& Bind(int index, const std::string& value) {
    return Bind(index, absl::string_view(value));
  }
  SqliteStatement& Bind(int index, const char* value) {
    return Bind(index, absl::string_view(value));
  }
  SqliteStatement& BindNull(int index);
  template <typename T>
  SqliteStatement& Bind(int index, const std::optional<T>& value) {
    return value.has_value() ? Bind(index, *value) : BindNull(index);
  }

  // Binds `args` to ?1, ?2, ... in order.
  template <typename... Args>
  SqliteStatement& BindAll(const Args&... args) {
    int index = 0;
    (Bind(++index, args), ...);
    return *this;
  }

  // Advances: true with a row to read, false when done. The first bind
  // error, if any, is returned here.
  [[nodiscard]] absl::StatusOr<bool> Step();
  // Steps to the end, for statements that return no rows.
  [[nodiscard]] absl::Status Run();

  int64_t Int(int column) const;
  double Double(int column) const;
  std::string Text(int column) const;
  bool IsNull(int column) const;
  std::optional<int64_t> OptionalInt(int column) const;

 private:
  friend class SqliteDb;
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt, std::string sql)
      : db_(db), stmt_(stmt), sql_(std::move(sql)) {}
  void NoteBind(int code);

  sqlite3* db_;
  sqlite3_stmt* stmt_;
  std::string sql_;
  absl::Status bind_status_;
};

// A write transaction: BEGIN IMMEDIATE takes the write lock at once (so a
// transaction that reads before it writes never fails half-way with
// SQLITE_BUSY); rolled back on destruction unless committed.
class SqliteTransaction {
 public:
  [[nodiscard]] static absl::StatusOr<SqliteTransaction> Begin(SqliteDb* db);
  SqliteTransaction(SqliteTransaction&& other) noexcept
      : db_(other.db_) {
    other.db_ = nullptr;
  }
  SqliteTransaction& operator=(SqliteTransaction&&) = delete;
  SqliteTransaction(const SqliteTransaction&) = delete;
  SqliteTransaction& operator=(const SqliteTransaction&) = delete;
  ~SqliteTransaction();

  [[nodiscard]] absl::Status Commit();

 private:
  explicit SqliteTransaction(SqliteDb* db) : db_(db) {}
  SqliteDb* db_;  // null once committed or rolled back
};

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_SQLITE_DB_H_
