// cardref_ladder migrate: moves a ladder from its SQLite file to a
// PostgreSQL database, for workers on several machines (docs/scale.md).
#ifndef CARDREF_LADDER_TOOLS_LADDER_MIGRATE_H_
#define CARDREF_LADDER_TOOLS_LADDER_MIGRATE_H_

#include <cstdint>
#include <ostream>
#include <string>

#include "absl/status/status.h"

namespace cardref::ladder::cli {

// Copies the ladder in the SQLite file `from` into the PostgreSQL database
// `to` (a postgresql:// URL; the database exists and holds no ladder) and
// says what was copied. The file is left as it was. INVALID_ARGUMENT when
// `from` is not a file or `to` not a PostgreSQL URL; otherwise the errors of
// CopySqliteToPostgres (ladder/store/copy_to_postgres.h).
[[nodiscard]] absl::Status MigrateToPostgres(const std::string& from,
                                             const std::string& to,
                                             int64_t now_micros,
                                             std::ostream& out);

}  // namespace cardref::ladder::cli

#endif  // CARDREF_LADDER_TOOLS_LADDER_MIGRATE_H_
