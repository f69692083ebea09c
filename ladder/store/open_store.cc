#include "ladder/store/open_store.h"

#include "ladder/store/pg_db.h"
#include "ladder/store/pg_store.h"
#include "ladder/store/sqlite_store.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {

absl::StatusOr<std::unique_ptr<LadderStore>> OpenStore(
    const std::string& db, const OpenStoreOptions& options) {
  if (db.empty()) {
    return absl::InvalidArgumentError(
        "no store named: give a file (SQLite) or a postgresql:// URL");
  }
  if (IsPostgresUrl(db)) {
    PgStoreOptions pg;
    pg.connect.sync_every_commit = options.sync_every_commit;
    pg.migrations = options.migrations;
    pg.now_micros = options.now_micros;
    ASSIGN_OR_RETURN(std::unique_ptr<PgStore> store, PgStore::Open(db, pg));
    return std::unique_ptr<LadderStore>(std::move(store));
  }
  SqliteStoreOptions sqlite;
  sqlite.open.create = options.create;
  sqlite.open.sync_every_commit = options.sync_every_commit;
  sqlite.migrations = options.migrations;
  sqlite.now_micros = options.now_micros;
  ASSIGN_OR_RETURN(std::unique_ptr<SqliteStore> store,
                   SqliteStore::Open(db, sqlite));
  return std::unique_ptr<LadderStore>(std::move(store));
}

}  // namespace cardref::ladder
