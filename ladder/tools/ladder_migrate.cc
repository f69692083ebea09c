#include "ladder/tools/ladder_migrate.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ladder/store/copy_to_postgres.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/pg_store.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder::cli {

absl::Status MigrateToPostgres(const std::string& from, const std::string& to,
                               int64_t now_micros, std::ostream& out) {
  if (from.empty() || IsPostgresUrl(from)) {
    return absl::InvalidArgumentError(
        "--from is the ladder's SQLite file (FILE.db)");
  }
  if (!IsPostgresUrl(to)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--to is a PostgreSQL URL (postgresql://USER@HOST:PORT/DATABASE), "
        "got '", RedactPostgresUrl(to), "'"));
  }
  ASSIGN_OR_RETURN(CopyReport report,
                   CopySqliteToPostgres(from, to, now_micros));
  ASSIGN_OR_RETURN(std::unique_ptr<PgStore> store, PgStore::Open(to));
  ASSIGN_OR_RETURN(LadderConfig config, store->GetConfig());
  std::vector<std::string> counts;
  for (const auto& [table, rows] : report.rows) {
    counts.push_back(absl::StrCat(table, " ", rows));
  }
  out << "copied ladder '" << config.name << "' from " << from << " to "
      << RedactPostgresUrl(to) << ":\n  " << absl::StrJoin(counts, ", ")
      << "\nrun its workers with --db=" << RedactPostgresUrl(to) << "; "
      << from << " is left as it was (keep it as a backup; results recorded "
      << "in it from now on are not in PostgreSQL)\n";
  return absl::OkStatus();
}

}  // namespace cardref::ladder::cli
