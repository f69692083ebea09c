// The ladder's scale figures (BENCHMARKS.md, "Ladder"): on a synthetic store
// of E ranked entrants and G recorded three-player games, the time of a
// standings query (`cardref_ladder standings --format=json`), of a
// matchmaking decision (ScheduleNextRound: the store's matchmaking state,
// the matchmaker, the round scheduled) and of the matchmaker alone, and the
// cost of a rating update per game (the model alone, and recorded through
// the store with and without a disk sync per commit).
//
//   ladder_benchmark [DB [ENTRANTS [GAMES]]]
//
// DB (default /tmp/ladder_benchmark.db) is built on the first run (about a
// minute for the default 1,000 entrants and 1,000,000 games) and reused.
// Not a test: run it by hand, alone on the machine.
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ladder/matchmaking/matchmaker.h"
#include "ladder/matchmaking/schedule_round.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/tools/ladder_cli.h"
#include "referee/base/rng.h"

namespace cardref::ladder {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

class NullBuffer : public std::streambuf {
 protected:
  int overflow(int c) override { return c; }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

void Check(const absl::Status& status, const char* what) {
  if (!status.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, status.ToString().c_str());
    std::exit(1);
  }
}

void Exec(sqlite3* db, const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    std::fprintf(stderr, "%s: %s\n", sql, error);
    std::exit(1);
  }
}

sqlite3_stmt* Prepare(sqlite3* db, const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    std::fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
    std::exit(1);
  }
  return stmt;
}

void Step(sqlite3* db, sqlite3_stmt* stmt) {
  if (sqlite3_step(stmt) != SQLITE_DONE) {
    std::fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db));
    std::exit(1);
  }
  sqlite3_reset(stmt);
}

std::string Hash(uint64_t n) { return absl::StrFormat("%064x", n); }

