// cardref_load: the referee under load, next to a bare gRPC echo of the
// same RPCs (load/echo_service.h), so its overhead is a ratio.
//
// Runs --matches concurrent matches of built-in random players over
// loopback gRPC for --seconds against a referee (one it starts in a child
// process, or --server=HOST:PORT), then the same client pattern for as long
// against the echo service in a child process built the same way. Each
// player opens WatchObservations and, when it is to act, submits a uniform
// random legal action with the observation's version (--client=seat_streams:
// plays its seat on one PlaySeat stream instead, as the example bots do); a
// finished match is replaced by a new one. Reports decisions/s, the p50/p99
// latency of a decision (the SubmitAction round trip; on PlaySeat, from the
// action to the match's next observation), the server's CPU per decision
// (utime + stime of the server process, /proc/PID/stat; only for servers it
// started) and the timeouts charged (submissions refused with
// DEADLINE_EXCEEDED), with how many of them were false (the submission left
// before the deadline its observation told) and how many answers the
// players themselves sent late (players.h). With --attack it plays the
// referee a second time for as long while a hostile client attacks it
// (load/attacker.h), and reports the healthy matches' latency under
// attack against the first, unattacked, run. BENCHMARKS.md has figures.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"
#include "referee/grpc/server.h"
#include "referee/record/game_log.h"
#include "tools/cli_flags.h"
#include "load/attacker.h"
#include "load/echo_service.h"
#include "load/players.h"

ABSL_FLAG(int, matches, 16, "concurrent matches (>= 1)");
ABSL_FLAG(double, seconds, 5, "seconds of load against each server (> 0)");
ABSL_FLAG(std::string, game, "craits", "game id (default parameters)");
ABSL_FLAG(int64_t, decision_time_limit_ms, 1000,
          "per-decision time limit of the referee's matches (0: none)");
ABSL_FLAG(std::string, server, "",
          "HOST:PORT of a running referee; empty starts one (child process)");
ABSL_FLAG(std::string, organiser_token_file, "",
          "file holding the organiser token for --server (else "
          "$CARDREF_ORGANISER_TOKEN)");
ABSL_FLAG(std::string, format, "text", "text or json");
ABSL_FLAG(double, ramp_seconds, 0,
          "start the matches' first games spread over this many seconds of "
          "the run (0: all at once)");
ABSL_FLAG(std::string, client, "callbacks",
          "the players' client: callbacks (gRPC's callback API, no thread "
          "per seat), threads (a thread per seat, blocking calls) or "
          "seat_streams (a thread per seat playing on one PlaySeat stream, "
          "as the example bots do)");
ABSL_FLAG(int32_t, rounds, 1,
          "measure referee then echo this many times, interleaved, and "
          "report the median of each figure and of the per-round ratios "
          "(with their range): on a shared machine one pair is noise");
ABSL_FLAG(std::string, log_dir, "",
          "where the referee it starts writes its logs, kept afterwards (to "
          "measure a disk: a tmpfs shows the cost of the log write); empty: "
          "a temporary directory in $TMPDIR (else /tmp), removed at the end");
ABSL_FLAG(std::string, log_sync, "round",
          "when the referee it starts fdatasyncs its logs: event, round "
          "(cardref_referee's default) or end; to measure what syncing costs");
ABSL_FLAG(uint64_t, seed, 1, "seed of the players' picks");
ABSL_FLAG(int32_t, max_connection_idle_ms, -1,
          "the forked referee's idle-connection sweep (ms; 0 = off, -1 = the "
          "referee's default): to measure what the sweep costs");
ABSL_FLAG(bool, omit_observation, true,
          "players ask SubmitAction for no observation in its answer, as a "
          "streaming bot should (docs/bots.md); false: the full answer");
ABSL_FLAG(int32_t, held_matches, 0,
          "also measure a referee while it holds this many waiting matches "
          "(created first, never joined; on a second, fresh referee unless "
          "--server): their memory and descriptors, and the load's "
          "throughput beside them");
ABSL_FLAG(int32_t, answer_grace_s, 10,
          "how long past the run's end a call may wait for its answer "
          "before the server counts as hung (2 to 600 s)");
ABSL_FLAG(std::string, attack, "none",
          "none, rejections, async_rejections, streams or connections: "
          "also measure the "
          "referee while a hostile client attacks it (load/attacker.h)");

