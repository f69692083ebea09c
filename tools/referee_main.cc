// cardref_referee: the gRPC referee server.
//
//   cardref_referee --port=50051 --log_dir=logs
//
// Serves cardref.v1.Referee (proto/cardref/v1/referee.proto) with gRPC
// health checking and server reflection. Every match is logged to
// <log_dir>/<match_id>.cardlog as it is played, its last record signed with
// the referee's Ed25519 key (--signing_key_file, made on first start).
// SIGINT/SIGTERM shut down gracefully (docs/operations.md): no new match or
// join; matches in progress get --shutdown_grace_ms to finish, then are
// logged as aborted (ABORT_CAUSE_REFEREE_SHUTDOWN); every log is synced and
// the process exits 0. --metrics_port serves Prometheus metrics.
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"
#include "referee/base/ed25519.h"
#include "referee/base/hex.h"
#include "referee/grpc/fd_budget.h"
#include "referee/grpc/server.h"
#include "referee/service/limits.h"
#include "referee/record/game_log.h"
#include "referee/record/private_dir.h"
#include "referee/service/recovery.h"
#include "referee/service/ops_log.h"
#include "tools/cli_flags.h"
#include "tools/version.h"

ABSL_FLAG(std::string, host, "localhost",
          "Address to listen on (0.0.0.0 for every interface)");
ABSL_FLAG(int, port, 50051, "Port to listen on; 0 picks a free port");
ABSL_FLAG(std::string, port_file, "",
          "If set, the chosen port is written to this file once serving");
ABSL_FLAG(std::string, log_dir, "logs",
          "Directory for game logs (created if missing)");
ABSL_FLAG(int64_t, decision_time_limit_ms, 10000,
          "Default per-decision time limit in ms for matches that give none; "
          "0 = no limit");
ABSL_FLAG(int64_t, max_decision_time_limit_ms, 600000,
          "Largest time limit a match may ask for; 0 = no maximum");
ABSL_FLAG(int64_t, time_bank_ms, 0,
          "Default time bank per seat in ms for matches that give none "
          "(docs/fault_policy.md); 0 = none");
ABSL_FLAG(int64_t, max_time_bank_ms, 600000,
          "Largest time bank a match may ask for; 0 = no maximum");
ABSL_FLAG(int32_t, max_rejections, 100,
          "Default fault policy: rejected submissions per decision that "
          "settle it as a fault; 0 = no limit");
ABSL_FLAG(int32_t, max_consecutive_timeouts, 3,
          "Default fault policy: timeouts in a row after which a seat is "
          "absent or forfeits (or the match aborts); 0 = no limit");
ABSL_FLAG(int64_t, join_deadline_ms, 0,
          "Default fault policy: ms from creation by which every seat must "
          "have joined; 0 = none");
ABSL_FLAG(int64_t, max_join_deadline_ms, 0,
          "Largest join deadline a match may ask for; 0 = no maximum");
ABSL_FLAG(std::string, fault_action, "substitute",
          "Default fault policy action at a limit: substitute, forfeit or "
          "abort");
ABSL_FLAG(bool, disconnect_is_timeout, false,
          "Default fault policy: a seat whose last observation stream closed "
          "times out at once");
ABSL_FLAG(std::string, organiser_token_file, "",
          "File holding the organiser's bearer token (mode 600); else "
          "$CARDREF_ORGANISER_TOKEN; with neither, only loopback is served "
          "and every local caller is the organiser (docs/auth.md)");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain: serve TLS (needs --tls_key)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key for --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates: require a client certificate signed by one");
ABSL_FLAG(std::string, log_sync, "round",
          "When logs are fdatasynced: event (every record), round (every "
          "round result and the end) or end (docs/recovery.md)");
ABSL_FLAG(int32_t, log_sync_threads, 4,
          "Threads that wait for a round's fdatasync at --log_sync=round, so "
          "that gRPC's threads go on serving other matches; 0: gRPC's "
          "thread waits (docs/recovery.md). At most 64");
