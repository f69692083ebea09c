// A thin layer over libpqxx for the PostgreSQL ladder store: one
// connection (PgConnection), libpqxx's exceptions as absl::Status, and
// transactions rerun when PostgreSQL says a concurrent one got in the way.
//
// Thread-safety: a PgConnection is used by one thread at a time (libpqxx
// connections are not thread-safe); PgStore serialises its callers with a
// mutex. Any number of connections, from threads, processes or machines,
// share a database through PostgreSQL's own locks.
#ifndef CARDREF_LADDER_STORE_PG_DB_H_
#define CARDREF_LADDER_STORE_PG_DB_H_

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "pqxx/pqxx"

namespace cardref::ladder {

// True for a PostgreSQL connection URL (postgresql://... or postgres://...).
bool IsPostgresUrl(absl::string_view db);

// `url` without its password (postgresql://user:secret@host/db ->
// postgresql://user:***@host/db; password=... in a query), for messages.
std::string RedactPostgresUrl(absl::string_view url);

// The status for an exception libpqxx threw during `what`:
// a lost or refused connection -> UNAVAILABLE (NOT_FOUND when the database
// does not exist); a commit whose outcome is unknown -> UNAVAILABLE (saying
// so); serialization failure or deadlock -> ABORTED (rerun); a constraint
// violation -> FAILED_PRECONDITION (as SQLite's CONSTRAINT); no privilege ->
// PERMISSION_DENIED; disk full or out of memory -> RESOURCE_EXHAUSTED;
// anything else INTERNAL. The message carries the SQLSTATE when there is one.
absl::Status PgError(const std::exception& error, absl::string_view what);

struct PgConnectOptions {
  // synchronous_commit on (a commit returns once it is on the server's disk)
  // or off (a commit may be lost if the server crashes, never half-applied).
  bool sync_every_commit = true;
  // Tries of one transaction that PostgreSQL aborted because a concurrent
  // one got in the way (see Transact).
  int max_tries = 50;
};

// Text of one field: libpqxx's own conversions are locale- and
// version-dependent for doubles; these are exact.
int64_t PgInt(const pqxx::field& field);
double PgDouble(const pqxx::field& field);
std::string PgText(const pqxx::field& field);
// A double as PostgreSQL reads it back bit for bit.
std::string PgFloat(double value);

// A parameter as the text PostgreSQL parses (every parameter is sent as
// text of unknown type; the statement's context gives its type).
inline std::string PgParam(absl::string_view text) { return std::string(text); }
inline std::string PgParam(const std::string& text) { return text; }
inline std::string PgParam(const char* text) { return text; }
inline std::string PgParam(double value) { return PgFloat(value); }
inline std::string PgParam(int64_t value) { return absl::StrCat(value); }
inline std::string PgParam(int value) { return absl::StrCat(value); }

// One transaction in PgConnection::Transact (or statements in autocommit,
// PgConnection::Session). Exec throws libpqxx's exceptions, which Transact
// turns into statuses (or reruns).
class PgTransaction {
 public:
  explicit PgTransaction(pqxx::transaction_base& work) : work_(work) {}

  // Runs `sql` with `args` bound to $1, $2, ...
  template <typename... Args>
  pqxx::result Exec(const std::string& sql, const Args&... args) {
    return work_.exec_params(sql, PgParam(args)...);
  }
  // Runs statements without parameters (several, separated by ';').
  pqxx::result ExecScript(const std::string& sql) { return work_.exec(sql); }
  // `text` as an SQL literal.
  std::string Quote(absl::string_view text) {
    return work_.quote(std::string(text));
  }

 private:
  pqxx::transaction_base& work_;
};

class PgConnection {
 public:
  // Connects to `url` (a libpq URL or key=value string). UNAVAILABLE if the
  // server cannot be reached, NOT_FOUND if the database does not exist.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<PgConnection>> Open(
      const std::string& url, const PgConnectOptions& options);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Runs `body` in one READ COMMITTED transaction and commits it if `body`
  // returns OK (a non-OK status rolls it back and is returned). When
  // PostgreSQL aborts the transaction because of a concurrent one - a
  // serialization failure, a deadlock, or a unique violation (two
  // transactions picked the same MAX(id) + 1) - or the connection broke
  // before the commit, `body` runs again in a new transaction, up to
  // `max_tries` times; so `body` must have no effect outside the
  // transaction but what may be repeated. A commit whose outcome is unknown
  // is never rerun (UNAVAILABLE). `what` names the operation in errors.
  [[nodiscard]] absl::Status Transact(
      absl::string_view what,
      const std::function<absl::Status(PgTransaction&)>& body);

  // Runs `body`'s statements each on its own (autocommit, outside any
  // transaction: for session-level settings and locks), once.
  [[nodiscard]] absl::Status Session(
      absl::string_view what,
      const std::function<absl::Status(PgTransaction&)>& body);

  // The URL without its password.
  const std::string& name() const { return name_; }

 private:
  PgConnection(std::unique_ptr<pqxx::connection> conn, std::string name,
               PgConnectOptions options);

  // The concrete type: pqxx::connection_base has no virtual destructor, and
  // only pqxx::connection's closes the connection.
  std::unique_ptr<pqxx::connection> conn_;
  std::string name_;
  PgConnectOptions options_;
};

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_PG_DB_H_
