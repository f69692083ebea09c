// The advisory locks the PostgreSQL store takes (pg_advisory_xact_lock with
// two int4 keys: a space and a key in it). They are per database: two
// ladders in one database (different search_paths) share them, which makes
// them wait for each other more than needed, never less.
#ifndef CARDREF_LADDER_STORE_PG_LOCKS_H_
#define CARDREF_LADDER_STORE_PG_LOCKS_H_

namespace cardref::ladder {

// "card" in ASCII: keys of the ladder's own locks.
inline constexpr int kPgLockSpace = 0x63617264;
// Schema migrations: one migrator at a time.
inline constexpr int kPgMigrationLock = 1;
// LadderStore::RunExclusively's turns (matchmaking in one place at a time).
inline constexpr int kPgExclusiveLock = 2;
// "carr": the rating updates of one version, keyed by the version's id
// (all its games), so two results that seat it are rated one after the
// other.
inline constexpr int kPgRatingLockSpace = 0x63617272;

}  // namespace cardref::ladder

#endif  // CARDREF_LADDER_STORE_PG_LOCKS_H_
