// cardref_referee: the gRPC referee server.
//
//   cardref_referee --port=50051 --log_dir=logs
//
// Serves cardref.v1.Referee (proto/cardref/v1/referee.proto) with gRPC
// health checking and server reflection. Every match is logged to
// <log_dir>/<match_id>.cardlog as it is played. SIGINT/SIGTERM shut down
// gracefully: matches still in progress are logged as aborted.
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
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"
#include "referee/grpc/server.h"
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
ABSL_FLAG(std::string, organiser_token_file, "",
          "File holding the organiser's bearer token (mode 600); else "
          "$CARDREF_ORGANISER_TOKEN; with neither, only loopback is served "
          "and every local caller is the organiser (docs/auth.md)");
ABSL_FLAG(std::string, tls_cert, "",
          "PEM certificate chain: serve TLS (needs --tls_key)");
ABSL_FLAG(std::string, tls_key, "", "PEM private key for --tls_cert");
ABSL_FLAG(std::string, tls_client_ca, "",
          "PEM CA certificates: require a client certificate signed by one");

int main(int argc, char** argv) {
  cardref::cli::ParseFlagsWithoutArgsOrExit(
      argc, argv, "cardref_referee",
      "The cardref referee: a gRPC server that runs card-game matches "
      "between bots, validates every move and logs every game.\n"
      "Usage: cardref_referee [--host=localhost] [--port=50051] "
      "[--log_dir=logs]");

  const std::string log_dir = absl::GetFlag(FLAGS_log_dir);

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
  options.manager.default_decision_time_limit_millis =
      absl::GetFlag(FLAGS_decision_time_limit_ms);
  options.manager.max_decision_time_limit_millis =
      absl::GetFlag(FLAGS_max_decision_time_limit_ms);
  options.manager.referee_version = cardref::kVersion;
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
  std::fflush(stdout);
  if (const std::string path = absl::GetFlag(FLAGS_port_file); !path.empty()) {
    std::ofstream(path) << (*referee)->port() << "\n";
  }

  std::thread waiter([&] {
    int sig = 0;
    sigwait(&signals, &sig);
    std::printf("cardref_referee: signal %d, shutting down\n", sig);
    std::fflush(stdout);
    (*referee)->Shutdown(absl::Seconds(2));
  });
  (*referee)->server().Wait();
  waiter.join();
  referee->reset();  // logs unfinished matches as aborted
  return 0;
}
