// ladder_store_benchmark: what the store costs per recorded match
// (BENCHMARKS.md, "Ladder store"), on SQLite and on PostgreSQL, with 1 to K
// workers recording at once. Not a test and not in CI.
//
// Each worker has its own connection and, for every match, makes the calls
// a real worker makes: ClaimNext, one RenewLease, RecordResult (rated, with
// the Plackett-Luce update inside the transaction). The matches are
// scheduled beforehand in deal sets of 6 (ScheduleMatches, timed apart).
// Durable settings: SQLite synchronous=FULL, PostgreSQL fsync and
// synchronous_commit on, unless --durable=false.
//
// Columns: wall seconds and matches/s of the run; ms/match = wall time per
// match per worker; the 50th/90th/99th percentile of each call in ms;
// sched_ms per ScheduleMatches of a deal set; mm_ms for one
// MatchmakingState + NextRound at the end; cpu_cl and cpu_srv: CPU ms per
// match of this process (the workers' calls: SQLite's whole cost) and of
// the PostgreSQL server's backends (a server this binary started).
//
//   ladder_store_benchmark [--backends=sqlite,postgres] [--workers=1,2,4]
//       [--matches=1000] [--postgres_url=postgresql://...] [--dir=/tmp]
//
// Without --postgres_url it starts a throwaway server (Debian's
// postgresql-15 binaries, as nobody when run as root) on a Unix socket.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/open_store.h"
#include "ladder/store/pg_db.h"
#include "ladder/store/testing/postgres_server.h"
#include "referee/base/status_macros.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, backends, "sqlite,postgres",
          "stores to measure: sqlite, postgres");
ABSL_FLAG(std::string, workers, "1,2,4", "worker counts, one run each");
ABSL_FLAG(int32_t, matches, 1000, "matches recorded per run");
ABSL_FLAG(std::string, postgres_url, "",
          "an existing, empty PostgreSQL database (each run creates a "
          "schema in it); empty: start a throwaway server");
ABSL_FLAG(std::string, dir, "",
          "folder of the SQLite files (default: $TMPDIR or /tmp)");
ABSL_FLAG(bool, durable, true,
          "commits on disk before they return (SQLite synchronous=FULL, "
          "PostgreSQL fsync and synchronous_commit on)");

namespace cardref::ladder {
namespace {

constexpr char kUsage[] =
    "Measures the ladder store's cost per recorded match (BENCHMARKS.md).\n"
    "Usage: ladder_store_benchmark [--backends=sqlite,postgres] "
    "[--workers=1,2,4]\n"
    "         [--matches=N] [--postgres_url=URL] [--dir=DIR] "
    "[--durable=true]\n";

constexpr int kEntrants = 12;
constexpr int kDealSet = 6;  // the seatings of one 3-player deal set

int64_t NowMicros() { return absl::ToUnixMicros(absl::Now()); }

struct Timings {
  std::vector<double> claim, renew, record;  // milliseconds per call
};

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t index = std::min(
      values.size() - 1, static_cast<size_t>(p * static_cast<double>(values.size())));
  return values[index];
}

// CPU seconds of this process (every thread).
double OwnCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) /
             1e6;
}

// CPU seconds of process `pid` and of its children it has reaped: for the
// postmaster, every backend whose connection has ended. 0 if unknown.
double ServerCpuSeconds(pid_t pid) {
  if (pid <= 0) return 0;
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t end = text.rfind(')');  // the name may hold spaces
  if (end == std::string::npos) return 0;
  std::istringstream fields(text.substr(end + 2));
  std::vector<std::string> values;
  for (std::string v; fields >> v;) values.push_back(v);
  // After the name: state is field 3, utime..cstime are fields 14..17.
  if (values.size() < 15) return 0;
  double ticks = 0;
  for (int i = 11; i <= 14; ++i) ticks += std::stod(values[i]);
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double Millis(absl::Time start) {
  return absl::ToDoubleMilliseconds(absl::Now() - start);
}

// A ladder of kEntrants ranked versions with `matches` matches of a three-
// player game scheduled; returns the milliseconds per ScheduleMatches call.
absl::StatusOr<double> Prepare(const std::string& db, int matches,
                               const OpenStoreOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store, OpenStore(db, options));
  LadderConfig config;
  config.name = "benchmark";
  config.games.push_back({0, "g", 3, {}, ""});
  RETURN_IF_ERROR(store->Initialize(config, NowMicros()));
  std::vector<int64_t> versions;
  for (int i = 0; i < kEntrants; ++i) {
    const std::string name = absl::StrCat("bot", i);
    RETURN_IF_ERROR(store->AddEntrant(name, NowMicros()).status());
    ASSIGN_OR_RETURN(Version v, store->AddVersion(name, "bot", "h", 1));
    RETURN_IF_ERROR(
        store->SetVersionStatus(v.id, VersionStatus::kRanked, "", 1));
    versions.push_back(v.id);
  }
  double schedule_ms = 0;
  int calls = 0;
  for (int m = 0; m < matches; m += kDealSet, ++calls) {
    std::vector<NewMatch> deal_set;
    const int group = m / kDealSet;
    // Three distinct versions, a different trio from group to group.
    const int64_t a = versions[group % kEntrants];
    const int64_t b = versions[(group + 1 + (group / kEntrants) % 4) % kEntrants];
    const int64_t c = versions[(group + 6) % kEntrants];
    const std::vector<std::vector<int64_t>> seatings = {
        {a, b, c}, {a, c, b}, {b, a, c}, {b, c, a}, {c, a, b}, {c, b, a}};
    for (int s = 0; s < kDealSet && m + s < matches; ++s) {
      NewMatch match;
      match.game_id = 1;
      match.round = group + 1;
      match.deal_set = absl::StrCat("g3-r", group + 1);
      match.seed = absl::StrFormat("%064x", group + 1);
      match.seat_versions = seatings[s];
      deal_set.push_back(std::move(match));
    }
    const absl::Time start = absl::Now();
    RETURN_IF_ERROR(store->ScheduleMatches(deal_set, NowMicros()).status());
    schedule_ms += Millis(start);
  }
  return schedule_ms / std::max(calls, 1);
}