ABSL_FLAG(int64_t, evict_after_ms, 5000,
          "How long an ended match stays in memory; then GetMatch reads it "
          "from its log (docs/recovery.md). At most 600000");
ABSL_FLAG(std::string, signing_key_file, "",
          "Ed25519 private key (PEM PKCS#8, mode 0600) that signs every log; "
          "generated there when missing. Default: referee_ed25519.key in the "
          "parent directory of --log_dir");

// Resource limits (docs/limits.md); defaults from referee/service/limits.h.
ABSL_FLAG(int32_t, max_request_bytes, cardref::service::Limits().max_request_bytes,
          "Largest request gRPC accepts, in bytes (RESOURCE_EXHAUSTED past it)");
ABSL_FLAG(int32_t, max_action_bytes,
          static_cast<int32_t>(cardref::service::Limits().max_action_bytes),
          "Largest submitted action, encoded, in bytes (INVALID_ARGUMENT past "
          "it; logged without the action)");
ABSL_FLAG(int32_t, max_streams_per_seat,
          cardref::service::Limits().max_streams_per_seat,
          "Open WatchObservations streams per seat; 0 = no cap");
ABSL_FLAG(int32_t, max_event_streams, cardref::service::Limits().max_event_streams,
          "Open WatchMatch/WatchMatchFull streams in all; 0 = no cap");
ABSL_FLAG(double, calls_per_second_per_token,
          cardref::service::Limits().calls_per_second_per_token,
          "Calls per second per seat token or bearer token; 0 = no limit");
ABSL_FLAG(double, burst_per_token, cardref::service::Limits().burst_per_token,
          "Calls at once per token before --calls_per_second_per_token applies");
ABSL_FLAG(double, calls_per_second_per_peer,
          cardref::service::Limits().calls_per_second_per_peer,
          "Calls per second per client address; 0 = no limit");
ABSL_FLAG(double, burst_per_peer, cardref::service::Limits().burst_per_peer,
          "Calls at once per client address before the rate applies");
ABSL_FLAG(int32_t, max_waiting_matches,
          cardref::service::Limits().max_waiting_matches,
          "Matches waiting for players at once; CreateMatch past it gets "
          "RESOURCE_EXHAUSTED; 0 = no limit");
ABSL_FLAG(int32_t, max_matches_in_progress,
          cardref::service::Limits().max_matches_in_progress,
          "Matches in progress at once; CreateMatch past it gets "
          "RESOURCE_EXHAUSTED; 0 = no limit");
ABSL_FLAG(int32_t, max_rejections_logged,
          cardref::service::Limits().max_rejections_logged_per_decision,
          "Rejected submissions logged in full per seat and decision; the "
          "rest are counted in one RejectionsNotLogged record");
ABSL_FLAG(double, refusals_per_second,
          cardref::service::Limits().refusals_per_second,
          "Refused calls per second per caller answered at once (the "
          "tarpit's free quota); 0 = no tarpit");
ABSL_FLAG(double, refusal_burst, cardref::service::Limits().refusal_burst,
          "Refused calls at once per caller before --refusals_per_second "
          "applies");
ABSL_FLAG(int32_t, refusal_delay_ms,
          cardref::service::Limits().refusal_delay_ms,
          "How long a refusal past the free quota waits before it is "
          "answered; 0 = no tarpit");
ABSL_FLAG(int32_t, max_delayed_refusals,
          cardref::service::Limits().max_delayed_refusals,
          "Refusals held back at once; past it they are answered at once");
ABSL_FLAG(int32_t, max_connections, cardref::service::Limits().max_connections,
          "Plaintext connections held at once (at most half the fd limit); "
          "past it new ones are closed at once; 0 = no cap (gRPC's listener)");
ABSL_FLAG(int64_t, min_free_disk_mb, 64,
          "CreateMatch is refused (UNAVAILABLE) while the log directory has "
          "less free space than this, in MiB, kept for matches in progress; "
          "0 = no reserve");
