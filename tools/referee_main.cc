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
// the process exits 0. --metrics_port serves Prometheus metrics,
// --http_port the web front (match pages, JSON API: docs/web.md).
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"
#include "referee/base/ed25519.h"
#include "referee/base/hex.h"
#include "referee/base/public_key_file.h"
#include "referee/grpc/fd_budget.h"
#include "referee/grpc/server.h"
#include "referee/record/private_dir.h"
#include "referee/service/recovery.h"
#include "referee/service/ops_log.h"
#include "tools/cli_flags.h"
#include "tools/referee_flags.h"
#include "tools/version.h"

int main(int argc, char** argv) {
  // Debian's Abseil checks every lock for deadlock cycles (a debug aid):
  // 11% of the referee's instructions per decision.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_referee",
      "The cardref referee: a gRPC server that runs card-game matches "
      "between bots, validates every move and logs every game.\n"
      "Usage: cardref_referee [--host=localhost] [--port=50051] "
      "[--log_dir=logs] [--signing_key_file=FILE]");
  // Every flag is checked before anything is created (referee_flags.h).
  absl::StatusOr<cardref::cli::RefereeConfig> config =
      cardref::cli::RefereeConfigFromFlags();
  if (!config.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(config.status().message()).c_str());
    return cardref::cli::kExitUsage;
  }
  cardref::grpc_service::ServerOptions& options = config->server;
  const std::string& log_dir = options.manager.log_dir;

  absl::StatusOr<std::optional<std::string>> organiser_token =
      cardref::grpc_service::LoadOrganiserToken(config->organiser_token_file);
  if (!organiser_token.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(organiser_token.status().message()).c_str());
    return 1;
  }
  options.organiser_token = *organiser_token;
  if (absl::Status st = cardref::grpc_service::CheckServerOptions(options);
      !st.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(st.message()).c_str());
    return cardref::cli::kExitUsage;
  }

  // First, so the default key file's directory exists too.
  if (absl::Status st = cardref::record::MakePrivateDirectory(log_dir);
      !st.ok()) {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(st.message()).c_str());
    return 1;
  }
  const std::string& key_file = config->signing_key_file;
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
  // Beside the key, for the auditors: the key file itself is secret.
  const std::string public_key_file = cardref::crypto::PublicKeyPath(key_file);
  if (absl::Status st = cardref::crypto::WritePublicKeyFile(
          public_key_file, key->public_key());
      st.ok()) {
    std::printf("cardref_referee: public key written to %s (audit with "
                "cardref_analyze audit --referee_key=%s)\n",
                public_key_file.c_str(), public_key_file.c_str());
  } else {
    std::fprintf(stderr, "cardref_referee: %s (the logs are signed all the "
                 "same; give auditors the public key printed above)\n",
                 std::string(st.message()).c_str());
  }

  // Signals are taken by a dedicated thread (sigwait), so block them before
  // gRPC starts its threads.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // Before anything opens descriptors in numbers (docs/limits.md).
  if (absl::StatusOr<uint64_t> fds = cardref::grpc_service::RaiseOpenFileLimit();
      fds.ok()) {
    std::printf("cardref_referee: file descriptor limit %llu\n",
                static_cast<unsigned long long>(*fds));
  } else {
    std::fprintf(stderr, "cardref_referee: %s\n",
                 std::string(fds.status().message()).c_str());
  }
  options.manager.referee_version = cardref::kVersion;
  options.manager.signing_key =
      std::make_shared<const cardref::crypto::Ed25519PrivateKey>(*key);
  absl::StatusOr<std::unique_ptr<cardref::grpc_service::RefereeServer>>
      referee = cardref::grpc_service::RefereeServer::Start(options);
  if (!referee.ok()) {
    std::fprintf(stderr, "%s\n", std::string(referee.status().message()).c_str());
    return 1;
  }
  std::printf("cardref_referee %s listening on %s (%s), logs in %s "
              "(--log_sync=%s)\n",
              cardref::kVersion, (*referee)->address().c_str(),
              options.tls.cert_file.empty() ? "plaintext" : "TLS",
              log_dir.c_str(), config->log_sync.c_str());
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
  if (const cardref::grpc_service::FrontEnd* web = (*referee)->front_end();
      web != nullptr) {
    std::printf("web: %s://%s:%d/\n", web->tls() ? "https" : "http",
                options.front_end->host.c_str(), web->port());
    std::fflush(stdout);
  }
  if (const std::string& path = config->port_file; !path.empty()) {
    std::ofstream(path) << (*referee)->port() << "\n";
  }
  if (const std::string& path = config->metrics_port_file; !path.empty()) {
    std::ofstream(path) << (*referee)->metrics_port() << "\n";
  }
  if (const std::string& path = config->http_port_file; !path.empty()) {
    const cardref::grpc_service::FrontEnd* web = (*referee)->front_end();
    std::ofstream(path) << (web != nullptr ? web->port() : -1) << "\n";
  }

  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    std::printf("cardref_referee: signal %d, shutting down\n", sig);
    std::fflush(stdout);
    const absl::Time start = absl::Now();
    const cardref::service::ShutdownSummary summary =
        (*referee)->ShutDownGracefully(config->shutdown_grace);
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
