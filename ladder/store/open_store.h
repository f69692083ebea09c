// Opens a ladder's store from what a user names with --db: a file path is
// an SQLite store (SqliteStore), a postgresql:// (or postgres://) URL a
// PostgreSQL one (PgStore). Both hold the same schema and behave alike
// (docs/ladder.md, "Store"; docs/scale.md for several machines).
#ifndef CARDREF_LADDER_STORE_OPEN_STORE_H_
#define CARDREF_LADDER_STORE_OPEN_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ladder/store/schema.h"
#include "ladder/store/store.h"

namespace cardref::ladder {

struct OpenStoreOptions {
  // SQLite: create the file if it is missing. (A PostgreSQL database must
  // exist; its tables are created either way.)
  bool create = true;
  // Every commit on disk before it returns (SQLite synchronous=FULL,
  // PostgreSQL synchronous_commit=on); false: a commit may be lost on a
  // crash of the machine (or of the PostgreSQL server), never half-applied.
  bool sync_every_commit = true;
  // The migrations to bring the store to; default: all this binary knows.
  const std::vector<Migration>* migrations = nullptr;
  int64_t now_micros = 0;  // recorded with each migration applied
};

// Opens `db` and migrates it to the newest schema. Errors as
// SqliteStore::Open and PgStore::Open; INVALID_ARGUMENT for an empty `db`.
[[nodiscard]] absl::StatusOr<std::unique_ptr<LadderStore>> OpenStore(
    const std::string& db, const OpenStoreOptions& options = {});

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_OPEN_STORE_H_
