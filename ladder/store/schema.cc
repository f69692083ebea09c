#include "ladder/store/schema.h"

namespace cardref::ladder {

const char kMigrationsTableSql[] = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_micros BIGINT NOT NULL
);
)sql";

namespace {

// Version 1: the ladder, its games, entrants and their versions, scheduled
// matches with claims, results keyed by the log's hash, ratings and their
// history.
constexpr char kInitialSchema[] = R"sql(
CREATE TABLE ladder (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  duplicate INTEGER NOT NULL CHECK (duplicate IN (0, 1)),
  frozen INTEGER NOT NULL CHECK (frozen IN (0, 1)),
  decision_time_limit_ms BIGINT NOT NULL CHECK (decision_time_limit_ms > 0),
  match_budget_ms BIGINT NOT NULL CHECK (match_budget_ms > 0),
  reference_entrant TEXT NOT NULL,
  rating_mu DOUBLE PRECISION NOT NULL,
  rating_sigma DOUBLE PRECISION NOT NULL CHECK (rating_sigma > 0),
  rating_beta DOUBLE PRECISION NOT NULL CHECK (rating_beta > 0),
  rating_kappa DOUBLE PRECISION NOT NULL CHECK (rating_kappa > 0),
  rating_tau DOUBLE PRECISION NOT NULL CHECK (rating_tau >= 0),
  created_micros BIGINT NOT NULL
);

CREATE TABLE games (
  id BIGINT PRIMARY KEY,
  game TEXT NOT NULL,
  players INTEGER NOT NULL CHECK (players BETWEEN 2 AND 5),
  teams TEXT NOT NULL,
  params TEXT NOT NULL,
  UNIQUE (game, players, params)
);

CREATE TABLE entrants (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_micros BIGINT NOT NULL
);

CREATE TABLE versions (
  id BIGINT PRIMARY KEY,
  entrant_id BIGINT NOT NULL REFERENCES entrants (id),
  command TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('validating', 'ranked', 'rejected', 'retired')),
  reason TEXT NOT NULL,
  created_micros BIGINT NOT NULL,
  status_micros BIGINT NOT NULL,
  UNIQUE (entrant_id, content_hash)
);
CREATE INDEX versions_by_status ON versions (status, id);

CREATE TABLE matches (
  id BIGINT PRIMARY KEY,
  game_id BIGINT NOT NULL REFERENCES games (id),
  kind TEXT NOT NULL CHECK (kind IN ('rated', 'validation')),
  round BIGINT NOT NULL,
  deal_set TEXT NOT NULL,
  seed TEXT NOT NULL,
  state TEXT NOT NULL
    CHECK (state IN ('scheduled', 'claimed', 'finished', 'voided')),
  claim_owner TEXT NOT NULL,
  lease_expiry_micros BIGINT NOT NULL,
  attempts INTEGER NOT NULL,
  reason TEXT NOT NULL,
  scheduled_micros BIGINT NOT NULL,
  finished_micros BIGINT NOT NULL
);
CREATE INDEX matches_by_state ON matches (state, id);
CREATE INDEX matches_by_round ON matches (game_id, round);

CREATE TABLE match_seats (
  match_id BIGINT NOT NULL REFERENCES matches (id),
  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),
  version_id BIGINT NOT NULL REFERENCES versions (id),
  PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_by_version ON match_seats (version_id, match_id);

CREATE TABLE results (
  log_hash TEXT PRIMARY KEY,
  match_id BIGINT NOT NULL UNIQUE REFERENCES matches (id),
  worker TEXT NOT NULL,
  recorded_micros BIGINT NOT NULL
);

CREATE TABLE result_seats (
  log_hash TEXT NOT NULL REFERENCES results (log_hash),
  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),
  version_id BIGINT NOT NULL REFERENCES versions (id),
  finish_rank INTEGER NOT NULL CHECK (finish_rank >= 1),
  score DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (log_hash, seat)
);

CREATE TABLE ratings (
  version_id BIGINT NOT NULL REFERENCES versions (id),
  game_id BIGINT NOT NULL REFERENCES games (id),
  mu DOUBLE PRECISION NOT NULL,
  sigma DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
  games BIGINT NOT NULL,
  updated_micros BIGINT NOT NULL,
  PRIMARY KEY (version_id, game_id)
);

CREATE TABLE rating_history (
  log_hash TEXT NOT NULL REFERENCES results (log_hash),
  version_id BIGINT NOT NULL REFERENCES versions (id),
  game_id BIGINT NOT NULL REFERENCES games (id),
  mu_before DOUBLE PRECISION NOT NULL,
  sigma_before DOUBLE PRECISION NOT NULL,
  mu_after DOUBLE PRECISION NOT NULL,
  sigma_after DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (log_hash, version_id)
);
CREATE INDEX rating_history_by_version ON rating_history (version_id, game_id);
)sql";

}  // namespace

// What matchmaking reads on every decision, kept as matches are scheduled
// and voided instead of counted from the match tables each time (seconds at
// a million games): per version, game and seat, the rated matches that are
// not voided and the last round among them. And the index that finds the
// rounds scheduled since a time.
constexpr char kSeatTallies[] = R"sql(
CREATE TABLE seat_tallies (
  version_id BIGINT NOT NULL REFERENCES versions (id),
  game_id BIGINT NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 4),
  matches BIGINT NOT NULL,
  last_round BIGINT NOT NULL,
  PRIMARY KEY (version_id, game_id, seat)
);
INSERT INTO seat_tallies (version_id, game_id, seat, matches, last_round)
  SELECT s.version_id, m.game_id, s.seat, COUNT(*), MAX(m.round)
  FROM match_seats s JOIN matches m ON m.id = s.match_id
  WHERE m.kind = 'rated' AND m.state <> 'voided'
  GROUP BY s.version_id, m.game_id, s.seat;
CREATE INDEX matches_by_schedule ON matches (game_id, scheduled_micros);
)sql";

// Credentials of entrants' authors for the web front's owner-only pages:
// their SHA-256 only, revocable.
constexpr char kEntrantCredentials[] = R"sql(
CREATE TABLE entrant_credentials (
  id BIGINT PRIMARY KEY,
  entrant_id BIGINT NOT NULL REFERENCES entrants (id),
  credential_sha256 TEXT NOT NULL UNIQUE,
  created_micros BIGINT NOT NULL,
  revoked_micros BIGINT NOT NULL
);
CREATE INDEX entrant_credentials_by_entrant
  ON entrant_credentials (entrant_id, revoked_micros);
)sql";

const std::vector<Migration>& LadderMigrations() {
  static const auto* const kMigrations = new std::vector<Migration>{
      {1, "ladder, games, entrants, versions, matches, results, ratings",
       kInitialSchema},
      {2, "seat tallies for matchmaking", kSeatTallies},
      {3, "entrant credentials for the web front", kEntrantCredentials},
  };
  return *kMigrations;
}

}  // namespace cardref::ladder
