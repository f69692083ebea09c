#include "ladder/store/pg_store.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ladder/store/pg_locks.h"
#include "ladder/store/pg_migrate.h"
#include "ladder/store/validation.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {
namespace {

// The statements below are SqliteStore's with $n for ?n, casts where
// PostgreSQL cannot infer a parameter's type, and row locks where SQLite's
// one writer at a time made them unnecessary.

constexpr char kMatchColumns[] =
    "id, game_id, kind, round, deal_set, seed, state, claim_owner, "
    "lease_expiry_micros, attempts, reason, scheduled_micros, "
    "finished_micros";

constexpr char kVersionColumns[] =
    "v.id, v.entrant_id, e.name, v.command, v.content_hash, v.status, "
    "v.reason, v.created_micros, v.status_micros";

absl::StatusOr<Match> MatchFromRow(const pqxx::row& row) {
  Match match;
  match.id = PgInt(row[0]);
  match.game_id = PgInt(row[1]);
  ASSIGN_OR_RETURN(match.kind, ParseMatchKind(PgText(row[2])));
  match.round = PgInt(row[3]);
  match.deal_set = PgText(row[4]);
  match.seed = PgText(row[5]);
  ASSIGN_OR_RETURN(match.state, ParseMatchState(PgText(row[6])));
  match.claim_owner = PgText(row[7]);
  match.lease_expiry_micros = PgInt(row[8]);
  match.attempts = static_cast<int>(PgInt(row[9]));
  match.reason = PgText(row[10]);
  match.scheduled_micros = PgInt(row[11]);
  match.finished_micros = PgInt(row[12]);
  return match;
}

absl::StatusOr<Version> VersionFromRow(const pqxx::row& row) {
  Version version;
  version.id = PgInt(row[0]);
  version.entrant_id = PgInt(row[1]);
  version.entrant_name = PgText(row[2]);
  version.command = PgText(row[3]);
  version.content_hash = PgText(row[4]);
  ASSIGN_OR_RETURN(version.status, ParseVersionStatus(PgText(row[5])));
  version.reason = PgText(row[6]);
  version.created_micros = PgInt(row[7]);
  version.status_micros = PgInt(row[8]);
  return version;
}

int64_t NextId(PgTransaction& txn, absl::string_view table) {
  return PgInt(txn.Exec(absl::StrCat("SELECT COALESCE(MAX(id), 0) + 1 FROM ",
                                     table))[0][0]);
}

absl::StatusOr<LadderConfig> ReadConfig(PgTransaction& txn,
                                        const std::string& db_name) {
  const pqxx::result ladder = txn.Exec(
      "SELECT name, duplicate, frozen, decision_time_limit_ms, "
      "match_budget_ms, reference_entrant, rating_mu, rating_sigma, "
      "rating_beta, rating_kappa, rating_tau FROM ladder WHERE id = 1");
  if (ladder.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat(db_name, " holds no ladder yet: initialise it"));
  }
  const pqxx::row row = ladder[0];
  LadderConfig config;
  config.name = PgText(row[0]);
  config.duplicate = PgInt(row[1]) != 0;
  config.frozen = PgInt(row[2]) != 0;
  config.decision_time_limit_ms = PgInt(row[3]);
  config.match_budget_ms = PgInt(row[4]);
  config.reference_entrant = PgText(row[5]);
  config.rating.mu = PgDouble(row[6]);
  config.rating.sigma = PgDouble(row[7]);
  config.rating.beta = PgDouble(row[8]);
  config.rating.kappa = PgDouble(row[9]);
  config.rating.tau = PgDouble(row[10]);
  for (const pqxx::row& g : txn.Exec(
           "SELECT id, game, players, teams, params FROM games ORDER BY id")) {
    LadderGame game;
    game.id = PgInt(g[0]);
    game.game = PgText(g[1]);
    game.players = static_cast<int>(PgInt(g[2]));
    ASSIGN_OR_RETURN(game.teams, ParseTeams(PgText(g[3])));
    game.params = PgText(g[4]);
    config.games.push_back(std::move(game));
  }
  return config;
}

// `lock`: " FOR NO KEY UPDATE", " FOR SHARE" or "".
absl::StatusOr<std::optional<Version>> ReadVersion(PgTransaction& txn,
                                                   int64_t version_id,
                                                   absl::string_view lock) {
  const pqxx::result rows = txn.Exec(
      absl::StrCat("SELECT ", kVersionColumns,
                   " FROM versions v JOIN entrants e ON e.id = v.entrant_id "
                   "WHERE v.id = $1",
                   lock.empty() ? "" : absl::StrCat(lock, " OF v")),
      version_id);
  if (rows.empty()) return std::nullopt;
  ASSIGN_OR_RETURN(Version version, VersionFromRow(rows[0]));
  return version;
}

// Versions in `status` (any if nullopt) of `entrant_id` (any if 0), by id.
absl::StatusOr<std::vector<Version>> ReadVersions(
    PgTransaction& txn, std::optional<VersionStatus> status,
    int64_t entrant_id) {
  const pqxx::result rows = txn.Exec(
      absl::StrCat("SELECT ", kVersionColumns,
                   " FROM versions v JOIN entrants e ON e.id = v.entrant_id "
                   "WHERE ($1::text = '' OR v.status = $1::text) AND "
                   "($2::bigint = 0 OR v.entrant_id = $2::bigint) "
                   "ORDER BY v.id"),
      status.has_value() ? VersionStatusName(*status) : absl::string_view(),
      entrant_id);
  std::vector<Version> versions;
  for (const pqxx::row& row : rows) {
    ASSIGN_OR_RETURN(Version version, VersionFromRow(row));
    versions.push_back(std::move(version));
  }
  return versions;
}

// The seats of `matches` (read in one statement), filled in.
void ReadSeats(PgTransaction& txn, std::vector<Match>& matches) {
  if (matches.empty()) return;
  std::map<int64_t, Match*> by_id;
  std::string ids;
  for (Match& match : matches) {
    by_id[match.id] = &match;
    absl::StrAppend(&ids, ids.empty() ? "" : ",", match.id);
  }
  const pqxx::result seats = txn.Exec(
      "SELECT match_id, version_id FROM match_seats WHERE match_id = "
      "ANY($1::bigint[]) ORDER BY match_id, seat",
      absl::StrCat("{", ids, "}"));
  for (const pqxx::row& row : seats) {
    auto it = by_id.find(PgInt(row[0]));
    if (it != by_id.end()) it->second->seat_versions.push_back(PgInt(row[1]));
  }
}

