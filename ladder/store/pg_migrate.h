// Versioned schema migrations over a PostgreSQL connection: the same
// migrations (schema.h) and the same rules as migrate.h's for SQLite.
#ifndef CARDREF_LADDER_STORE_PG_MIGRATE_H_
#define CARDREF_LADDER_STORE_PG_MIGRATE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/schema.h"

namespace cardref::ladder {

// The newest version applied to the connection's schema (the first schema
// of its search_path): 0 when it has no migrations table.
[[nodiscard]] absl::StatusOr<int> PgSchemaVersion(PgConnection* db);

// Brings the database to the newest of `migrations`, as Migrate
// (migrate.h) does for SQLite: each missing migration runs with the row
// recording it in one transaction (PostgreSQL's DDL is transactional, so a
// crash leaves a whole version), FAILED_PRECONDITION without writing when
// the database is newer than this binary knows, INVALID_ARGUMENT if
// `migrations` is not numbered 1..N. Processes migrating at once take turns
// on an advisory lock, so the second finds the work done.
[[nodiscard]] absl::StatusOr<int> PgMigrate(
    PgConnection* db, const std::vector<Migration>& migrations,
    int64_t now_micros);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_PG_MIGRATE_H_
