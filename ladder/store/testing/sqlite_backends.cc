// LinkedBackends() of the SQLite test binary: each database a fresh file.
#include <memory>

#include "ladder/store/migrate.h"
#include "ladder/store/sqlite_db.h"
#include "ladder/store/testing/store_backends.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder::testing {
namespace {

class SqliteBackend final : public StoreBackend {
 public:
  std::string name() const override { return "sqlite"; }
  std::string Unavailable() const override { return ""; }
  absl::StatusOr<std::string> NewDatabase() override {
    return FreshPath("ladder.db");
  }
  absl::StatusOr<int> SchemaVersionOf(const std::string& db) override {
    SqliteOpenOptions options;
    options.create = false;
    absl::StatusOr<std::unique_ptr<SqliteDb>> sqlite =
        SqliteDb::Open(db, options);
    if (!sqlite.ok()) return sqlite.status();
    return SchemaVersion(sqlite->get());
  }
  absl::Status Exec(const std::string& db, const std::string& sql) override {
    SqliteOpenOptions options;
    options.create = false;
    absl::StatusOr<std::unique_ptr<SqliteDb>> sqlite =
        SqliteDb::Open(db, options);
    if (!sqlite.ok()) return sqlite.status();
    return (*sqlite)->Exec(sql);
  }
  absl::StatusOr<int64_t> CountRows(const std::string& db,
                                    const std::string& table) override {
    SqliteOpenOptions options;
    options.create = false;
    absl::StatusOr<std::unique_ptr<SqliteDb>> sqlite =
        SqliteDb::Open(db, options);
    if (!sqlite.ok()) return sqlite.status();
    absl::StatusOr<SqliteStatement> query =
        (*sqlite)->Prepare("SELECT count(*) FROM " + table);
    if (!query.ok()) return query.status();
    absl::StatusOr<bool> row = query->Step();
    if (!row.ok()) return row.status();
    return *row ? query->Int(0) : 0;
  }
  absl::StatusOr<bool> HasColumn(const std::string& db,
                                 const std::string& table,
                                 const std::string& column) override {
    SqliteOpenOptions options;
    options.create = false;
    absl::StatusOr<std::unique_ptr<SqliteDb>> sqlite =
        SqliteDb::Open(db, options);
    if (!sqlite.ok()) return sqlite.status();
    absl::StatusOr<SqliteStatement> query = (*sqlite)->Prepare(
        "SELECT count(*) FROM pragma_table_info(?1) WHERE ?2 = '' OR "
        "name = ?2");
    if (!query.ok()) return query.status();
    absl::StatusOr<bool> row = query->BindAll(table, column).Step();
    if (!row.ok()) return row.status();
    return *row && query->Int(0) > 0;
  }
};

}  // namespace

std::vector<StoreBackend*> LinkedBackends() {
  static SqliteBackend* const kSqlite = new SqliteBackend;
  return {kSqlite};
}

}  // namespace cardref::ladder::testing
