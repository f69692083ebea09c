#include "ladder/store/pg_migrate.h"

#include "absl/strings/str_cat.h"
#include "ladder/store/migrate.h"
#include "ladder/store/pg_locks.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {
namespace {

// Inside a transaction: 0 when the schema has no migrations table yet.
int VersionIn(PgTransaction& txn) {
  const pqxx::result exists =
      txn.Exec("SELECT to_regclass('schema_migrations') IS NOT NULL");
  if (exists.empty() || PgText(exists[0][0]) != "t") return 0;
  const pqxx::result max =
      txn.Exec("SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
  return static_cast<int>(PgInt(max[0][0]));
}

}  // namespace

absl::StatusOr<int> PgSchemaVersion(PgConnection* db) {
  int version = 0;
  RETURN_IF_ERROR(db->Transact("reading the schema version",
                               [&](PgTransaction& txn) {
                                 version = VersionIn(txn);
                                 return absl::OkStatus();
                               }));
  return version;
}

absl::StatusOr<int> PgMigrate(PgConnection* db,
                              const std::vector<Migration>& migrations,
                              int64_t now_micros) {
  RETURN_IF_ERROR(CheckMigrationNumbering(migrations));
  const int known = static_cast<int>(migrations.size());
  // Refuse before writing anything, not even the migrations table.
  ASSIGN_OR_RETURN(int current, PgSchemaVersion(db));
  if (current > known) return NewerSchemaError(db->name(), current, known);
  if (current == known) return current;
  for (const Migration& migration : migrations) {
    absl::Status applied = db->Transact(
        absl::StrCat("migration ", migration.version, " (", migration.name,
                     ")"),
        [&](PgTransaction& txn) -> absl::Status {
          // One migrator at a time: CREATE TABLE IF NOT EXISTS is not safe
          // against a concurrent one in PostgreSQL.
          txn.Exec("SELECT pg_advisory_xact_lock($1, $2)", kPgLockSpace,
                   kPgMigrationLock);
          txn.ExecScript(kMigrationsTableSql);
          // Another process may have migrated since we looked.
          current = VersionIn(txn);
          if (current > known) {
            return NewerSchemaError(db->name(), current, known);
          }
          if (migration.version <= current) return absl::OkStatus();
          try {
            txn.ExecScript(migration.sql);
          } catch (const pqxx::sql_error& error) {
            // Not rerun: the text is wrong, not the timing.
            return absl::Status(
                PgError(error, "").code(),
                absl::StrCat("migration ", migration.version, " (",
                             migration.name, ") failed: ", error.what()));
          }
          txn.Exec(
              "INSERT INTO schema_migrations (version, name, applied_micros) "
              "VALUES ($1, $2, $3)",
              migration.version, migration.name, now_micros);
          return absl::OkStatus();
        });
    RETURN_IF_ERROR(applied);
  }
  return known;
}

}  // namespace cardref::ladder
