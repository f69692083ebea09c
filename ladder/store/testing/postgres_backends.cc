// LinkedBackends() of the PostgreSQL test binary: one server per binary
// (postgres_server.h), started before the first test and stopped after the
// last; each database a new one on it. When no server can be started here
// (not installed, or it fails), every test skips with the reason.
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/pg_migrate.h"
#include "ladder/store/testing/postgres_server.h"
#include "ladder/store/testing/postgres_testing.h"
#include "ladder/store/testing/store_backends.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder::testing {
namespace {

class PostgresBackend final : public StoreBackend {
 public:
  std::string name() const override { return "postgres"; }
  std::string Unavailable() const override {
    return SharedPostgresServer() == nullptr ? SharedPostgresSkipReason()
                                             : "";
  }
  // A new schema of one database, named by the URL's search_path: a
  // database each would take a second each (CREATE DATABASE copies a
  // template and checkpoints); a schema takes a millisecond, and is how
  // one database holds several ladders (pg_store.h).
  absl::StatusOr<std::string> NewDatabase() override {
    PostgresServer* server = SharedPostgresServer();
    if (server == nullptr) {
      return absl::FailedPreconditionError(SharedPostgresSkipReason());
    }
    absl::MutexLock lock(&mu_);
    if (database_.empty()) {
      ASSIGN_OR_RETURN(database_, server->CreateDatabase("contract"));
    }
    const std::string schema = absl::StrCat("ladder_", next_++);
    ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn,
                     PgConnection::Open(database_, {}));
    RETURN_IF_ERROR(conn->Session("creating a schema", [&](
                                      PgTransaction& session) {
      session.ExecScript(absl::StrCat("CREATE SCHEMA ", schema));
      return absl::OkStatus();
    }));
    return absl::StrCat(database_, "&options=-csearch_path%3D", schema);
  }
  absl::StatusOr<int> SchemaVersionOf(const std::string& db) override {
    ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn,
                     PgConnection::Open(db, {}));
    return PgSchemaVersion(conn.get());
  }
  absl::Status Exec(const std::string& db, const std::string& sql) override {
    ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn,
                     PgConnection::Open(db, {}));
    return conn->Transact("running SQL", [&](PgTransaction& txn) {
      txn.ExecScript(sql);
      return absl::OkStatus();
    });
  }
  absl::StatusOr<int64_t> CountRows(const std::string& db,
                                    const std::string& table) override {
    ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn,
                     PgConnection::Open(db, {}));
    int64_t rows = 0;
    RETURN_IF_ERROR(conn->Transact("counting rows", [&](PgTransaction& txn) {
      rows = PgInt(txn.Exec("SELECT count(*) FROM " + table)[0][0]);
      return absl::OkStatus();
    }));
    return rows;
  }
  absl::StatusOr<bool> HasColumn(const std::string& db,
                                 const std::string& table,
                                 const std::string& column) override {
    ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> conn,
                     PgConnection::Open(db, {}));
    bool found = false;
    RETURN_IF_ERROR(conn->Transact("reading the catalogue", [&](
                                       PgTransaction& txn) {
      found = PgInt(txn.Exec("SELECT count(*) FROM information_schema.columns "
                             "WHERE table_schema = current_schema() AND "
                             "table_name = $1 AND ($2 = '' OR column_name = "
                             "$2)",
                             table, column)[0][0]) > 0;
      return absl::OkStatus();
    }));
    return found;
  }

 private:
  absl::Mutex mu_;
  std::string database_ ABSL_GUARDED_BY(mu_);  // its URL, once created
  int next_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace

std::vector<StoreBackend*> LinkedBackends() {
  static PostgresBackend* const kPostgres = new PostgresBackend;
  return {kPostgres};
}

}  // namespace cardref::ladder::testing
