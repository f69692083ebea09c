// The ladder store's schema as versioned migrations (docs/ladder.md,
// "Store").
//
// Each migration is SQL text that both backends run unchanged: SQLite here,
// PostgreSQL later. So the text keeps to the common subset: BIGINT ids
// assigned by the store (no AUTOINCREMENT, SERIAL or rowid), TEXT, INTEGER
// for small numbers and 0/1 flags (no BOOLEAN), DOUBLE PRECISION for reals,
// timestamps as BIGINT microseconds since the Unix epoch, CHECK constraints
// for enumerations, and no SQLite-only pragmas or functions.
//
// Rules for a new migration: append it with the next version; never edit
// one that has shipped (a store records which versions it has applied, not
// their text).
#ifndef CARDREF_LADDER_STORE_SCHEMA_H_
#define CARDREF_LADDER_STORE_SCHEMA_H_

#include <string>
#include <vector>

namespace cardref::ladder {

struct Migration {
  int version = 0;   // 1, 2, 3, ... without gaps
  std::string name;  // one line, for people
  std::string sql;   // statements separated by ';'
};

// The table of applied versions, created before any migration runs.
extern const char kMigrationsTableSql[];

// Every migration this binary knows, in version order.
const std::vector<Migration>& LadderMigrations();

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_SCHEMA_H_
