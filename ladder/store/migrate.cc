#include "ladder/store/migrate.h"

#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {

absl::Status CheckMigrationNumbering(const std::vector<Migration>& migrations) {
  for (size_t i = 0; i < migrations.size(); ++i) {
    if (migrations[i].version != static_cast<int>(i) + 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "migration ", i, " has version ", migrations[i].version,
          "; migrations must be numbered 1..N in order"));
    }
  }
  return absl::OkStatus();
}

absl::Status NewerSchemaError(absl::string_view name, int found, int known) {
  return absl::FailedPreconditionError(absl::StrCat(
      name, " has ladder schema version ", found,
      ", newer than this binary knows (", known,
      "): it was written by a newer cardref; use that version or newer"));
}

absl::StatusOr<int> SchemaVersion(SqliteDb* db) {
  ASSIGN_OR_RETURN(
      SqliteStatement exists,
      db->Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                  "AND name = 'schema_migrations'"));
  ASSIGN_OR_RETURN(bool row, exists.Step());
  if (!row || exists.Int(0) == 0) return 0;
  ASSIGN_OR_RETURN(
      SqliteStatement max,
      db->Prepare("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
  ASSIGN_OR_RETURN(row, max.Step());
  return row ? static_cast<int>(max.Int(0)) : 0;
}

absl::StatusOr<int> Migrate(SqliteDb* db,
                            const std::vector<Migration>& migrations,
                            int64_t now_micros) {
  RETURN_IF_ERROR(CheckMigrationNumbering(migrations));
  const int known = static_cast<int>(migrations.size());
  // Refuse before writing anything, not even the migrations table.
  ASSIGN_OR_RETURN(int current, SchemaVersion(db));
  if (current > known) return NewerSchemaError(db->path(), current, known);
  if (current == known) return current;
  for (const Migration& migration : migrations) {
    ASSIGN_OR_RETURN(SqliteTransaction transaction,
                     SqliteTransaction::Begin(db));
    RETURN_IF_ERROR(db->Exec(kMigrationsTableSql));
    // Another process may have migrated since we looked.
    ASSIGN_OR_RETURN(current, SchemaVersion(db));
    if (current > known) return NewerSchemaError(db->path(), current, known);
    if (migration.version <= current) continue;
    absl::Status applied = db->Exec(migration.sql);
    if (!applied.ok()) {
      return absl::Status(
          applied.code(),
          absl::StrCat("migration ", migration.version, " (", migration.name,
                       ") failed: ", applied.message()));
    }
    ASSIGN_OR_RETURN(
        SqliteStatement record,
        db->Prepare("INSERT INTO schema_migrations (version, name, "
                    "applied_micros) VALUES (?1, ?2, ?3)"));
    RETURN_IF_ERROR(
        record.BindAll(migration.version, migration.name, now_micros).Run());
    RETURN_IF_ERROR(transaction.Commit());
  }
  return known;
}

}  // namespace cardref::ladder
