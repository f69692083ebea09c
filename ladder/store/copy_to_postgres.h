// Moves a ladder from SQLite to PostgreSQL (`cardref_ladder migrate`;
// docs/scale.md): every row of every table, ids and all, so the ladder goes
// on where it stopped - entrants, versions, matches (claims included),
// results keyed by their logs' hashes, ratings and their history.
#ifndef CARDREF_LADDER_STORE_COPY_TO_POSTGRES_H_
#define CARDREF_LADDER_STORE_COPY_TO_POSTGRES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace cardref::ladder {

// The ladder's tables in an order that inserts each row after the rows it
// references (schema_migrations is each database's own).
const std::vector<std::string>& LadderTablesInCopyOrder();

struct CopyReport {
  std::vector<std::pair<std::string, int64_t>> rows;  // table, rows copied
};

// Copies the ladder in the SQLite file `sqlite_path` into the PostgreSQL
// database `pg_url`, which is migrated to this binary's schema first and
// must hold no ladder. One consistent snapshot of the file is read (other
// connections may go on writing it; what they write after is not copied)
// and written in one transaction: all or nothing. Stop the file's workers
// first, or their later results stay behind.
// NOT_FOUND if the file does not exist; FAILED_PRECONDITION if it holds no
// ladder, has a schema version other than this binary's newest (newer: use
// that cardref; older: open it once with this one, which migrates it), or a
// table this copy does not know; ALREADY_EXISTS if the database holds a
// ladder; what PgStore::Open returns if the database cannot be used.
[[nodiscard]] absl::StatusOr<CopyReport> CopySqliteToPostgres(
    const std::string& sqlite_path, const std::string& pg_url,
    int64_t now_micros);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_COPY_TO_POSTGRES_H_