// `lock`: " FOR NO KEY UPDATE" or "". (NO KEY: the row's key stays, so
// inserts that reference it - results, seats - need not wait.)
absl::StatusOr<std::optional<Match>> ReadMatch(PgTransaction& txn,
                                               int64_t match_id,
                                               absl::string_view lock) {
  const pqxx::result rows = txn.Exec(
      absl::StrCat("SELECT ", kMatchColumns, " FROM matches WHERE id = $1",
                   lock),
      match_id);
  if (rows.empty()) return std::nullopt;
  ASSIGN_OR_RETURN(Match match, MatchFromRow(rows[0]));
  std::vector<Match> one = {std::move(match)};
  ReadSeats(txn, one);
  return std::move(one[0]);
}

Rating ReadRating(PgTransaction& txn, const LadderConfig& config,
                  int64_t version_id, int64_t game_id) {
  const pqxx::result rows = txn.Exec(
      "SELECT mu, sigma, games FROM ratings WHERE version_id = $1 AND "
      "game_id = $2",
      version_id, game_id);
  Rating rating;
  rating.version_id = version_id;
  rating.game_id = game_id;
  if (!rows.empty()) {
    rating.mu = PgDouble(rows[0][0]);
    rating.sigma = PgDouble(rows[0][1]);
    rating.games = PgInt(rows[0][2]);
  } else {
    rating.mu = config.rating.mu;
    rating.sigma = config.rating.sigma;
  }
  return rating;
}

// Counts a version's seat_tallies (schema version 2: what matchmaking
// reads, kept as matches are scheduled and voided) again from the match
// tables. Two transactions recounting one version collide on the primary
// key, and the later is rerun; a ScheduleMatches that commits meanwhile is
// either counted here or adds itself to these rows once they commit.
void RecountTallies(PgTransaction& txn, int64_t version_id) {
  txn.Exec("DELETE FROM seat_tallies WHERE version_id = $1", version_id);
  txn.Exec(
      "INSERT INTO seat_tallies (version_id, game_id, seat, matches, "
      "last_round) SELECT s.version_id, m.game_id, s.seat, COUNT(*), "
      "MAX(m.round) FROM match_seats s JOIN matches m ON m.id = s.match_id "
      "WHERE s.version_id = $1 AND m.kind = 'rated' AND m.state <> 'voided' "
      "GROUP BY s.version_id, m.game_id, s.seat",
      version_id);
}

void RecountTalliesOfMatch(PgTransaction& txn, int64_t match_id) {
  for (const pqxx::row& row :
       txn.Exec("SELECT DISTINCT version_id FROM match_seats WHERE match_id = "
                "$1 ORDER BY version_id",
                match_id)) {
    RecountTallies(txn, PgInt(row[0]));
  }
}

void VoidScheduledMatchesOf(PgTransaction& txn, int64_t version_id,
                            const std::string& reason, int64_t now_micros) {
  // Everyone seated with it loses those matches from their tallies.
  const pqxx::result seated = txn.Exec(
      "SELECT DISTINCT o.version_id FROM match_seats s JOIN matches m ON m.id "
      "= s.match_id JOIN match_seats o ON o.match_id = m.id WHERE "
      "s.version_id = $1 AND m.state = 'scheduled' ORDER BY o.version_id",
      version_id);
  txn.Exec(
      "UPDATE matches SET state = 'voided', reason = $1, finished_micros = $2 "
      "WHERE state = 'scheduled' AND id IN (SELECT match_id FROM match_seats "
      "WHERE version_id = $3)",
      reason, now_micros, version_id);
  for (const pqxx::row& row : seated) RecountTallies(txn, PgInt(row[0]));
}

const LadderGame* FindGame(const LadderConfig& config, int64_t game_id) {
  for (const LadderGame& g : config.games) {
    if (g.id == game_id) return &g;
  }
  return nullptr;
}

absl::StatusOr<int64_t> ScheduleInTransaction(PgTransaction& txn,
                                              const LadderConfig& config,
                                              const NewMatch& match,
                                              int64_t now_micros) {
  const LadderGame* game = FindGame(config, match.game_id);
  if (game == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("no ladder game with id ", match.game_id));
  }
  if (static_cast<int>(match.seat_versions.size()) != game->players) {
    return absl::InvalidArgumentError(absl::StrCat(
        game->game, " has ", game->players, " seats; the match gives ",
        match.seat_versions.size(), " versions"));
  }
  std::set<int64_t> distinct;
  for (int64_t version_id : match.seat_versions) {
    // FOR SHARE: a version cannot be retired (and its scheduled matches
    // voided) between this check and the commit.
    ASSIGN_OR_RETURN(std::optional<Version> found,
                     ReadVersion(txn, version_id, " FOR SHARE"));
    if (!found.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("no version ", version_id));
    }
    if (match.kind == MatchKind::kRated &&
        found->status != VersionStatus::kRanked) {
      return absl::InvalidArgumentError(absl::StrCat(
          "version ", version_id, " of ", found->entrant_name, " is ",
          VersionStatusName(found->status),
          "; rated matches seat ranked versions only"));
    }
    if (match.kind == MatchKind::kRated &&
        !distinct.insert(version_id).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "version ", version_id, " is seated twice; a rated match needs "
          "distinct versions"));
    }
  }
  const int64_t id = NextId(txn, "matches");
  txn.Exec(
      "INSERT INTO matches (id, game_id, kind, round, deal_set, seed, state, "
      "claim_owner, lease_expiry_micros, attempts, reason, scheduled_micros, "
      "finished_micros) VALUES ($1, $2, $3, $4, $5, $6, 'scheduled', '', 0, "
      "0, '', $7, 0)",
      id, match.game_id, MatchKindName(match.kind), match.round,
      match.deal_set, match.seed, now_micros);
  for (size_t seat = 0; seat < match.seat_versions.size(); ++seat) {
    txn.Exec(
        "INSERT INTO match_seats (match_id, seat, version_id) VALUES ($1, $2, "
        "$3)",
        id, static_cast<int64_t>(seat), match.seat_versions[seat]);
    if (match.kind != MatchKind::kRated) continue;
    txn.Exec(
        "INSERT INTO seat_tallies (version_id, game_id, seat, matches, "
        "last_round) VALUES ($1, $2, $3, 1, $4) ON CONFLICT (version_id, "
        "game_id, seat) DO UPDATE SET matches = seat_tallies.matches + 1, "
        "last_round = CASE WHEN $4 > seat_tallies.last_round THEN $4 ELSE "
        "seat_tallies.last_round END",
        match.seat_versions[seat], match.game_id, static_cast<int64_t>(seat),
        match.round);
  }
  return id;
}

}  // namespace