struct RunResult {
  double seconds = 0;
  int recorded = 0;
  Timings timings;
  double schedule_ms = 0;
  double matchmaking_ms = 0;
  double client_cpu_s = 0;  // the workers' calls, this process
  double server_cpu_s = 0;  // the PostgreSQL server's backends
};

absl::StatusOr<RunResult> RunOnce(const std::string& db, int workers,
                                  int matches, const OpenStoreOptions& options,
                                  pid_t server) {
  RunResult run;
  ASSIGN_OR_RETURN(run.schedule_ms, Prepare(db, matches, options));
  // The backends of the preparation's connections are reaped first.
  absl::SleepFor(absl::Milliseconds(300));
  const double client_before = OwnCpuSeconds();
  const double server_before = ServerCpuSeconds(server);
  std::vector<Timings> timings(workers);
  std::vector<absl::Status> errors(workers);
  std::atomic<int> recorded{0};
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  threads.reserve(workers);
  absl::Time start;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      absl::StatusOr<std::unique_ptr<LadderStore>> store =
          OpenStore(db, options);
      ready.fetch_add(1);
      while (ready.load() < workers) std::this_thread::yield();
      if (!store.ok()) {
        errors[w] = store.status();
        return;
      }
      const std::string owner = absl::StrCat("bench:", w);
      while (true) {
        absl::Time t = absl::Now();
        auto match = (*store)->ClaimNext({owner, NowMicros(), 60'000'000, 3});
        timings[w].claim.push_back(Millis(t));
        if (!match.ok()) {
          errors[w] = match.status();
          return;
        }
        if (!match->has_value()) return;
        t = absl::Now();
        absl::Status renewed =
            (*store)->RenewLease((*match)->id, owner, NowMicros(), 60'000'000);
        timings[w].renew.push_back(Millis(t));
        if (!renewed.ok()) {
          errors[w] = renewed;
          return;
        }
        MatchResult result;
        result.match_id = (*match)->id;
        result.log_hash = absl::StrFormat("%064x", 1'000'000 + (*match)->id);
        result.worker = owner;
        for (size_t s = 0; s < (*match)->seat_versions.size(); ++s) {
          result.seats.push_back(
              {static_cast<int>(s), (*match)->seat_versions[s],
               static_cast<int>((s + static_cast<size_t>((*match)->id)) % 3) +
                   1,
               static_cast<double>(s)});
        }
        t = absl::Now();
        auto outcome =
            (*store)->RecordResult(result, NowMicros(), RatePlackettLuce);
        timings[w].record.push_back(Millis(t));
        if (!outcome.ok()) {
          errors[w] = outcome.status();
          return;
        }
        recorded.fetch_add(1);
      }
    });
  }
  while (ready.load() < workers) std::this_thread::yield();
  start = absl::Now();
  for (std::thread& thread : threads) thread.join();
  run.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  run.client_cpu_s = OwnCpuSeconds() - client_before;
  absl::SleepFor(absl::Milliseconds(300));  // the workers' backends end
  run.server_cpu_s = ServerCpuSeconds(server) - server_before;
  for (const absl::Status& error : errors) RETURN_IF_ERROR(error);
  run.recorded = recorded.load();
  for (const Timings& t : timings) {
    run.timings.claim.insert(run.timings.claim.end(), t.claim.begin(),
                             t.claim.end());
    run.timings.renew.insert(run.timings.renew.end(), t.renew.begin(),
                             t.renew.end());
    run.timings.record.insert(run.timings.record.end(), t.record.begin(),
                              t.record.end());
  }
  // What a scheduler reads before each round, at the run's final size.
  ASSIGN_OR_RETURN(std::unique_ptr<LadderStore> store, OpenStore(db, options));
  const absl::Time t = absl::Now();
  RETURN_IF_ERROR(store->MatchmakingState(1).status());
  RETURN_IF_ERROR(store->NextRound(1).status());
  run.matchmaking_ms = Millis(t);
  return run;
}