namespace cardref::load {
namespace {

constexpr char kUsage[] =
    "cardref_load: concurrent random matches against a referee and against a\n"
    "bare gRPC echo of the same RPCs; prints decisions/s, latency, server CPU\n"
    "per decision and timeouts of both, and their ratio.\n"
    "Usage: cardref_load [--matches=16] [--seconds=5] [--game=craits]\n"
    "                    [--decision_time_limit_ms=1000] [--format=json]\n"
    "                    [--attack=none|rejections|async_rejections|streams|"
    "connections]\n"
    "                    [--held_matches=N] [--omit_observation=false]\n"
    "                    [--log_dir=DIR] [--log_sync=event|round|end]\n"
    "                    [--rounds=N]\n"
    "                    [--client=callbacks|threads|seat_streams]\n"
    "                    [--ramp_seconds=S]\n"
    "                    [--server=HOST:PORT --organiser_token_file=FILE]\n";

// A server in a child process, forked before this process starts any
// thread: it prints its port on a pipe and runs until its stdin pipe closes.
struct Child {
  pid_t pid = -1;
  int port = 0;
  int control = -1;  // closing it stops the child
};

void ServeUntilClosed(int control, int port_pipe, bool echo,
                      const std::string& game, int64_t limit_ms,
                      int held_matches, const std::string& log_dir) {
  // As cardref_referee runs: Debian's Abseil checks every lock for deadlock
  // cycles otherwise (11% of the referee's instructions).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  std::unique_ptr<grpc::Server> echo_server;
  std::unique_ptr<EchoService> echo_service;
  std::unique_ptr<grpc_service::RefereeServer> referee;
  int port = 0;
  if (echo) {
    absl::StatusOr<std::unique_ptr<EchoService>> service =
        EchoService::Create(game, 7);
    if (!service.ok()) {
      std::cerr << "cardref_load: " << service.status().message() << "\n";
      _exit(1);
    }
    echo_service = std::move(*service);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("localhost:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(echo_service.get());
    echo_server = builder.BuildAndStart();
  } else {
    grpc_service::ServerOptions options;
    options.manager.log_dir = log_dir;
    // Checked in main before the fork.
    options.manager.log_sync =
        record::ParseSyncPolicy(absl::GetFlag(FLAGS_log_sync)).value();
    options.manager.default_decision_time_limit_millis = limit_ms;
    if (const int idle = absl::GetFlag(FLAGS_max_connection_idle_ms);
        idle >= 0) {
      options.manager.limits.max_connection_idle_ms = idle;
    }
    // Held matches wait, and waiting ones count against both caps.
    for (int* cap : {&options.manager.limits.max_waiting_matches,
                     &options.manager.limits.max_matches_in_progress}) {
      *cap = std::max(*cap, held_matches + 1000);
    }
    absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> started =
        grpc_service::RefereeServer::Start(options);
    if (!started.ok()) {
      std::cerr << "cardref_load: " << started.status().message() << "\n";
      _exit(1);
    }
    referee = std::move(*started);
    port = referee->port();
  }
  const std::string line = absl::StrCat(port, "\n");
  if (write(port_pipe, line.data(), line.size()) < 0) _exit(1);
  close(port_pipe);
  char byte;
  while (read(control, &byte, 1) > 0) {
  }
  _exit(0);  // no orderly shutdown: the measurement is over
}

Child StartChild(bool echo, const std::string& game, int64_t limit_ms,
                 int held_matches = 0, const std::string& log_dir = "") {
  int control[2], port_pipe[2];
  if (pipe(control) != 0 || pipe(port_pipe) != 0) std::abort();
  Child child;
  child.pid = fork();
  if (child.pid == 0) {
    // Only its own pipes: an inherited end of another child's control pipe
    // would keep that child running.
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != control[0] && fd != port_pipe[1]) close(fd);
    }
    ServeUntilClosed(control[0], port_pipe[1], echo, game, limit_ms,
                     held_matches, log_dir);
  }
  close(control[0]);
  close(port_pipe[1]);
  child.control = control[1];
  char buf[32] = {};
  ssize_t n = read(port_pipe[0], buf, sizeof(buf) - 1);
  close(port_pipe[0]);
  child.port = n > 0 ? std::atoi(buf) : 0;
  return child;
}

void StopChild(Child& child) {
  if (child.pid <= 0) return;
  close(child.control);
  int status = 0;
  waitpid(child.pid, &status, 0);
  child.pid = -1;
}

// Removes a directory when it goes out of scope (empty: nothing).
struct TemporaryDir {
  std::string path;
  ~TemporaryDir() {
    if (path.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

// utime + stime of `pid` in seconds; -1 if it cannot be read.
double CpuSeconds(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  const size_t close_paren = text.rfind(')');
  if (close_paren == std::string::npos) return -1;
  std::istringstream fields(text.substr(close_paren + 2));
  std::string f;
  double utime = 0, stime = 0;
  // Fields 3.. after the name: state is field 3, utime 14, stime 15.
  for (int i = 3; i <= 15 && fields >> f; ++i) {
    if (i == 14) utime = std::stod(f);
    if (i == 15) stime = std::stod(f);
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

// Resident memory of `pid` in KiB (VmRSS); -1 if it cannot be read.
int64_t RssKib(pid_t pid) {
  std::ifstream in(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(in, line)) {
    if (absl::StartsWith(line, "VmRSS:")) {
      return std::atoll(line.c_str() + 6);
    }
  }
  return -1;
}

// Open descriptors of `pid`; -1 if they cannot be listed.
int64_t OpenFds(pid_t pid) {
  std::error_code error;
  int64_t n = 0;
  for (std::filesystem::directory_iterator
           it(absl::StrCat("/proc/", pid, "/fd"), error),
       end;
       !error && it != end; it.increment(error)) {
    ++n;
  }
  return error ? -1 : n;
}

// Runs `work` on 8 threads at once, each with a channel of its own to
// `address` (the organiser's side calls: many, and not what is measured).
void OnEightChannels(const std::string& address,
                     const std::function<void(v1::Referee::Stub&)>& work) {
  constexpr int kThreads = 8;
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      auto stub = v1::Referee::NewStub(
          grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
      work(*stub);
    });
  }
  for (std::thread& t : threads) t.join();
}

// Creates `n` matches of `game` nobody joins, from 8 threads; returns how
// many were created (the rest failed: their first error in *error).
int CreateWaitingMatches(const std::string& address, const std::string& token,
                         const std::string& game, int n, std::string* error) {
  std::atomic<int> next{0}, created{0};
  std::mutex mu;
  OnEightChannels(address, [&](v1::Referee::Stub& stub) {
    while (next.fetch_add(1) < n) {
      v1::CreateMatchRequest create;
      create.set_game(game);
      v1::CreateMatchResponse response;
      grpc::ClientContext context;
      AddBearer(token, &context);
      SetAnswerDeadline(Clock::now(), &context);
      const grpc::Status st = stub.CreateMatch(&context, create, &response);
      if (st.ok()) {
        ++created;
      } else {
        std::lock_guard<std::mutex> lock(mu);
        if (error->empty()) *error = st.error_message();
      }
    }
  });
  return created.load();
}

// Aborts the matches a run left in progress (after its figures are
// taken), so they hold no cap and spend no CPU in the next measurement.
// Returns how many it could not end: refused (AbortMatch is an organiser's
// call) or unanswered. A match that ended on its own is not counted.
int64_t AbortLeftovers(const std::string& address, const std::string& token,
                       const std::vector<std::string>& match_ids) {
  std::atomic<size_t> next{0};
  std::atomic<int64_t> still_running{0};
  // One deadline for all: a server that answers none costs AnswerGrace(),
  // not that for each match.
  const Clock::time_point start = Clock::now();
  OnEightChannels(address, [&](v1::Referee::Stub& stub) {
    for (size_t i = next++; i < match_ids.size(); i = next++) {
      v1::EndMatchRequest request;
      request.set_match_id(match_ids[i]);
      request.set_reason("cardref_load: the measurement is over");
      v1::MatchInfo info;
      grpc::ClientContext context;
      AddBearer(token, &context);
      SetAnswerDeadline(start, &context);
      const grpc::Status st = stub.AbortMatch(&context, request, &info);
      if (!st.ok() &&
          st.error_code() != grpc::StatusCode::FAILED_PRECONDITION &&
          st.error_code() != grpc::StatusCode::NOT_FOUND) {
        ++still_running;
      }
    }
  });
  return still_running.load();
}

struct Figures {
  double decisions_per_s = 0;
  int64_t decisions = 0;
  int64_t p50_us = 0;
  int64_t p99_us = 0;
  double cpu_us_per_decision = -1;  // -1: not measured (--server)
  int64_t timeouts = 0;
  int64_t false_timeouts = 0;  // Tally::false_timeouts
  int64_t late_answers = 0;    // Tally::late_answers
  int64_t errors = 0;
  double observation_bytes = 0;  // mean size of a streamed observation
  // Matches the run left in progress that AbortLeftovers could not end.
  int64_t left_running = 0;
  int64_t unanswered = 0;  // Totals::unanswered
  std::string first_error;
};

int64_t Percentile(std::vector<int64_t>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  std::nth_element(v.begin(), v.begin() + static_cast<ptrdiff_t>(k), v.end());
  return v[k];
}

// Waits until the server `pid` is idle (under 4% of a core over 250 ms,
// at most 30 s). A server that is not ours to watch (--server): nothing to
// wait for when the run ended every match it left; else those matches go
// on (timeouts, then substitutes) and it waits 3 s for the worst of it.
void Settle(pid_t pid, int64_t left_running) {
  if (pid <= 0) {
    if (left_running > 0) std::this_thread::sleep_for(std::chrono::seconds(3));
    return;
  }
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  double before = CpuSeconds(pid);
  while (Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    const double now = CpuSeconds(pid);
    if (now < 0 || now - before < 0.01) return;
    before = now;
  }
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Each figure's median over the rounds; counts (decisions, timeouts,
// errors) summed.
Figures MedianFigures(const std::vector<Figures>& rounds) {
  Figures m;
  auto median_of = [&rounds](auto field) {
    std::vector<double> v;
    v.reserve(rounds.size());
    for (const Figures& f : rounds) v.push_back(static_cast<double>(f.*field));
    return Median(std::move(v));
  };
  m.decisions_per_s = median_of(&Figures::decisions_per_s);
  m.p50_us = static_cast<int64_t>(median_of(&Figures::p50_us));
  m.p99_us = static_cast<int64_t>(median_of(&Figures::p99_us));
  m.cpu_us_per_decision = median_of(&Figures::cpu_us_per_decision);
  m.observation_bytes = median_of(&Figures::observation_bytes);
  for (const Figures& f : rounds) {
    m.decisions += f.decisions;
    m.timeouts += f.timeouts;
    m.false_timeouts += f.false_timeouts;
    m.late_answers += f.late_answers;
    m.errors += f.errors;
    m.left_running += f.left_running;
    m.unanswered += f.unanswered;
    if (m.first_error.empty()) m.first_error = f.first_error;
  }
  return m;
}

Figures Measure(const std::string& address, const std::string& token,
                pid_t server_pid, int matches, double seconds) {
  const double cpu_before = server_pid > 0 ? CpuSeconds(server_pid) : -1;
  Totals totals;
  PlayOptions options;
  options.address = address;
  options.token = token;
  options.game = absl::GetFlag(FLAGS_game);
  options.limit_ms = absl::GetFlag(FLAGS_decision_time_limit_ms);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.omit_observation = absl::GetFlag(FLAGS_omit_observation);
  options.ramp_seconds = absl::GetFlag(FLAGS_ramp_seconds);
  const std::string client = absl::GetFlag(FLAGS_client);
  if (client == "threads") {
    PlayWithThreads(options, matches, seconds, &totals);
  } else if (client == "seat_streams") {
    PlayOnSeatStreams(options, matches, seconds, &totals);
  } else {
    PlayWithCallbacks(options, matches, seconds, &totals);
  }
  const double cpu_after = server_pid > 0 ? CpuSeconds(server_pid) : -1;
  // A server that left calls unanswered would not answer these either.
  const int64_t left_running =
      totals.unanswered > 0
          ? static_cast<int64_t>(totals.left_matches.size())
          : AbortLeftovers(address, token, totals.left_matches);
  Figures f;
  f.decisions = totals.decisions;
  f.decisions_per_s = static_cast<double>(totals.decisions) / seconds;
  f.p50_us = Percentile(totals.latencies_us, 0.50);
  f.p99_us = Percentile(totals.latencies_us, 0.99);
  if (server_pid > 0 && cpu_before >= 0 && cpu_after >= 0 &&
      totals.decisions > 0) {
    f.cpu_us_per_decision = (cpu_after - cpu_before) * 1e6 /
                            static_cast<double>(totals.decisions);
  }
  f.timeouts = totals.timeouts;
  f.false_timeouts = totals.false_timeouts;
  f.late_answers = totals.late_answers;
  f.errors = totals.errors;
  f.unanswered = totals.unanswered;
  f.left_running = left_running;
  if (totals.observations > 0) {
    f.observation_bytes = static_cast<double>(totals.observation_bytes) /
                          static_cast<double>(totals.observations);
  }
  f.first_error = totals.first_error;
  return f;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += absl::StrFormat("\\u%04x", c);
      continue;
    }
    out += c;
  }
  return out + "\"";
}

int Main(int argc, char** argv) {
  cli::ParseFlagsWithoutArgsOrExit(argc, argv, "cardref_load", kUsage);
  const int matches = absl::GetFlag(FLAGS_matches);
  const double seconds = absl::GetFlag(FLAGS_seconds);
  const std::string format = absl::GetFlag(FLAGS_format);
  if (matches < 1 || !(seconds > 0) ||
      (format != "text" && format != "json") ||
      absl::GetFlag(FLAGS_decision_time_limit_ms) < 0 ||
      absl::GetFlag(FLAGS_rounds) < 1 ||
      absl::GetFlag(FLAGS_answer_grace_s) < 2 ||
      absl::GetFlag(FLAGS_answer_grace_s) > 600 ||
      !(absl::GetFlag(FLAGS_ramp_seconds) >= 0 &&
        absl::GetFlag(FLAGS_ramp_seconds) < seconds) ||
      (absl::GetFlag(FLAGS_client) != "callbacks" &&
       absl::GetFlag(FLAGS_client) != "threads" &&
       absl::GetFlag(FLAGS_client) != "seat_streams")) {
    std::cerr << "cardref_load: expected --matches >= 1, --seconds > 0, "
                 "--decision_time_limit_ms >= 0, --rounds >= 1, "
                 "2 <= --answer_grace_s <= 600, "
                 "0 <= --ramp_seconds < --seconds, "
                 "--client=callbacks, threads or seat_streams and "
                 "--format=text or json\n"
              << kUsage;
    return cli::kExitUsage;
  }
  SetAnswerGrace(std::chrono::seconds(absl::GetFlag(FLAGS_answer_grace_s)));
  if (absl::Status st =
          record::ParseSyncPolicy(absl::GetFlag(FLAGS_log_sync)).status();
      !st.ok()) {
    std::cerr << "cardref_load: --log_sync: " << st.message() << "\n"
              << kUsage;
    return cli::kExitUsage;
  }
  absl::StatusOr<AttackKind> attack =
      ParseAttackKind(absl::GetFlag(FLAGS_attack));
  if (!attack.ok()) {
    std::cerr << "cardref_load: " << attack.status().message() << "\n"
              << kUsage;
    return cli::kExitUsage;
  }
  // The servers are forked first, while this process has no thread.
  const std::string server = absl::GetFlag(FLAGS_server);
  Child referee;
  // The referee's logs: the given directory, or a temporary one this
  // process removes once the referee has stopped.
  std::string log_dir = absl::GetFlag(FLAGS_log_dir);
  std::string temporary_log_dir;
  if (server.empty() && log_dir.empty()) {
    // In $TMPDIR, as mktemp(1) makes its files, else in /tmp.
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = absl::StrCat(
        tmp != nullptr && *tmp != '\0' ? tmp : "/tmp", "/cardref_load_XXXXXX");
    if (mkdtemp(dir.data()) == nullptr) {
      std::cerr << "cardref_load: cannot make a temporary log directory in "
                << dir.substr(0, dir.rfind('/')) << ": " << std::strerror(errno)
                << "\n";
      return 1;
    }
    log_dir = temporary_log_dir = dir;
  }
  // --held_matches gets a referee of its own, so the waiting matches'
  // memory is what a fresh heap grows by, not room the other runs left.
  Child held_referee;
  const int held_wanted = absl::GetFlag(FLAGS_held_matches);
  if (server.empty()) {
    referee = StartChild(false, absl::GetFlag(FLAGS_game),
                         absl::GetFlag(FLAGS_decision_time_limit_ms), 0,
                         log_dir);
    if (held_wanted > 0) {
      const std::string held_logs = absl::StrCat(log_dir, "/held");
      std::error_code ignored;
      std::filesystem::create_directories(held_logs, ignored);
      held_referee = StartChild(false, absl::GetFlag(FLAGS_game),
                                absl::GetFlag(FLAGS_decision_time_limit_ms),
                                held_wanted, held_logs);
    }
  }
  // Every return below stops the referee first.
  const TemporaryDir temporary_logs{temporary_log_dir};
  Child echo = StartChild(true, absl::GetFlag(FLAGS_game), 0);
  if ((server.empty() && referee.port == 0) || echo.port == 0 ||
      (held_referee.pid > 0 && held_referee.port == 0)) {
    std::cerr << "cardref_load: a server did not start\n";
    StopChild(referee);
    StopChild(held_referee);
    StopChild(echo);
    return 1;
  }
  std::string token;
  if (!server.empty()) {
    const std::string file = absl::GetFlag(FLAGS_organiser_token_file);
    if (!file.empty()) {
      std::ifstream in(file);
      if (!in) {
        std::cerr << "cardref_load: cannot read --organiser_token_file "
                  << file << "\n";
        StopChild(referee);
        StopChild(held_referee);
        StopChild(echo);
        return cli::kExitUsage;
      }
      std::getline(in, token);
    } else if (const char* env = std::getenv("CARDREF_ORGANISER_TOKEN")) {
      token = env;
    }
    token = std::string(absl::StripAsciiWhitespace(token));
  }
  const std::string referee_address =
      server.empty() ? absl::StrCat("localhost:", referee.port) : server;
  // Referee and echo in turns, so both see the same machine.
  const std::string echo_address = absl::StrCat("localhost:", echo.port);
  const int rounds = absl::GetFlag(FLAGS_rounds);
  std::vector<Figures> ref_rounds, bare_rounds;
  std::vector<double> ratios, cpu_ratios;
  for (int r = 0; r < rounds; ++r) {
    ref_rounds.push_back(
        Measure(referee_address, token, referee.pid, matches, seconds));
    // The matches the players left are played out by the referee (timeouts,
    // then substitutes): not beside the echo's turn, nor the next round.
    Settle(referee.pid, ref_rounds.back().left_running);
    bare_rounds.push_back(
        Measure(echo_address, "", echo.pid, matches, seconds));
    const Figures& a = ref_rounds.back();
    const Figures& b = bare_rounds.back();
    ratios.push_back(b.decisions_per_s > 0
                         ? a.decisions_per_s / b.decisions_per_s
                         : 0);
    cpu_ratios.push_back(a.cpu_us_per_decision > 0 &&
                                 b.cpu_us_per_decision > 0
                             ? a.cpu_us_per_decision / b.cpu_us_per_decision
                             : -1);
  }
  const Figures ref = MedianFigures(ref_rounds);
  const Figures bare = MedianFigures(bare_rounds);
  // The same load again beside matches that wait (what holding
  // matches costs everyone).
  Figures held;
  int held_created = 0;
  double held_seconds = 0;
  double held_kib_per_match = 0, held_fds_per_match = 0;
  std::string held_error;
  if (held_wanted > 0) {
    // Its own referee when this process started one (--server: that one).
    const pid_t held_pid = server.empty() ? held_referee.pid : referee.pid;
    const std::string held_address =
        server.empty() ? absl::StrCat("localhost:", held_referee.port)
                       : referee_address;
    const int64_t rss_before = held_pid > 0 ? RssKib(held_pid) : -1;
    const int64_t fds_before = held_pid > 0 ? OpenFds(held_pid) : -1;
    const auto start = Clock::now();
    held_created = CreateWaitingMatches(held_address, token,
                                        absl::GetFlag(FLAGS_game), held_wanted,
                                        &held_error);
    held_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (held_created > 0 && rss_before >= 0 && fds_before >= 0) {
      held_kib_per_match =
          static_cast<double>(RssKib(held_pid) - rss_before) / held_created;
      // The creating connections close asynchronously: wait (up to 2 s) for
      // the server's ends of them, so only what the matches hold counts.
      int64_t fds = OpenFds(held_pid);
      for (int i = 0; i < 40 && fds > fds_before; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        fds = OpenFds(held_pid);
      }
      held_fds_per_match =
          static_cast<double>(fds - fds_before) / held_created;
    }
    held = Measure(held_address, token, held_pid, matches, seconds);
    StopChild(held_referee);
  }
  // The same load again, under attack.
  Figures attacked;
  int64_t attack_count = 0;
  std::string attack_unit;
  if (*attack != AttackKind::kNone) {
    Attacker attacker(*attack, referee_address, token,
                      absl::GetFlag(FLAGS_game));
    if (absl::Status st = attacker.Start(); !st.ok()) {
      std::cerr << "cardref_load: " << st.message() << "\n";
      StopChild(referee);
      StopChild(held_referee);
      StopChild(echo);
      return 1;
    }
    attacked = Measure(referee_address, token, referee.pid, matches, seconds);
    attack_count = attacker.count();
    attack_unit = attacker.unit();
  }
  StopChild(referee);
  const double attack_ratio_p99 =
      ref.p99_us > 0 ? static_cast<double>(attacked.p99_us) /
                           static_cast<double>(ref.p99_us)
                     : 0;
  // A flood's rate; the number held for streams.
  const double attack_rate =
      *attack == AttackKind::kStreams ? static_cast<double>(attack_count)
                                      : static_cast<double>(attack_count) /
                                            seconds;
  const bool attacking = *attack != AttackKind::kNone;
  StopChild(echo);
  const double ratio = Median(ratios);
  const double cpu_ratio = Median(cpu_ratios);
  const auto [ratio_min, ratio_max] =
      std::minmax_element(ratios.begin(), ratios.end());
  const auto [cpu_ratio_min, cpu_ratio_max] =
      std::minmax_element(cpu_ratios.begin(), cpu_ratios.end());
  if (format == "json") {
    std::cout << absl::StrFormat(
        "{\"game\": %s, \"matches\": %d, \"seconds\": %g, "
        "\"decision_time_limit_ms\": %d, \"omit_observation\": %s, "
        "\"client\": %s, \"ramp_seconds\": %g, "
        "\"referee_decisions\": %d, \"referee_decisions_per_s\": %.1f, "
        "\"referee_p50_us\": %d, \"referee_p99_us\": %d, "
        "\"referee_cpu_us_per_decision\": %.2f, "
        "\"echo_decisions\": %d, \"echo_decisions_per_s\": %.1f, "
        "\"echo_p50_us\": %d, \"echo_p99_us\": %d, "
        "\"echo_cpu_us_per_decision\": %.2f, "
        "\"referee_observation_bytes\": %.1f, "
        "\"echo_observation_bytes\": %.1f, "
        "\"rounds\": %d, \"ratio\": %.3f, \"ratio_min\": %.3f, "
        "\"ratio_max\": %.3f, \"cpu_ratio\": %.3f, "
        "\"cpu_ratio_min\": %.3f, \"cpu_ratio_max\": %.3f, "
        "\"timeouts\": %d, \"false_timeouts\": %d, \"late_answers\": %d, "
        "\"errors\": %d, \"left_running\": %d, \"unanswered\": %d, "
        "\"first_error\": %s, "
        "\"attack\": %s%s%s}\n",
        JsonString(absl::GetFlag(FLAGS_game)), matches, seconds,
        absl::GetFlag(FLAGS_decision_time_limit_ms),
        absl::GetFlag(FLAGS_omit_observation) ? "true" : "false",
        JsonString(absl::GetFlag(FLAGS_client)),
        absl::GetFlag(FLAGS_ramp_seconds), ref.decisions,
        ref.decisions_per_s, ref.p50_us, ref.p99_us, ref.cpu_us_per_decision,
        bare.decisions, bare.decisions_per_s, bare.p50_us, bare.p99_us,
        bare.cpu_us_per_decision, ref.observation_bytes,
        bare.observation_bytes, rounds, ratio, *ratio_min, *ratio_max,
        cpu_ratio, *cpu_ratio_min, *cpu_ratio_max, ref.timeouts,
        ref.false_timeouts, ref.late_answers,
        ref.errors + bare.errors, ref.left_running,
        ref.unanswered + bare.unanswered,
        JsonString(ref.first_error.empty() ? bare.first_error
                                           : ref.first_error),
        JsonString(absl::GetFlag(FLAGS_attack)),
        attacking
            ? absl::StrFormat(
                  ", \"idle_p50_us\": %d, \"idle_p99_us\": %d, "
                  "\"attack_p50_us\": %d, \"attack_p99_us\": %d, "
                  "\"attack_ratio_p99\": %.3f, \"attack_decisions\": %d, "
                  "\"attack_decisions_per_s\": %.1f, \"attack_count\": %d, "
                  "\"attack_unit\": %s, \"attack_rate\": %.1f, "
                  "\"attack_timeouts\": %d, \"attack_errors\": %d",
                  ref.p50_us, ref.p99_us, attacked.p50_us, attacked.p99_us,
                  attack_ratio_p99, attacked.decisions,
                  attacked.decisions_per_s, attack_count,
                  JsonString(attack_unit), attack_rate, attacked.timeouts,
                  attacked.errors)
            : std::string(),
        held_wanted > 0
            ? absl::StrFormat(
                  ", \"held_matches\": %d, \"held_create_seconds\": %.2f, "
                  "\"held_kib_per_match\": %.2f, "
                  "\"held_fds_per_match\": %.4f, "
                  "\"held_decisions_per_s\": %.1f, \"held_p50_us\": %d, "
                  "\"held_p99_us\": %d, \"held_cpu_us_per_decision\": %.2f, "
                  "\"held_ratio\": %.3f, \"held_timeouts\": %d, "
                  "\"held_error\": %s",
                  held_created, held_seconds, held_kib_per_match,
                  held_fds_per_match, held.decisions_per_s, held.p50_us,
                  held.p99_us, held.cpu_us_per_decision,
                  ref.decisions_per_s > 0
                      ? held.decisions_per_s / ref.decisions_per_s
                      : 0,
                  held.timeouts, JsonString(held_error))
            : std::string());
  } else {
    auto line = [](const char* name, const Figures& f) {
      return absl::StrFormat(
          "%-8s %10.1f decisions/s  p50 %6d us  p99 %7d us  server CPU "
          "%7.2f us/decision  timeouts %d (%d false)  late answers %d  "
          "observation %.0f B\n",
          name, f.decisions_per_s, f.p50_us, f.p99_us, f.cpu_us_per_decision,
          f.timeouts, f.false_timeouts, f.late_answers, f.observation_bytes);
    };
    std::cout << line("referee", ref);
    if (held_wanted > 0) {
      std::cout << line("held", held)
                << absl::StrFormat(
                       "held %d waiting matches (created in %.1f s%s): %.2f "
                       "KiB and %.4f descriptors each; decisions/s beside "
                       "them %.3fx without\n",
                       held_created, held_seconds,
                       held_error.empty() ? ""
                                          : absl::StrCat("; ", held_error),
                       held_kib_per_match, held_fds_per_match,
                       ref.decisions_per_s > 0
                           ? held.decisions_per_s / ref.decisions_per_s
                           : 0);
    }
    if (attacking) {
      std::cout << line("attacked", attacked)
                << absl::StrFormat(
                       "attack %s: %d %s (%.0f%s); p99 under attack %.2fx "
                       "idle\n",
                       absl::GetFlag(FLAGS_attack), attack_count, attack_unit,
                       attack_rate,
                       *attack == AttackKind::kStreams ? " held" : "/s",
                       attack_ratio_p99);
    }
    std::cout << line("echo", bare)
              << absl::StrFormat(
                     "ratio (referee / echo decisions/s) %.3f, server CPU "
                     "per decision %.3fx echo\n",
                     ratio, cpu_ratio);
    if (rounds > 1) {
      std::cout << absl::StrFormat(
          "medians of %d interleaved rounds; ratio %.3f to %.3f, CPU "
          "ratio %.3f to %.3f\n",
          rounds, *ratio_min, *ratio_max, *cpu_ratio_min, *cpu_ratio_max);
    }
    if (ref.left_running > 0) {
      std::cout << absl::StrFormat(
          "%d matches the players left are still in progress: the referee "
          "refused to abort them (an organiser's call: "
          "--organiser_token_file) or did not answer\n",
          ref.left_running);
    }
    if (ref.errors + bare.errors > 0) {
      std::cout << "errors: " << ref.errors + bare.errors << " (first: "
                << (ref.first_error.empty() ? bare.first_error
                                            : ref.first_error)
                << ")\n";
    }
  }
  // A server that stopped answering: its figures measure the hang.
  const int64_t unanswered = ref.unanswered + bare.unanswered +
                             held.unanswered + attacked.unanswered;
  if (unanswered > 0) {
    std::cerr << "cardref_load: " << unanswered << " calls were not "
              << "answered " << AnswerGrace().count()
              << " s after the run's end: the server hung or stopped "
              << "answering, so these figures are no measurement\n";
  }
  return ref.decisions > 0 && bare.decisions > 0 && unanswered == 0 &&
                 (!attacking || attacked.decisions > 0) &&
                 (held_wanted == 0 ||
                  (held_created == held_wanted && held.decisions > 0))
             ? 0
             : 1;
}

}  // namespace
}  // namespace cardref::load

int main(int argc, char** argv) { return cardref::load::Main(argc, argv); }