absl::StatusOr<std::unique_ptr<PgStore>> PgStore::Open(
    const std::string& url, const PgStoreOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<PgConnection> db,
                   PgConnection::Open(url, options.connect));
  const std::vector<Migration>& migrations =
      options.migrations != nullptr ? *options.migrations : LadderMigrations();
  RETURN_IF_ERROR(
      PgMigrate(db.get(), migrations, options.now_micros).status());
  return std::unique_ptr<PgStore>(new PgStore(std::move(db)));
}

absl::Status PgStore::Initialize(const LadderConfig& config,
                                 int64_t now_micros) {
  RETURN_IF_ERROR(ValidateConfig(config));
  absl::MutexLock lock(&mu_);
  return db_->Transact("initialising the ladder", [&](PgTransaction& txn) {
    if (PgInt(txn.Exec("SELECT count(*) FROM ladder")[0][0]) != 0) {
      return absl::AlreadyExistsError(
          absl::StrCat(db_->name(), " already holds a ladder"));
    }
    const RatingParams& r = config.rating;
    txn.Exec(
        "INSERT INTO ladder (id, name, duplicate, frozen, "
        "decision_time_limit_ms, match_budget_ms, reference_entrant, "
        "rating_mu, rating_sigma, rating_beta, rating_kappa, rating_tau, "
        "created_micros) VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, "
        "$11, $12)",
        config.name, config.duplicate ? 1 : 0, config.frozen ? 1 : 0,
        config.decision_time_limit_ms, config.match_budget_ms,
        config.reference_entrant, r.mu, r.sigma, r.beta, r.kappa, r.tau,
        now_micros);
    int64_t id = 0;
    for (const LadderGame& game : config.games) {
      txn.Exec(
          "INSERT INTO games (id, game, players, teams, params) VALUES ($1, "
          "$2, $3, $4, $5)",
          ++id, game.game, game.players, FormatTeams(game.teams), game.params);
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<LadderConfig> PgStore::GetConfig() {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<LadderConfig> config;
  RETURN_IF_ERROR(db_->Transact("reading the ladder", [&](PgTransaction& txn) {
    config = ReadConfig(txn, db_->name());
    return absl::OkStatus();
  }));
  return config;
}

absl::Status PgStore::SetFrozen(bool frozen) {
  absl::MutexLock lock(&mu_);
  return db_->Transact("freezing the ladder", [&](PgTransaction& txn) {
    const pqxx::result updated =
        txn.Exec("UPDATE ladder SET frozen = $1 WHERE id = 1", frozen ? 1 : 0);
    if (updated.affected_rows() == 0) {
      return ReadConfig(txn, db_->name()).status();
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<Entrant> PgStore::AddEntrant(absl::string_view name,
                                            int64_t now_micros) {
  RETURN_IF_ERROR(ValidateEntrantName(name));
  absl::MutexLock lock(&mu_);
  Entrant entrant;
  RETURN_IF_ERROR(
      db_->Transact("adding an entrant", [&](PgTransaction& txn) {
        const pqxx::result taken =
            txn.Exec("SELECT id FROM entrants WHERE name = $1", name);
        if (!taken.empty()) {
          return absl::AlreadyExistsError(absl::StrCat(
              "entrant '", name, "' exists (id ", PgInt(taken[0][0]), ")"));
        }
        entrant.id = NextId(txn, "entrants");
        entrant.name = std::string(name);
        entrant.created_micros = now_micros;
        txn.Exec(
            "INSERT INTO entrants (id, name, created_micros) VALUES ($1, $2, "
            "$3)",
            entrant.id, name, now_micros);
        return absl::OkStatus();
      }));
  return entrant;
}

absl::StatusOr<EntrantCredential> PgStore::AddEntrantCredential(
    absl::string_view entrant, absl::string_view credential_sha256,
    int64_t now_micros) {
  RETURN_IF_ERROR(ValidateHex64(credential_sha256, "a credential's SHA-256"));
  absl::MutexLock lock(&mu_);
  EntrantCredential credential;
  RETURN_IF_ERROR(db_->Transact("adding a credential", [&](PgTransaction& txn) {
    const pqxx::result found =
        txn.Exec("SELECT id FROM entrants WHERE name = $1", entrant);
    if (found.empty()) {
      return absl::NotFoundError(absl::StrCat("no entrant '", entrant, "'"));
    }
    const pqxx::result taken = txn.Exec(
        "SELECT id FROM entrant_credentials WHERE credential_sha256 = $1",
        credential_sha256);
    if (!taken.empty()) {
      return absl::AlreadyExistsError("this credential is stored already");
    }
    credential.id = NextId(txn, "entrant_credentials");
    credential.entrant_id = PgInt(found[0][0]);
    credential.entrant_name = std::string(entrant);
    credential.created_micros = now_micros;
    txn.Exec(
        "INSERT INTO entrant_credentials (id, entrant_id, credential_sha256, "
        "created_micros, revoked_micros) VALUES ($1, $2, $3, $4, 0)",
        credential.id, credential.entrant_id, credential_sha256, now_micros);
    return absl::OkStatus();
  }));
  return credential;
}

absl::StatusOr<std::optional<EntrantCredential>>
PgStore::FindEntrantCredential(absl::string_view credential_sha256) {
  absl::MutexLock lock(&mu_);
  std::optional<EntrantCredential> credential;
  RETURN_IF_ERROR(
      db_->Transact("finding a credential", [&](PgTransaction& txn) {
        credential.reset();
        const pqxx::result found = txn.Exec(
            "SELECT c.id, c.entrant_id, e.name, c.created_micros FROM "
            "entrant_credentials c JOIN entrants e ON e.id = c.entrant_id "
            "WHERE c.credential_sha256 = $1 AND c.revoked_micros = 0",
            credential_sha256);
        if (found.empty()) return absl::OkStatus();
        credential = EntrantCredential{PgInt(found[0][0]),
                                       PgInt(found[0][1]),
                                       PgText(found[0][2]),
                                       PgInt(found[0][3]), 0};
        return absl::OkStatus();
      }));
  return credential;
}

absl::StatusOr<int> PgStore::RevokeEntrantCredentials(
    absl::string_view entrant, int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  int revoked = 0;
  RETURN_IF_ERROR(
      db_->Transact("revoking credentials", [&](PgTransaction& txn) {
        const pqxx::result found =
            txn.Exec("SELECT id FROM entrants WHERE name = $1", entrant);
        if (found.empty()) {
          return absl::NotFoundError(
              absl::StrCat("no entrant '", entrant, "'"));
        }
        // A revocation at time 0 would read as "in force".
        const pqxx::result updated = txn.Exec(
            "UPDATE entrant_credentials SET revoked_micros = $1 WHERE "
            "entrant_id = $2 AND revoked_micros = 0",
            std::max<int64_t>(now_micros, 1), PgInt(found[0][0]));
        revoked = static_cast<int>(updated.affected_rows());
        return absl::OkStatus();
      }));
  return revoked;
}

absl::StatusOr<std::vector<Entrant>> PgStore::ListEntrants() {
  absl::MutexLock lock(&mu_);
  std::vector<Entrant> entrants;
  RETURN_IF_ERROR(
      db_->Transact("listing entrants", [&](PgTransaction& txn) {
        entrants.clear();
        for (const pqxx::row& row : txn.Exec(
                 "SELECT id, name, created_micros FROM entrants ORDER BY id")) {
          entrants.push_back({PgInt(row[0]), PgText(row[1]), PgInt(row[2])});
        }
        return absl::OkStatus();
      }));
  return entrants;
}

absl::StatusOr<Version> PgStore::AddVersion(absl::string_view entrant,
                                            absl::string_view command,
                                            absl::string_view content_hash,
                                            int64_t now_micros) {
  if (command.empty()) {
    return absl::InvalidArgumentError("a version needs a command");
  }
  if (content_hash.empty()) {
    return absl::InvalidArgumentError("a version needs a content hash");
  }
  absl::MutexLock lock(&mu_);
  std::optional<Version> version;
  RETURN_IF_ERROR(db_->Transact("adding a version", [&](PgTransaction& txn)
                                                        -> absl::Status {
    ASSIGN_OR_RETURN(LadderConfig config, ReadConfig(txn, db_->name()));
    if (config.frozen) {
      return absl::FailedPreconditionError(absl::StrCat(
          "ladder '", config.name, "' is frozen: it takes no new versions"));
    }
    const pqxx::result found =
        txn.Exec("SELECT id FROM entrants WHERE name = $1", entrant);
    if (found.empty()) {
      return absl::NotFoundError(
          absl::StrCat("no entrant '", entrant, "': add it first"));
    }
    const int64_t entrant_id = PgInt(found[0][0]);
    const pqxx::result same = txn.Exec(
        "SELECT id FROM versions WHERE entrant_id = $1 AND content_hash = $2",
        entrant_id, content_hash);
    if (!same.empty()) {
      return absl::AlreadyExistsError(absl::StrCat(
          "entrant '", entrant, "' already has version ", PgInt(same[0][0]),
          " with content hash ", content_hash));
    }
    const int64_t id = NextId(txn, "versions");
    txn.Exec(
        "INSERT INTO versions (id, entrant_id, command, content_hash, status, "
        "reason, created_micros, status_micros) VALUES ($1, $2, $3, $4, "
        "'validating', '', $5, $5)",
        id, entrant_id, command, content_hash, now_micros);
    ASSIGN_OR_RETURN(version, ReadVersion(txn, id, ""));
    return absl::OkStatus();
  }));
  return *std::move(version);
}

absl::Status PgStore::SetVersionStatus(int64_t version_id,
                                       VersionStatus status,
                                       absl::string_view reason,
                                       int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  return db_->Transact("changing a version's status", [&](PgTransaction& txn)
                                                          -> absl::Status {
    ASSIGN_OR_RETURN(std::optional<Version> unlocked,
                     ReadVersion(txn, version_id, ""));
    if (!unlocked.has_value()) {
      return absl::NotFoundError(absl::StrCat("no version ", version_id));
    }
    // The entrant's row first: two of its versions ranked at once take
    // turns, so one active version per entrant holds.
    txn.Exec("SELECT id FROM entrants WHERE id = $1 FOR NO KEY UPDATE",
             unlocked->entrant_id);
    ASSIGN_OR_RETURN(std::optional<Version> found,
                     ReadVersion(txn, version_id, " FOR NO KEY UPDATE"));
    const Version& version = *found;
    RETURN_IF_ERROR(CheckVersionTransition(version, status));
    if (status == VersionStatus::kRanked) {
      ASSIGN_OR_RETURN(
          std::vector<Version> ranked,
          ReadVersions(txn, VersionStatus::kRanked, version.entrant_id));
      for (const Version& old : ranked) {
        const std::string why = absl::StrCat("replaced by version ", version_id);
        txn.Exec(
            "UPDATE versions SET status = 'retired', reason = $1, "
            "status_micros = $2 WHERE id = $3",
            why, now_micros, old.id);
        VoidScheduledMatchesOf(txn, old.id,
                               absl::StrCat("version ", old.id, " ", why),
                               now_micros);
      }
    }
    if (status == VersionStatus::kRetired) {
      VoidScheduledMatchesOf(txn, version_id,
                             absl::StrCat("version ", version_id, " retired"),
                             now_micros);
    }
    txn.Exec(
        "UPDATE versions SET status = $1, reason = $2, status_micros = $3 "
        "WHERE id = $4",
        VersionStatusName(status), reason, now_micros, version_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<Version> PgStore::GetVersion(int64_t version_id) {
  absl::MutexLock lock(&mu_);
  std::optional<Version> found;
  RETURN_IF_ERROR(db_->Transact("reading a version", [&](PgTransaction& txn)
                                                         -> absl::Status {
    ASSIGN_OR_RETURN(found, ReadVersion(txn, version_id, ""));
    return absl::OkStatus();
  }));
  if (!found.has_value()) {
    return absl::NotFoundError(absl::StrCat("no version ", version_id));
  }
  return *std::move(found);
}

absl::StatusOr<std::vector<Version>> PgStore::ListVersions(
    std::optional<VersionStatus> status) {
  absl::MutexLock lock(&mu_);
  std::vector<Version> versions;
  RETURN_IF_ERROR(db_->Transact("listing versions", [&](PgTransaction& txn)
                                                        -> absl::Status {
    ASSIGN_OR_RETURN(versions, ReadVersions(txn, status, /*entrant_id=*/0));
    return absl::OkStatus();
  }));
  return versions;
}

absl::StatusOr<std::vector<int64_t>> PgStore::ScheduleMatches(
    const std::vector<NewMatch>& matches, int64_t now_micros) {
  for (const NewMatch& match : matches) {
    RETURN_IF_ERROR(ValidateHex64(match.seed, "the dealing seed"));
  }
  absl::MutexLock lock(&mu_);
  std::vector<int64_t> ids;
  RETURN_IF_ERROR(db_->Transact("scheduling matches", [&](PgTransaction& txn)
                                                          -> absl::Status {
    ids.clear();
    ASSIGN_OR_RETURN(LadderConfig config, ReadConfig(txn, db_->name()));
    for (const NewMatch& match : matches) {
      ASSIGN_OR_RETURN(int64_t id,
                       ScheduleInTransaction(txn, config, match, now_micros));
      ids.push_back(id);
    }
    return absl::OkStatus();
  }));
  return ids;
}

absl::StatusOr<Match> PgStore::GetMatch(int64_t match_id) {
  absl::MutexLock lock(&mu_);
  std::optional<Match> match;
  RETURN_IF_ERROR(db_->Transact("reading a match", [&](PgTransaction& txn)
                                                       -> absl::Status {
    ASSIGN_OR_RETURN(match, ReadMatch(txn, match_id, ""));
    return absl::OkStatus();
  }));
  if (!match.has_value()) {
    return absl::NotFoundError(absl::StrCat("no match ", match_id));
  }
  return *std::move(match);
}

absl::StatusOr<std::vector<Match>> PgStore::ListMatches(
    std::optional<MatchState> state) {
  absl::MutexLock lock(&mu_);
  std::vector<Match> matches;
  RETURN_IF_ERROR(db_->Transact("listing matches", [&](PgTransaction& txn)
                                                       -> absl::Status {
    matches.clear();
    const pqxx::result rows = txn.Exec(
        absl::StrCat("SELECT ", kMatchColumns,
                     " FROM matches WHERE $1::text = '' OR state = $1::text "
                     "ORDER BY id"),
        state.has_value() ? MatchStateName(*state) : absl::string_view());
    for (const pqxx::row& row : rows) {
      ASSIGN_OR_RETURN(Match match, MatchFromRow(row));
      matches.push_back(std::move(match));
    }
    ReadSeats(txn, matches);
    return absl::OkStatus();
  }));
  return matches;
}

absl::StatusOr<std::optional<Match>> PgStore::ClaimNext(
    const ClaimRequest& request) {
  if (request.owner.empty() || request.lease_micros <= 0 ||
      request.max_attempts < 1) {
    return absl::InvalidArgumentError(
        "a claim needs an owner, a positive lease and max_attempts >= 1");
  }
  absl::MutexLock lock(&mu_);
  std::optional<Match> claimed;
  RETURN_IF_ERROR(db_->Transact("claiming a match", [&](PgTransaction& txn)
                                                        -> absl::Status {
    claimed.reset();
    while (true) {
      // SKIP LOCKED: a match another worker is claiming right now is not
      // waited for; the next one is taken instead. Rows are rechecked once
      // locked, so a match claimed and committed meanwhile is not taken.
      const pqxx::result next = txn.Exec(
          "SELECT id, attempts, claim_owner FROM matches WHERE state IN "
          "('scheduled', 'claimed') AND (state = 'scheduled' OR "
          "lease_expiry_micros <= $1) ORDER BY id LIMIT 1 FOR NO KEY UPDATE "
          "SKIP LOCKED",
          request.now_micros);
      if (next.empty()) return absl::OkStatus();  // keeps any voids made
      const int64_t id = PgInt(next[0][0]);
      const int64_t attempts = PgInt(next[0][1]);
      if (attempts >= request.max_attempts) {
        txn.Exec(
            "UPDATE matches SET state = 'voided', reason = $1, claim_owner = "
            "'', lease_expiry_micros = 0, finished_micros = $2 WHERE id = $3",
            absl::StrCat("abandoned after ", attempts,
                         " claims without a result (last by '",
                         PgText(next[0][2]), "')"),
            request.now_micros, id);
        RecountTalliesOfMatch(txn, id);
        continue;
      }
      txn.Exec(
          "UPDATE matches SET state = 'claimed', claim_owner = $1, "
          "lease_expiry_micros = $2, attempts = attempts + 1 WHERE id = $3",
          request.owner, request.now_micros + request.lease_micros, id);
      ASSIGN_OR_RETURN(claimed, ReadMatch(txn, id, ""));
      return absl::OkStatus();
    }
  }));
  return claimed;
}

absl::Status PgStore::RenewLease(int64_t match_id, absl::string_view owner,
                                 int64_t now_micros, int64_t lease_micros) {
  if (lease_micros <= 0) {
    return absl::InvalidArgumentError("the lease must be positive");
  }
  absl::MutexLock lock(&mu_);
  return db_->Transact("renewing a lease", [&](PgTransaction& txn) {
    const pqxx::result renewed = txn.Exec(
        "UPDATE matches SET lease_expiry_micros = $1 WHERE id = $2 AND state "
        "= 'claimed' AND claim_owner = $3",
        now_micros + lease_micros, match_id, owner);
    if (renewed.affected_rows() == 0) {
      return absl::AbortedError(absl::StrCat(
          "'", owner, "' no longer holds match ", match_id,
          ": its lease expired and another worker claimed it, or it ended"));
    }
    return absl::OkStatus();
  });
}

absl::Status PgStore::ReleaseClaim(int64_t match_id, absl::string_view owner) {
  absl::MutexLock lock(&mu_);
  return db_->Transact("releasing a claim", [&](PgTransaction& txn) {
    const pqxx::result released = txn.Exec(
        "UPDATE matches SET state = 'scheduled', claim_owner = '', "
        "lease_expiry_micros = 0 WHERE id = $1 AND state = 'claimed' AND "
        "claim_owner = $2",
        match_id, owner);
    if (released.affected_rows() == 0) {
      return absl::AbortedError(
          absl::StrCat("'", owner, "' does not hold match ", match_id));
    }
    return absl::OkStatus();
  });
}

absl::Status PgStore::VoidMatch(int64_t match_id, absl::string_view reason,
                                int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  return db_->Transact("voiding a match", [&](PgTransaction& txn)
                                              -> absl::Status {
    ASSIGN_OR_RETURN(std::optional<Match> match,
                     ReadMatch(txn, match_id, " FOR NO KEY UPDATE"));
    if (!match.has_value()) {
      return absl::NotFoundError(absl::StrCat("no match ", match_id));
    }
    if (match->state == MatchState::kFinished) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", match_id, " is finished; its result stands"));
    }
    if (match->state == MatchState::kVoided) return absl::OkStatus();
    txn.Exec(
        "UPDATE matches SET state = 'voided', reason = $1, claim_owner = '', "
        "lease_expiry_micros = 0, finished_micros = $2 WHERE id = $3",
        reason, now_micros, match_id);
    RecountTalliesOfMatch(txn, match_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<RecordOutcome> PgStore::RecordResult(const MatchResult& result,
                                                    int64_t now_micros,
                                                    const RateResultFn& rate) {
  RETURN_IF_ERROR(ValidateHex64(result.log_hash, "the log hash"));
  if (result.worker.empty()) {
    return absl::InvalidArgumentError("a result names its worker");
  }
  if (!rate) {
    return absl::InvalidArgumentError("RecordResult needs a rating update");
  }
  absl::MutexLock lock(&mu_);
  // A duplicate returns a status from the transaction so that nothing is
  // committed, and is told apart by this flag.
  bool duplicate = false;
  absl::Status status = db_->Transact("recording a result", [&](
                                          PgTransaction& txn) -> absl::Status {
    duplicate = false;
    // The match's row first: results of one match take turns, so the first
    // log counts and every later one sees it.
    ASSIGN_OR_RETURN(std::optional<Match> match,
                     ReadMatch(txn, result.match_id, " FOR NO KEY UPDATE"));
    const pqxx::result known = txn.Exec(
        "SELECT match_id FROM results WHERE log_hash = $1", result.log_hash);
    if (!known.empty()) {
      if (PgInt(known[0][0]) != result.match_id) {
        return absl::InvalidArgumentError(absl::StrCat(
            "log ", result.log_hash, " is recorded for match ",
            PgInt(known[0][0]), ", not match ", result.match_id));
      }
      duplicate = true;
      return absl::CancelledError("the log is recorded already");
    }
    if (!match.has_value()) {
      return absl::NotFoundError(absl::StrCat("no match ", result.match_id));
    }
    if (match->state == MatchState::kVoided) {
      return absl::FailedPreconditionError(
          absl::StrCat("match ", match->id, " was voided (", match->reason,
                       "); its result is not counted"));
    }
    if (match->state == MatchState::kFinished) {
      const pqxx::result other = txn.Exec(
          "SELECT log_hash FROM results WHERE match_id = $1", match->id);
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", match->id, " already has a result (log ",
          other.empty() ? "?" : PgText(other[0][0]), "); log ",
          result.log_hash, " is not counted"));
    }
    ASSIGN_OR_RETURN(LadderConfig config, ReadConfig(txn, db_->name()));
    const LadderGame* game = FindGame(config, match->game_id);
    if (game == nullptr) {
      return absl::InternalError(
          absl::StrCat("match ", match->id, " has no game ", match->game_id));
    }
    RETURN_IF_ERROR(ValidateResult(*game, *match, result));

    txn.Exec(
        "INSERT INTO results (log_hash, match_id, worker, recorded_micros) "
        "VALUES ($1, $2, $3, $4)",
        result.log_hash, result.match_id, result.worker, now_micros);
    for (const SeatResult& seat : result.seats) {
      txn.Exec(
          "INSERT INTO result_seats (log_hash, seat, version_id, finish_rank, "
          "score) VALUES ($1, $2, $3, $4, $5)",
          result.log_hash, seat.seat, seat.version_id, seat.rank, seat.score);
    }
    txn.Exec(
        "UPDATE matches SET state = 'finished', claim_owner = '', "
        "lease_expiry_micros = 0, finished_micros = $1 WHERE id = $2",
        now_micros, result.match_id);
    if (match->kind != MatchKind::kRated) return absl::OkStatus();

    // The seats' versions are rated by one result at a time, until it
    // commits: the ratings read here are the latest, and nobody reads them
    // half-written. Results of other versions are rated meanwhile. Locks
    // are taken in id order, so two results never wait for each other.
    std::set<int64_t> seated;
    for (const SeatResult& seat : result.seats) seated.insert(seat.version_id);
    for (int64_t version_id : seated) {
      txn.Exec("SELECT pg_advisory_xact_lock($1, $2::integer)",
               kPgRatingLockSpace, version_id);
    }
    std::vector<Rating> before;
    for (const SeatResult& seat : result.seats) {
      before.push_back(ReadRating(txn, config, seat.version_id, game->id));
    }
    ASSIGN_OR_RETURN(std::vector<Rating> after,
                     rate(config, *game, result, before));
    if (after.size() != before.size()) {
      return absl::InternalError(absl::StrCat(
          "the rating update returned ", after.size(), " ratings for ",
          before.size(), " seats"));
    }
    for (size_t i = 0; i < after.size(); ++i) {
      if (!std::isfinite(after[i].mu) || !std::isfinite(after[i].sigma) ||
          !(after[i].sigma > 0)) {
        return absl::InternalError(absl::StrCat(
            "the rating update gave version ", before[i].version_id,
            " mu=", after[i].mu, " sigma=", after[i].sigma));
      }
      txn.Exec(
          "INSERT INTO ratings (version_id, game_id, mu, sigma, games, "
          "updated_micros) VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT "
          "(version_id, game_id) DO UPDATE SET mu = $3, sigma = $4, games = "
          "ratings.games + 1, updated_micros = $5",
          before[i].version_id, game->id, after[i].mu, after[i].sigma,
          now_micros);
      txn.Exec(
          "INSERT INTO rating_history (log_hash, version_id, game_id, "
          "mu_before, sigma_before, mu_after, sigma_after) VALUES ($1, $2, "
          "$3, $4, $5, $6, $7)",
          result.log_hash, before[i].version_id, game->id, before[i].mu,
          before[i].sigma, after[i].mu, after[i].sigma);
    }
    return absl::OkStatus();
  });
  if (duplicate) return RecordOutcome::kDuplicate;
  if (!status.ok()) return status;
  return RecordOutcome::kRecorded;
}

absl::StatusOr<std::optional<MatchResult>> PgStore::GetResult(
    absl::string_view log_hash) {
  absl::MutexLock lock(&mu_);
  std::optional<MatchResult> result;
  RETURN_IF_ERROR(db_->Transact("reading a result", [&](PgTransaction& txn) {
    result.reset();
    const pqxx::result found = txn.Exec(
        "SELECT match_id, worker FROM results WHERE log_hash = $1", log_hash);
    if (found.empty()) return absl::OkStatus();
    result.emplace();
    result->match_id = PgInt(found[0][0]);
    result->worker = PgText(found[0][1]);
    result->log_hash = std::string(log_hash);
    for (const pqxx::row& row : txn.Exec(
             "SELECT seat, version_id, finish_rank, score FROM result_seats "
             "WHERE log_hash = $1 ORDER BY seat",
             log_hash)) {
      result->seats.push_back({static_cast<int>(PgInt(row[0])), PgInt(row[1]),
                               static_cast<int>(PgInt(row[2])),
                               PgDouble(row[3])});
    }
    return absl::OkStatus();
  }));
  return result;
}

absl::StatusOr<std::optional<MatchResult>> PgStore::ResultOfMatch(
    int64_t match_id) {
  std::string log_hash;
  {
    absl::MutexLock lock(&mu_);
    RETURN_IF_ERROR(db_->Transact("finding a match's result", [&](
                                      PgTransaction& txn) {
      const pqxx::result found = txn.Exec(
          "SELECT log_hash FROM results WHERE match_id = $1", match_id);
      log_hash = found.empty() ? "" : PgText(found[0][0]);
      return absl::OkStatus();
    }));
  }
  if (log_hash.empty()) return std::nullopt;
  return GetResult(log_hash);
}

absl::StatusOr<std::vector<MatchResult>> PgStore::ListResults(
    int64_t game_id, std::optional<MatchKind> kind) {
  absl::MutexLock lock(&mu_);
  std::vector<MatchResult> results;
  RETURN_IF_ERROR(db_->Transact("listing results", [&](PgTransaction& txn) {
    results.clear();
    // One pass over the seats of every result, joined in result order.
    for (const pqxx::row& row : txn.Exec(
             "SELECT r.log_hash, r.match_id, r.worker, s.seat, s.version_id, "
             "s.finish_rank, s.score FROM results r JOIN matches m ON m.id = "
             "r.match_id JOIN result_seats s ON s.log_hash = r.log_hash WHERE "
             "m.game_id = $1 AND ($2::text = '' OR m.kind = $2::text) ORDER "
             "BY r.recorded_micros, r.match_id, s.seat",
             game_id,
             kind.has_value() ? MatchKindName(*kind) : absl::string_view())) {
      std::string log_hash = PgText(row[0]);
      if (results.empty() || results.back().log_hash != log_hash) {
        MatchResult result;
        result.log_hash = std::move(log_hash);
        result.match_id = PgInt(row[1]);
        result.worker = PgText(row[2]);
        results.push_back(std::move(result));
      }
      results.back().seats.push_back(
          {static_cast<int>(PgInt(row[3])), PgInt(row[4]),
           static_cast<int>(PgInt(row[5])), PgDouble(row[6])});
    }
    return absl::OkStatus();
  }));
  return results;
}

absl::StatusOr<std::vector<Rating>> PgStore::Ratings(int64_t game_id) {
  absl::MutexLock lock(&mu_);
  std::vector<Rating> ratings;
  RETURN_IF_ERROR(db_->Transact("reading ratings", [&](PgTransaction& txn) {
    ratings.clear();
    for (const pqxx::row& row :
         txn.Exec("SELECT version_id, mu, sigma, games FROM ratings WHERE "
                  "game_id = $1 ORDER BY version_id",
                  game_id)) {
      ratings.push_back({PgInt(row[0]), game_id, PgDouble(row[1]),
                         PgDouble(row[2]), PgInt(row[3])});
    }
    return absl::OkStatus();
  }));
  return ratings;
}

absl::StatusOr<std::vector<RatingChange>> PgStore::RatingHistory(
    int64_t version_id, int64_t game_id) {
  absl::MutexLock lock(&mu_);
  std::vector<RatingChange> changes;
  RETURN_IF_ERROR(
      db_->Transact("reading rating history", [&](PgTransaction& txn) {
        changes.clear();
        for (const pqxx::row& row : txn.Exec(
                 "SELECT h.log_hash, h.mu_before, h.sigma_before, h.mu_after, "
                 "h.sigma_after FROM rating_history h JOIN results r ON "
                 "r.log_hash = h.log_hash WHERE h.version_id = $1 AND "
                 "h.game_id = $2 ORDER BY r.recorded_micros, r.match_id",
                 version_id, game_id)) {
          changes.push_back({PgText(row[0]), version_id, game_id,
                             PgDouble(row[1]), PgDouble(row[2]),
                             PgDouble(row[3]), PgDouble(row[4])});
        }
        return absl::OkStatus();
      }));
  return changes;
}

absl::StatusOr<std::vector<MatchmakingEntry>> PgStore::MatchmakingState(
    int64_t game_id) {
  absl::MutexLock lock(&mu_);
  std::vector<MatchmakingEntry> entries;
  RETURN_IF_ERROR(db_->Transact("reading the matchmaking state", [&](
                                    PgTransaction& txn) -> absl::Status {
    entries.clear();
    ASSIGN_OR_RETURN(LadderConfig config, ReadConfig(txn, db_->name()));
    const LadderGame* game = FindGame(config, game_id);
    if (game == nullptr) {
      return absl::NotFoundError(absl::StrCat("no ladder game ", game_id));
    }
    ASSIGN_OR_RETURN(
        std::vector<Version> ranked,
        ReadVersions(txn, VersionStatus::kRanked, /*entrant_id=*/0));
    // SqliteStore asks two questions per version; over a network that is
    // two round trips each, so here each question is asked of every ranked
    // version at once.
    std::map<int64_t, Rating> ratings;
    for (const pqxx::row& row :
         txn.Exec("SELECT version_id, mu, sigma, games FROM ratings WHERE "
                  "game_id = $1",
                  game_id)) {
      ratings[PgInt(row[0])] = {PgInt(row[0]), game_id, PgDouble(row[1]),
                                PgDouble(row[2]), PgInt(row[3])};
    }
    std::map<int64_t, MatchmakingEntry> by_version;
    std::map<int64_t, int64_t> last_round;  // of versions seated in the game
    for (const Version& version : ranked) {
      MatchmakingEntry& entry = by_version[version.id];
      entry.version_id = version.id;
      entry.entrant_id = version.entrant_id;
      auto rating = ratings.find(version.id);
      entry.mu = rating != ratings.end() ? rating->second.mu
                                         : config.rating.mu;
      entry.sigma = rating != ratings.end() ? rating->second.sigma
                                            : config.rating.sigma;
      entry.seat_counts.assign(game->players, 0);
    }
    for (const pqxx::row& row :
         txn.Exec("SELECT version_id, seat, matches, last_round FROM "
                  "seat_tallies WHERE game_id = $1",
                  game_id)) {
      auto it = by_version.find(PgInt(row[0]));
      if (it == by_version.end()) continue;  // not ranked
      const int64_t seat = PgInt(row[1]);
      const int64_t count = PgInt(row[2]);
      if (seat >= 0 && seat < game->players) it->second.seat_counts[seat] = count;
      it->second.games += count;
      auto [last, inserted] = last_round.emplace(it->first, PgInt(row[3]));
      if (!inserted) last->second = std::max(last->second, PgInt(row[3]));
    }
    // The rounds since each seated version's last one, from one ordered
    // list of the rounds since the earliest of them; a version never
    // seated in the game has waited the rounds scheduled since it was
    // ranked.
    std::vector<int64_t> rounds;
    if (!last_round.empty()) {
      int64_t earliest = last_round.begin()->second;
      for (const auto& [id, round] : last_round) {
        earliest = std::min(earliest, round);
      }
      for (const pqxx::row& row : txn.Exec(
               "SELECT DISTINCT round FROM matches WHERE game_id = $1 AND "
               "round > $2 AND kind = 'rated' AND state <> 'voided' ORDER BY "
               "round",
               game_id, earliest)) {
        rounds.push_back(PgInt(row[0]));
      }
    }
    for (const Version& version : ranked) {
      MatchmakingEntry& entry = by_version[version.id];
      auto last = last_round.find(version.id);
      if (last != last_round.end()) {
        entry.rounds_waited =
            rounds.end() -
            std::upper_bound(rounds.begin(), rounds.end(), last->second);
        continue;
      }
      entry.rounds_waited = PgInt(
          txn.Exec("SELECT COUNT(DISTINCT round) FROM matches WHERE game_id "
                   "= $1 AND scheduled_micros >= $2 AND kind = 'rated' AND "
                   "state <> 'voided'",
                   game_id, version.status_micros)[0][0]);
    }
    for (auto& [id, entry] : by_version) entries.push_back(std::move(entry));
    return absl::OkStatus();
  }));
  return entries;
}

absl::StatusOr<int64_t> PgStore::NextRound(int64_t game_id) {
  absl::MutexLock lock(&mu_);
  int64_t round = 0;
  RETURN_IF_ERROR(db_->Transact("reading the next round", [&](
                                    PgTransaction& txn) {
    round = PgInt(txn.Exec("SELECT COALESCE(MAX(round), 0) + 1 FROM matches "
                           "WHERE game_id = $1",
                           game_id)[0][0]);
    return absl::OkStatus();
  }));
  return round;
}

absl::Status PgStore::RunExclusively(
    const std::function<absl::Status()>& body) {
  absl::MutexLock turn(&exclusive_mu_);
  // Polled, not waited for, so that this store's other callers are not
  // held up while another worker has the turn.
  for (int tries = 0;; ++tries) {
    bool taken = false;
    {
      absl::MutexLock lock(&mu_);
      RETURN_IF_ERROR(db_->Session("taking the exclusive turn", [&](
                                       PgTransaction& session) {
        taken = PgText(session.Exec("SELECT pg_try_advisory_lock($1, $2)",
                                    kPgLockSpace,
                                    kPgExclusiveLock)[0][0]) == "t";
        return absl::OkStatus();
      }));
    }
    if (taken) break;
    absl::SleepFor(absl::Milliseconds(std::min(5 + tries, 50)));
  }
  absl::Status status = body();
  bool held = false;
  absl::MutexLock lock(&mu_);
  RETURN_IF_ERROR(db_->Session("ending the exclusive turn", [&](
                                   PgTransaction& session) {
    held = PgText(session.Exec("SELECT pg_advisory_unlock($1, $2)",
                               kPgLockSpace, kPgExclusiveLock)[0][0]) == "t";
    return absl::OkStatus();
  }));
  if (!held && status.ok()) {
    return absl::AbortedError(absl::StrCat(
        "the connection to ", db_->name(),
        " was lost during an exclusive turn: another worker may have "
        "scheduled at the same time"));
  }
  return status;
}

}  // namespace cardref::ladder
