// Versioned schema migrations over an SQLite connection.
#ifndef CARDREF_LADDER_STORE_MIGRATE_H_
#define CARDREF_LADDER_STORE_MIGRATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ladder/store/schema.h"
#include "ladder/store/sqlite_db.h"

namespace cardref::ladder {

// INVALID_ARGUMENT unless `migrations` are numbered 1..N in order (both
// backends check the list the same way).
[[nodiscard]] absl::Status CheckMigrationNumbering(
    const std::vector<Migration>& migrations);

// The FAILED_PRECONDITION for a store (`name`: its file or URL) whose
// schema version `found` is newer than the `known` of this binary.
absl::Status NewerSchemaError(absl::string_view name, int found, int known);

// The newest version applied to `db` (0: none, or no migrations table).
[[nodiscard]] absl::StatusOr<int> SchemaVersion(SqliteDb* db);

// Brings `db` to the newest of `migrations` (versions 1..N in order): each
// missing migration runs with the row recording it in one transaction, so a
// crash leaves the store at a whole version, and a second process migrating
// at the same time finds the work done. Returns the version reached.
// FAILED_PRECONDITION, changing nothing, when `db` has a version newer than
// this binary knows (written by a newer cardref); INVALID_ARGUMENT if
// `migrations` is not numbered 1..N.
[[nodiscard]] absl::StatusOr<int> Migrate(
    SqliteDb* db, const std::vector<Migration>& migrations,
    int64_t now_micros);

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_MIGRATE_H_
