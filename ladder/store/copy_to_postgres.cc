#include "ladder/store/copy_to_postgres.h"

#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ladder/store/migrate.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/pg_migrate.h"
#include "ladder/store/schema.h"
#include "ladder/store/sqlite_db.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {
namespace {

// Rows per INSERT statement: few round trips, statements of a few hundred
// kilobytes at most.
constexpr int kRowsPerInsert = 500;

// One table as read from SQLite: column names and rows of SQL literals.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

// Each value as a literal PostgreSQL reads into the column's own type:
// numbers and text quoted alike ('25' into a BIGINT column is 25), doubles
// with every digit.
absl::StatusOr<Table> ReadTable(SqliteDb* db, const std::string& name,
                                PgTransaction& pg) {
  sqlite3_stmt* raw = nullptr;
  const std::string sql = absl::StrCat("SELECT * FROM ", name);
  int code = sqlite3_prepare_v2(db->raw(), sql.c_str(), -1, &raw, nullptr);
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> statement(
      raw, sqlite3_finalize);
  if (code != SQLITE_OK) {
    return SqliteError(code, db->raw(), absl::StrCat("reading ", name));
  }
  Table table;
  const int columns = sqlite3_column_count(raw);
  for (int c = 0; c < columns; ++c) {
    table.columns.emplace_back(sqlite3_column_name(raw, c));
  }
  while ((code = sqlite3_step(raw)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < columns; ++c) {
      switch (sqlite3_column_type(raw, c)) {
        case SQLITE_NULL:
          row.emplace_back("NULL");
          break;
        case SQLITE_INTEGER:
          row.push_back(absl::StrCat("'", sqlite3_column_int64(raw, c), "'"));
          break;
        case SQLITE_FLOAT:
          row.push_back(
              absl::StrCat("'", PgFloat(sqlite3_column_double(raw, c)), "'"));
          break;
        case SQLITE_TEXT: {
          const auto* text =
              reinterpret_cast<const char*>(sqlite3_column_text(raw, c));
          row.push_back(pg.Quote(absl::string_view(
              text, static_cast<size_t>(sqlite3_column_bytes(raw, c)))));
          break;
        }
        default:
          return absl::FailedPreconditionError(absl::StrCat(
              name, ".", table.columns[c],
              " holds a blob; the ladder's schema has none"));
      }
    }
    table.rows.push_back(std::move(row));
  }
  if (code != SQLITE_DONE) {
    return SqliteError(code, db->raw(), absl::StrCat("reading ", name));
  }
  return table;
}

void WriteTable(PgTransaction& pg, const std::string& name,
                const Table& table) {
  const std::string head = absl::StrCat(
      "INSERT INTO ", name, " (", absl::StrJoin(table.columns, ", "),
      ") VALUES ");
  for (size_t start = 0; start < table.rows.size(); start += kRowsPerInsert) {
    std::string sql = head;
    const size_t end = std::min(table.rows.size(), start + kRowsPerInsert);
    for (size_t r = start; r < end; ++r) {
      absl::StrAppend(&sql, r == start ? "(" : ", (",
                      absl::StrJoin(table.rows[r], ", "), ")");
    }
    pg.ExecScript(sql);
  }
}

// Checks the file is a ladder of this binary's newest schema, with no
// table the copy would leave behind.
absl::Status CheckSource(SqliteDb* db, const std::string& path) {
  ASSIGN_OR_RETURN(int version, SchemaVersion(db));
  const int known = static_cast<int>(LadderMigrations().size());
  if (version == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " is not a ladder store (no schema)"));
  }
  if (version > known) return NewerSchemaError(path, version, known);
  if (version < known) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, " has ladder schema version ", version, "; this cardref writes ",
        known, ": open it once with this cardref (cardref_ladder standings "
        "--db=", path, " migrates it), then copy it"));
  }
  ASSIGN_OR_RETURN(SqliteStatement tables,
                   db->Prepare("SELECT name FROM sqlite_master WHERE type = "
                               "'table' AND name NOT LIKE 'sqlite_%'"));
  const std::vector<std::string>& copied = LadderTablesInCopyOrder();
  const std::set<std::string> known_tables(copied.begin(), copied.end());
  while (true) {
    ASSIGN_OR_RETURN(bool row, tables.Step());
    if (!row) break;
    const std::string table = tables.Text(0);
    if (table != "schema_migrations" && known_tables.count(table) == 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          path, " has a table '", table,
          "' that this copy does not know; copying would leave it behind"));
    }
  }
  ASSIGN_OR_RETURN(SqliteStatement ladder,
                   db->Prepare("SELECT count(*) FROM ladder"));
  ASSIGN_OR_RETURN(bool row, ladder.Step());
  if (!row || ladder.Int(0) == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " holds no ladder yet: nothing to copy"));
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<std::string>& LadderTablesInCopyOrder() {
  static const auto* const kTables = new std::vector<std::string>{
      "ladder",       "games",   "entrants",     "versions",
      "matches",      "match_seats", "seat_tallies", "results",
      "result_seats", "ratings", "rating_history", "entrant_credentials"};
  return *kTables;
}

absl::StatusOr<CopyReport> CopySqliteToPostgres(const std::string& sqlite_path,
                                                const std::string& pg_url,
                                                int64_t now_micros) {
  if (!std::filesystem::exists(sqlite_path)) {
    return absl::NotFoundError(absl::StrCat("no ladder file ", sqlite_path));
  }
  SqliteOpenOptions open;
  open.create = false;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteDb> source,
                   SqliteDb::Open(sqlite_path, open));
  // One read transaction: every table from the same snapshot.
  RETURN_IF_ERROR(source->Exec("BEGIN;"));
  RETURN_IF_ERROR(CheckSource(source.get(), sqlite_path));

  ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> target,
                   PgConnection::Open(pg_url, {}));
  RETURN_IF_ERROR(
      PgMigrate(target.get(), LadderMigrations(), now_micros).status());
  CopyReport report;
  RETURN_IF_ERROR(target->Transact(
      absl::StrCat("copying ", sqlite_path, " into ", target->name()),
      [&](PgTransaction& pg) -> absl::Status {
        report.rows.clear();
        for (const std::string& table : LadderTablesInCopyOrder()) {
          // Nobody writes the tables while they are filled.
          pg.ExecScript(
              absl::StrCat("LOCK TABLE ", table, " IN EXCLUSIVE MODE"));
          if (PgInt(pg.ExecScript(absl::StrCat("SELECT count(*) FROM ",
                                               table))[0][0]) != 0) {
            if (table == "ladder") {
              return absl::AlreadyExistsError(absl::StrCat(
                  target->name(), " already holds a ladder; copy into an "
                  "empty database"));
            }
            return absl::FailedPreconditionError(
                absl::StrCat(target->name(), " has rows in ", table,
                             " but no ladder; copy into an empty database"));
          }
        }
        for (const std::string& table : LadderTablesInCopyOrder()) {
          ASSIGN_OR_RETURN(Table rows, ReadTable(source.get(), table, pg));
          WriteTable(pg, table, rows);
          const int64_t written = PgInt(pg.ExecScript(
              absl::StrCat("SELECT count(*) FROM ", table))[0][0]);
          if (written != static_cast<int64_t>(rows.rows.size())) {
            return absl::InternalError(absl::StrCat(
                table, ": read ", rows.rows.size(), " rows, the database "
                "holds ", written));
          }
          report.rows.emplace_back(table, written);
        }
        return absl::OkStatus();
      }));
  RETURN_IF_ERROR(source->Exec("COMMIT;"));
  return report;
}

}  // namespace cardref::ladder