// Entrants and versions through the store; the games' rows in bulk, as the
// store would have written them (finished rated matches with results,
// ratings and their history).
void Build(const std::string& path, int entrants, int64_t games) {
  const auto start = Clock::now();
  SqliteStoreOptions options;
  options.open.sync_every_commit = false;
  {
    auto store = SqliteStore::Open(path, options);
    Check(store.status(), "open");
    LadderConfig config;
    config.name = "benchmark";
    config.games.push_back({0, "g", 3, {}, ""});
    Check((*store)->Initialize(config, 1), "init");
    for (int e = 0; e < entrants; ++e) {
      const std::string name = absl::StrCat("e", e);
      Check((*store)->AddEntrant(name, 1).status(), "entrant");
      auto v = (*store)->AddVersion(name, "bot", name, 1);
      Check(v.status(), "version");
      Check((*store)->SetVersionStatus(v->id, VersionStatus::kRanked, "", 1),
            "rank");
    }
  }
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) std::exit(1);
  Exec(db, "PRAGMA synchronous=OFF");
  Exec(db, "BEGIN");
  sqlite3_stmt* match = Prepare(
      db, "INSERT INTO matches VALUES (?1, 1, 'rated', ?1, ?2, ?3, "
          "'finished', '', 0, 1, '', ?1, ?1)");
  sqlite3_stmt* seat = Prepare(db, "INSERT INTO match_seats VALUES (?1, ?2, ?3)");
  sqlite3_stmt* result =
      Prepare(db, "INSERT INTO results VALUES (?1, ?2, 'w', ?2)");
  sqlite3_stmt* result_seat =
      Prepare(db, "INSERT INTO result_seats VALUES (?1, ?2, ?3, ?4, 0)");
  sqlite3_stmt* history = Prepare(
      db, "INSERT INTO rating_history VALUES (?1, ?2, 1, 25, 8, 25, 8)");
  Rng rng(1);
  std::vector<int64_t> played(entrants + 1, 0);
  const std::string seed = Hash(7);
  for (int64_t id = 1; id <= games; ++id) {
    const std::string deal_set = absl::StrCat("g3-r", id);
    const std::string log = Hash(static_cast<uint64_t>(id));
    sqlite3_bind_int64(match, 1, id);
    sqlite3_bind_text(match, 2, deal_set.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(match, 3, seed.c_str(), -1, SQLITE_STATIC);
    Step(db, match);
    sqlite3_bind_text(result, 1, log.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(result, 2, id);
    Step(db, result);
    std::vector<int64_t> group;
    while (group.size() < 3) {
      const int64_t v = 1 + rng.Uniform(static_cast<uint32_t>(entrants));
      if (std::find(group.begin(), group.end(), v) == group.end()) {
        group.push_back(v);
      }
    }
    for (int s = 0; s < 3; ++s) {
      ++played[group[s]];
      sqlite3_bind_int64(seat, 1, id);
      sqlite3_bind_int(seat, 2, s);
      sqlite3_bind_int64(seat, 3, group[s]);
      Step(db, seat);
      sqlite3_bind_text(result_seat, 1, log.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int(result_seat, 2, s);
      sqlite3_bind_int64(result_seat, 3, group[s]);
      sqlite3_bind_int(result_seat, 4, s + 1);
      Step(db, result_seat);
      sqlite3_bind_text(history, 1, log.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_int64(history, 2, group[s]);
      Step(db, history);
    }
  }
  sqlite3_stmt* rating = Prepare(
      db, "INSERT INTO ratings VALUES (?1, 1, ?2, ?3, ?4, 1)");
  for (int64_t v = 1; v <= entrants; ++v) {
    sqlite3_bind_int64(rating, 1, v);
    sqlite3_bind_double(rating, 2, 10 + rng.Uniform(3000) / 100.0);
    sqlite3_bind_double(rating, 3, 0.5 + rng.Uniform(100) / 100.0);
    sqlite3_bind_int64(rating, 4, played[v]);
    Step(db, rating);
  }
  for (sqlite3_stmt* s : {match, seat, result, result_seat, history, rating}) {
    sqlite3_finalize(s);
  }
  // The tallies the store keeps as it schedules, as migration 2 counts them.
  Exec(db,
       "INSERT INTO seat_tallies (version_id, game_id, seat, matches, "
       "last_round) SELECT s.version_id, m.game_id, s.seat, COUNT(*), "
       "MAX(m.round) FROM match_seats s JOIN matches m ON m.id = s.match_id "
       "WHERE m.kind = 'rated' AND m.state <> 'voided' GROUP BY "
       "s.version_id, m.game_id, s.seat");
  Exec(db, "COMMIT");
  sqlite3_close(db);
  std::fflush(stdout);
  std::printf("built %s: %d entrants, %lld games in %.1f s\n", path.c_str(),
              entrants, static_cast<long long>(games), Seconds(start));
}

template <typename F>
double Median(int runs, F&& f) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = Clock::now();
    f();
    times.push_back(Seconds(start));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int Main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as it is measured
  if (argc > 1 && std::string(argv[1]).rfind("--", 0) == 0) {
    std::printf("usage: ladder_benchmark [DB [ENTRANTS [GAMES]]]\n");
    return 0;
  }
  const std::string path = argc > 1 ? argv[1] : "/tmp/ladder_benchmark.db";
  const int entrants = argc > 2 ? std::atoi(argv[2]) : 1000;
  const int64_t games = argc > 3 ? std::atoll(argv[3]) : 1000000;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) Build(path, entrants, games);

  NullBuffer null;
  std::ostream sink(&null);
  const double standings = Median(5, [&] {
    Check(cli::Standings(path, "", "json", sink), "standings");
  });
  std::printf("standings query (json, %d entrants): %.1f ms\n", entrants,
              standings * 1e3);

  auto store = SqliteStore::Open(path);
  Check(store.status(), "open");
  MatchmakingOptions mm;
  mm.seats = 3;
  Matchmaker matchmaker(mm, 2);
  SeedSource seed = [] { return absl::StatusOr<std::string>(Hash(9)); };
  const double state = Median(3, [&] {
    Check((*store)->MatchmakingState(1).status(), "state");
  });
  std::printf("matchmaking state (store query, %lld games): %.1f ms\n",
              static_cast<long long>(games), state * 1e3);
  const double decision = Median(3, [&] {
    Check(ScheduleNextRound(**store, matchmaker, 1, 2, seed).status(),
          "round");
  });
  std::printf("matchmaking decision (ScheduleNextRound): %.1f ms\n",
              decision * 1e3);
  auto candidates_state = (*store)->MatchmakingState(1);
  Check(candidates_state.status(), "state");
  std::vector<Candidate> candidates;
  for (const MatchmakingEntry& e : *candidates_state) {
    Candidate c;
    c.id = e.version_id;
    c.mu = e.mu;
    c.sigma = e.sigma;
    c.games = e.games;
    c.rounds_waited = e.rounds_waited;
    c.seat_counts = e.seat_counts;
    candidates.push_back(std::move(c));
  }
  int64_t round = 0;
  const double pick = Median(5, [&] {
    for (int i = 0; i < 100; ++i) Check(matchmaker.Next(candidates, ++round).status(), "next");
  }) / 100;
  std::printf("matchmaker alone (%zu candidates): %.3f ms\n", candidates.size(),
              pick * 1e3);

  auto config = (*store)->GetConfig();
  Check(config.status(), "config");
  const LadderGame& game = config->games[0];
  MatchResult result;
  result.seats = {{0, 1, 1, 0}, {1, 2, 2, 0}, {2, 3, 3, 0}};
  std::vector<Rating> before = {{1, 1, 25, 8, 0}, {2, 1, 27, 7, 0},
                                {3, 1, 20, 6, 0}};
  const int updates = 100000;
  const double model = Median(3, [&] {
    for (int i = 0; i < updates; ++i) {
      Check(RatePlackettLuce(*config, game, result, before).status(), "rate");
    }
  }) / updates;
  std::printf("rating update, the model alone (3 players): %.2f us\n",
              model * 1e6);

  for (const bool sync : {true, false}) {
    SqliteStoreOptions options;
    options.open.sync_every_commit = sync;
    auto writer = SqliteStore::Open(path, options);
    Check(writer.status(), "open");
    std::vector<double> times;
    for (int i = 0; i < 200; ++i) {
      NewMatch m;
      m.game_id = 1;
      m.deal_set = absl::StrCat("bench-", sync, "-", i);
      m.seed = Hash(11);
      m.seat_versions = {1 + i % 7, 8 + i % 11, 20 + i % 13};
      auto id = (*writer)->ScheduleMatch(m, 3);
      Check(id.status(), "schedule");
      MatchResult r;
      r.match_id = *id;
      // Unique across runs on the same file: the match id is.
      r.log_hash = Hash((1ull << 40) + static_cast<uint64_t>(*id));
      r.worker = "bench";
      for (int s = 0; s < 3; ++s) {
        r.seats.push_back({s, m.seat_versions[s], s + 1, 0});
      }
      const auto start = Clock::now();
      Check((*writer)->RecordResult(r, 4, RatePlackettLuce).status(), "record");
      times.push_back(Seconds(start));
    }
    std::sort(times.begin(), times.end());
    std::printf("a result recorded and rated through the store (%s): median "
                "%.2f ms, p90 %.2f ms\n",
                sync ? "synchronous=FULL, the default" : "synchronous=NORMAL",
                times[times.size() / 2] * 1e3, times[times.size() * 9 / 10] * 1e3);
  }
  return 0;
}

}  // namespace
}  // namespace cardref::ladder

int main(int argc, char** argv) { return cardref::ladder::Main(argc, argv); }