int Main(int argc, char** argv) {
  ::cardref::cli::ParseFlagsWithoutArgsOrExit(argc, argv,
                                              "ladder_store_benchmark", kUsage);
  const int matches = absl::GetFlag(FLAGS_matches);
  std::vector<int> worker_counts;
  for (absl::string_view w : absl::StrSplit(absl::GetFlag(FLAGS_workers), ',',
                                            absl::SkipEmpty())) {
    int n = 0;
    if (!absl::SimpleAtoi(w, &n) || n < 1) {
      std::cerr << "--workers: '" << w << "' is not a positive count\n";
      return 2;
    }
    worker_counts.push_back(n);
  }
  OpenStoreOptions options;
  options.sync_every_commit = absl::GetFlag(FLAGS_durable);
  std::string dir = absl::GetFlag(FLAGS_dir);
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }

  std::unique_ptr<testing::PostgresServer> server;
  std::string postgres_url = absl::GetFlag(FLAGS_postgres_url);
  int run_number = 0;
  std::cout << absl::StrFormat(
      "%-9s %7s %7s %8s %9s %10s %7s %7s %7s %7s %7s %7s %9s %9s %8s %8s\n",
      "store", "workers", "matches", "wall_s", "matches/s", "ms/match",
      "claim50", "claim90", "renew50", "rec50", "rec90", "rec99",
      "sched_ms", "mm_ms", "cpu_cl", "cpu_srv");
  for (absl::string_view backend :
       absl::StrSplit(absl::GetFlag(FLAGS_backends), ',', absl::SkipEmpty())) {
    for (int workers : worker_counts) {
      std::string db;
      if (backend == "sqlite") {
        db = absl::StrCat(dir, "/ladder_store_benchmark_", getpid(), "_",
                          ++run_number, ".db");
      } else if (backend == "postgres") {
        if (postgres_url.empty()) {
          testing::PostgresServerOptions server_options;
          server_options.durable = absl::GetFlag(FLAGS_durable);
          absl::StatusOr<std::unique_ptr<testing::PostgresServer>> started =
              testing::PostgresServer::Start(server_options);
          if (!started.ok()) {
            std::cerr << "postgres: " << started.status() << "\n";
            return 1;
          }
          server = *std::move(started);
          absl::StatusOr<std::string> url = server->CreateDatabase("bench");
          if (!url.ok()) {
            std::cerr << "postgres: " << url.status() << "\n";
            return 1;
          }
          postgres_url = *url;
        }
        // A schema per run (pg_store.h: one database, several ladders).
        const std::string schema =
            absl::StrCat("bench_", getpid(), "_", ++run_number);
        absl::StatusOr<std::unique_ptr<PgConnection>> conn =
            PgConnection::Open(postgres_url, {});
        absl::Status created =
            conn.ok() ? (*conn)->Session("creating a schema",
                                         [&](PgTransaction& session) {
                                           session.ExecScript(absl::StrCat(
                                               "CREATE SCHEMA ", schema));
                                           return absl::OkStatus();
                                         })
                      : conn.status();
        if (!created.ok()) {
          std::cerr << "postgres: " << created << "\n";
          return 1;
        }
        db = absl::StrCat(postgres_url,
                          postgres_url.find('?') == std::string::npos ? "?"
                                                                      : "&",
                          "options=-csearch_path%3D", schema);
      } else {
        std::cerr << "--backends: unknown store '" << backend << "'\n";
        return 2;
      }
      absl::StatusOr<RunResult> run =
          RunOnce(db, workers, matches, options,
                  backend == "postgres" && server != nullptr ? server->pid()
                                                             : 0);
      if (backend == "sqlite") {
        for (const char* suffix : {"", "-wal", "-shm", "-exclusive"}) {
          std::filesystem::remove(db + suffix);
        }
      }
      if (!run.ok()) {
        std::cerr << backend << " with " << workers
                  << " workers: " << run.status() << "\n";
        return 1;
      }
      std::cout << absl::StrFormat(
          "%-9s %7d %7d %8.2f %9.1f %10.2f %7.2f %7.2f %7.2f %7.2f %7.2f "
          "%7.2f %9.2f %9.2f %8.2f %8.2f\n",
          backend, workers, run->recorded, run->seconds,
          run->recorded / run->seconds,
          1000.0 * run->seconds * workers / std::max(run->recorded, 1),
          Percentile(run->timings.claim, 0.5),
          Percentile(run->timings.claim, 0.9),
          Percentile(run->timings.renew, 0.5),
          Percentile(run->timings.record, 0.5),
          Percentile(run->timings.record, 0.9),
          Percentile(run->timings.record, 0.99), run->schedule_ms,
          run->matchmaking_ms,
          1000.0 * run->client_cpu_s / std::max(run->recorded, 1),
          1000.0 * run->server_cpu_s / std::max(run->recorded, 1));
      std::cout.flush();
    }
  }
  return 0;
}

}  // namespace
}  // namespace cardref::ladder

int main(int argc, char** argv) { return cardref::ladder::Main(argc, argv); }