ABSL_FLAG(int64_t, shutdown_grace_ms, 10000,
          "On SIGTERM/SIGINT, how long matches in progress may go on to "
          "finish before they are logged as aborted");
ABSL_FLAG(int, metrics_port, -1,
          "Serve Prometheus metrics at http://<metrics_host>:<port>/metrics; "
          "0 picks a free port; -1 = no metrics");
ABSL_FLAG(std::string, metrics_host, "127.0.0.1",
          "Address the metrics endpoint listens on");
ABSL_FLAG(std::string, metrics_port_file, "",
          "If set, the metrics port is written to this file once serving");

namespace {

// <parent of log_dir>/referee_ed25519.key: beside the logs, not among them.
std::string DefaultKeyFile(const std::string& log_dir) {
  std::filesystem::path dir =
      std::filesystem::absolute(log_dir).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "logs/" -> "logs"
  return (dir.parent_path() / "referee_ed25519.key").string();
}

}  // namespace

int main(int argc, char** argv) {
  // Debian's Abseil checks every lock for deadlock cycles (a debug aid):
  // 11% of the referee's instructions per decision (issue 12).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_referee",
      "The cardref referee: a gRPC server that runs card-game matches "
      "between bots, validates every move and logs every game.\n"
      "Usage: cardref_referee [--host=localhost] [--port=50051] "
      "[--log_dir=logs] [--signing_key_file=FILE]");

  const std::string log_dir = absl::GetFlag(FLAGS_log_dir);
  // First, so the default key file's directory exists too.
  if (absl::Status st = cardref::record::MakePrivateDirectory(log_dir);
      !st.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(st.message()).c_str());
    return 1;
  }

  std::string key_file = absl::GetFlag(FLAGS_signing_key_file);
  if (key_file.empty()) key_file = DefaultKeyFile(log_dir);
  bool key_created = false;
  absl::StatusOr<cardref::crypto::Ed25519PrivateKey> key =
      cardref::crypto::Ed25519PrivateKey::ReadOrCreateFile(key_file,
                                                           &key_created);
  if (!key.ok()) {
    std::fprintf(stderr, "--signing_key_file: %s\n",
                 std::string(key.status().message()).c_str());
    return 1;
  }
  std::printf("cardref_referee: %s log signing key %s, public key %s\n",
              key_created ? "created" : "using", key_file.c_str(),
              cardref::ToHex(key->public_key()).c_str());

  // Signals are taken by a dedicated thread (sigwait), so block them before
  // gRPC starts its threads.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  absl::StatusOr<std::optional<std::string>> organiser_token =
      cardref::grpc_service::LoadOrganiserToken(
          absl::GetFlag(FLAGS_organiser_token_file));
  if (!organiser_token.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(organiser_token.status().message()).c_str());
    return 1;
  }

  cardref::grpc_service::ServerOptions options;
  options.organiser_token = *organiser_token;
  options.tls.cert_file = absl::GetFlag(FLAGS_tls_cert);
  options.tls.key_file = absl::GetFlag(FLAGS_tls_key);
  options.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca);
  options.host = absl::GetFlag(FLAGS_host);
  options.port = absl::GetFlag(FLAGS_port);
  options.manager.log_dir = log_dir;
  options.manager.min_free_disk_mb = absl::GetFlag(FLAGS_min_free_disk_mb);
  options.metrics_port = absl::GetFlag(FLAGS_metrics_port);
  options.metrics_host = absl::GetFlag(FLAGS_metrics_host);
  if (options.metrics_port < -1 || options.metrics_port > 65535) {
    std::fprintf(stderr,
                 "cardref_referee: --metrics_port must be -1 (off), 0 (any "
                 "free port) or a port up to 65535, got %d\n",
                 options.metrics_port);
    return 2;
  }
  const int64_t grace_ms = absl::GetFlag(FLAGS_shutdown_grace_ms);
  if (grace_ms < 0) {
    std::fprintf(stderr,
                 "cardref_referee: --shutdown_grace_ms must not be negative, "
                 "got %lld\n",
                 static_cast<long long>(grace_ms));
    return 2;
  }
  options.manager.default_decision_time_limit_millis =
      absl::GetFlag(FLAGS_decision_time_limit_ms);
  options.manager.max_decision_time_limit_millis =
      absl::GetFlag(FLAGS_max_decision_time_limit_ms);
  options.manager.default_time_bank_millis = absl::GetFlag(FLAGS_time_bank_ms);
  options.manager.max_time_bank_millis = absl::GetFlag(FLAGS_max_time_bank_ms);
  options.manager.max_join_deadline_millis =
      absl::GetFlag(FLAGS_max_join_deadline_ms);
  {
    cardref::v1::FaultPolicy& policy = options.manager.default_fault_policy;
    policy.set_max_rejections_per_decision(absl::GetFlag(FLAGS_max_rejections));
    policy.set_max_consecutive_timeouts(
        absl::GetFlag(FLAGS_max_consecutive_timeouts));
    policy.set_join_deadline_millis(absl::GetFlag(FLAGS_join_deadline_ms));
    policy.set_disconnect_is_timeout(absl::GetFlag(FLAGS_disconnect_is_timeout));
    const std::string action = absl::GetFlag(FLAGS_fault_action);
    if (action == "substitute") {
      policy.set_action(cardref::v1::FAULT_ACTION_SUBSTITUTE);
    } else if (action == "forfeit") {
      policy.set_action(cardref::v1::FAULT_ACTION_FORFEIT);
    } else if (action == "abort") {
      policy.set_action(cardref::v1::FAULT_ACTION_ABORT);
    } else {
      std::fprintf(stderr,
                   "cardref_referee: --fault_action must be substitute, "
                   "forfeit or abort, got '%s'\n",
                   action.c_str());
      return 2;
    }
  }
  {
    cardref::service::Limits& limits = options.manager.limits;
    limits.max_request_bytes = absl::GetFlag(FLAGS_max_request_bytes);
    limits.max_action_bytes = static_cast<size_t>(
        std::max<int32_t>(1, absl::GetFlag(FLAGS_max_action_bytes)));
    limits.max_streams_per_seat = absl::GetFlag(FLAGS_max_streams_per_seat);
    limits.max_event_streams = absl::GetFlag(FLAGS_max_event_streams);
    limits.calls_per_second_per_token =
        absl::GetFlag(FLAGS_calls_per_second_per_token);
    limits.burst_per_token = absl::GetFlag(FLAGS_burst_per_token);
    limits.calls_per_second_per_peer =
        absl::GetFlag(FLAGS_calls_per_second_per_peer);
    limits.burst_per_peer = absl::GetFlag(FLAGS_burst_per_peer);
    limits.max_waiting_matches = absl::GetFlag(FLAGS_max_waiting_matches);
    limits.max_matches_in_progress =
        absl::GetFlag(FLAGS_max_matches_in_progress);
    limits.max_rejections_logged_per_decision =
        absl::GetFlag(FLAGS_max_rejections_logged);
    limits.max_connections = absl::GetFlag(FLAGS_max_connections);
    limits.refusals_per_second = absl::GetFlag(FLAGS_refusals_per_second);
    limits.refusal_burst = absl::GetFlag(FLAGS_refusal_burst);
    limits.refusal_delay_ms = absl::GetFlag(FLAGS_refusal_delay_ms);
    limits.max_delayed_refusals = absl::GetFlag(FLAGS_max_delayed_refusals);
  }
  // Before anything opens descriptors in numbers (docs/limits.md).
  if (absl::StatusOr<uint64_t> fds = cardref::grpc_service::RaiseOpenFileLimit();
      fds.ok()) {
    std::printf("cardref_referee: file descriptor limit %llu\n",
                static_cast<unsigned long long>(*fds));
  } else {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(fds.status().message()).c_str());
  }
  absl::StatusOr<cardref::record::SyncPolicy> log_sync =
      cardref::record::ParseSyncPolicy(absl::GetFlag(FLAGS_log_sync));
  if (!log_sync.ok()) {
    std::fprintf(stderr, "cardref_referee: --log_sync: %s\n",
                 std::string(log_sync.status().message()).c_str());
    return 2;
  }
  options.manager.log_sync = *log_sync;
  const int32_t log_sync_threads = absl::GetFlag(FLAGS_log_sync_threads);
  if (log_sync_threads < 0 || log_sync_threads > 64) {
    std::fprintf(stderr,
                 "cardref_referee: --log_sync_threads must be 0..64, got %d\n",
                 log_sync_threads);
    return 2;
  }
  options.manager.log_sync_threads = log_sync_threads;
  const int64_t evict_after_ms = absl::GetFlag(FLAGS_evict_after_ms);
  if (evict_after_ms < 0 || evict_after_ms > 600000) {
    std::fprintf(stderr,
                 "cardref_referee: --evict_after_ms must be 0..600000, got "
                 "%lld\n",
                 static_cast<long long>(evict_after_ms));
    return 2;
  }
  options.manager.evict_after = absl::Milliseconds(evict_after_ms);
  options.manager.referee_version = cardref::kVersion;
  options.manager.signing_key =
      std::make_shared<const cardref::crypto::Ed25519PrivateKey>(*key);
  absl::StatusOr<std::unique_ptr<cardref::grpc_service::RefereeServer>>
      referee = cardref::grpc_service::RefereeServer::Start(options);
  if (!referee.ok()) {
    std::fprintf(stderr, "%s\n", std::string(referee.status().message()).c_str());
    return 1;
  }
  std::printf("cardref_referee %s listening on %s (%s), logs in %s\n",
              cardref::kVersion, (*referee)->address().c_str(),
              options.tls.cert_file.empty() ? "plaintext" : "TLS",
              log_dir.c_str());
  if (options.organiser_token.has_value()) {
    std::printf("organiser credential: configured; matches are by "
                "invitation unless created open\n");
  } else {
    std::printf("organiser credential: none, so this referee serves "
                "loopback only and every local caller may act as the "
                "organiser (docs/auth.md)\n");
  }
  // The recovery scan (docs/recovery.md): one line per interrupted match.
  for (const cardref::service::RecoveredLog& r :
       (*referee)->manager().recovered()) {
    std::printf("cardref_referee: recovered %s\n", r.description.c_str());
  }
  std::fflush(stdout);
  if ((*referee)->metrics_port() >= 0) {
    std::printf("metrics: http://%s:%d/metrics\n",
                options.metrics_host.c_str(), (*referee)->metrics_port());
    std::fflush(stdout);
  }
  if (const std::string path = absl::GetFlag(FLAGS_port_file); !path.empty()) {
    std::ofstream(path) << (*referee)->port() << "\n";
  }
  if (const std::string path = absl::GetFlag(FLAGS_metrics_port_file);
      !path.empty()) {
    std::ofstream(path) << (*referee)->metrics_port() << "\n";
  }

  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    std::printf("cardref_referee: signal %d, shutting down\n", sig);
    std::fflush(stdout);
    const absl::Time start = absl::Now();
    const cardref::service::ShutdownSummary summary =
        (*referee)->ShutDownGracefully(absl::Milliseconds(grace_ms));
    cardref::service::StderrOpsLog()->Write(cardref::service::FormatOpsLine(
        absl::Now(),
        {{"event", "shutdown"},
         {"signal", absl::StrCat(sig)},
         {"finished_in_grace", absl::StrCat(summary.finished_in_grace)},
         {"aborted", absl::StrCat(summary.aborted)},
         {"took_ms",
          absl::StrCat(absl::ToInt64Milliseconds(absl::Now() - start))}}));
  });
  (*referee)->server().Wait();
  waiter.join();
  referee->reset();  // logs unfinished matches as aborted
  return 0;
}
