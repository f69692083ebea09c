// cardref_referee_admin: the organiser's bot credentials on a running
// referee (docs/auth.md, "Bot credentials"; docs/bots.md, "Invitations").
//
//   cardref_referee_admin issue --server=HOST:PORT --entrant=NAME
//       [--latency_allowance_ms=N] [--replace] [--credential_file=FILE]
//   cardref_referee_admin revoke --server=HOST:PORT --entrant=NAME
//       [--reason=TEXT]
//   cardref_referee_admin list --server=HOST:PORT
//
// The organiser credential comes from --organiser_token_file or
// $CARDREF_ORGANISER_TOKEN, never from the command line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/organiser_token.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, server, "localhost:50051", "The referee's address");
ABSL_FLAG(std::string, tls_ca, "",
          "PEM CA certificates: connect with TLS, trusting these (a referee "
          "run with --tls_cert)");
ABSL_FLAG(std::string, organiser_token_file, "",
          "File holding the organiser's bearer token (mode 600); else "
          "$CARDREF_ORGANISER_TOKEN; none for a loopback referee without one");
ABSL_FLAG(std::string, entrant, "",
          "issue, revoke: the entrant (the player name the credential binds)");
ABSL_FLAG(int64_t, latency_allowance_ms, 0,
          "issue: added to the entrant's decision limit in every match (a "
          "remote bot's network delay), recorded in each log header");
ABSL_FLAG(bool, replace, false,
          "issue: replace the entrant's credential (the old one is revoked)");
ABSL_FLAG(std::string, credential_file, "",
          "issue: write the credential to this new file (mode 0600) instead "
          "of stdout");
ABSL_FLAG(std::string, reason, "",
          "revoke: why, told to the entrant's streams (at most 200 "
          "characters)");

namespace {

constexpr char kUsage[] =
    "Issues, revokes and lists bot credentials on a running cardref referee "
    "(docs/auth.md, \"Bot credentials\").\n"
    "Usage:\n"
    "  cardref_referee_admin issue --server=HOST:PORT --entrant=NAME\n"
    "      [--latency_allowance_ms=N] [--replace] [--credential_file=FILE]\n"
    "      Prints the new credential (only now: the referee keeps its hash)\n"
    "      on stdout, or writes it to FILE.\n"
    "  cardref_referee_admin revoke --server=HOST:PORT --entrant=NAME\n"
    "      [--reason=TEXT]\n"
    "      Its invitation streams end and its seats in matches not over are\n"
    "      closed (the fault policy plays them).\n"
    "  cardref_referee_admin list --server=HOST:PORT\n"
    "The organiser credential: --organiser_token_file or "
    "$CARDREF_ORGANISER_TOKEN.\n"
    "Exit status: 0 on success, 1 on an error, 2 on a usage error.\n";

int Fail(const std::string& command, const grpc::Status& status) {
  std::fprintf(stderr, "cardref_referee_admin %s: %s (%d)\n", command.c_str(),
               status.error_message().c_str(),
               static_cast<int>(status.error_code()));
  return status.error_code() == grpc::StatusCode::INVALID_ARGUMENT
             ? cardref::cli::kExitUsage
             : 1;
}

std::string Describe(const cardref::v1::BotEntrant& e) {
  return absl::StrCat(
      e.name(), "\tcredential ", e.credential_id(), "\tlatency allowance ",
      e.latency_allowance_millis(), " ms\tissued ",
      absl::FormatTime("%Y-%m-%dT%H:%M:%SZ",
                       absl::FromUnixMillis(e.issued_unix_millis()),
                       absl::UTCTimeZone()),
      "\tstreams ", e.streams(), "\tinvitations ", e.invitations(),
      "\tqueued ", e.queued());
}

// Writes `secret` to a new file `path`, mode 0600 whatever the umask.
bool WriteNewSecretFile(const std::string& path, const std::string& secret) {
  const int fd =
      open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::fprintf(stderr, "cardref_referee_admin issue: cannot create %s: %s\n",
                 path.c_str(), std::strerror(errno));
    return false;
  }
  const std::string text = secret + "\n";
  const bool ok = fchmod(fd, 0600) == 0 &&
                  write(fd, text.data(), text.size()) ==
                      static_cast<ssize_t>(text.size()) &&
                  fsync(fd) == 0;
  close(fd);
  if (!ok) {
    std::fprintf(stderr, "cardref_referee_admin issue: cannot write %s\n",
                 path.c_str());
  }
  return ok;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args =
      cardref::cli::ParseFlagsOrExit(argc, argv, kUsage);
  if (args.size() != 1) {
    std::fprintf(stderr,
                 "cardref_referee_admin takes one command (issue, revoke, "
                 "list), got %zu\n\n%s",
                 args.size(), kUsage);
    return cardref::cli::kExitUsage;
  }
  const std::string& command = args[0];
  if (command != "issue" && command != "revoke" && command != "list") {
    std::fprintf(stderr, "unknown command '%s'\n\n%s", command.c_str(),
                 kUsage);
    return cardref::cli::kExitUsage;
  }
  if (command != "list" && absl::GetFlag(FLAGS_entrant).empty()) {
    std::fprintf(stderr, "cardref_referee_admin %s needs --entrant=NAME\n",
                 command.c_str());
    return cardref::cli::kExitUsage;
  }
  absl::StatusOr<std::optional<std::string>> token =
      cardref::grpc_service::LoadOrganiserToken(
          absl::GetFlag(FLAGS_organiser_token_file));
  if (!token.ok()) {
    std::fprintf(stderr, "cardref_referee_admin: %s\n",
                 std::string(token.status().message()).c_str());
    return cardref::cli::kExitUsage;
  }
  std::shared_ptr<grpc::ChannelCredentials> channel_credentials =
      grpc::InsecureChannelCredentials();
  if (const std::string ca = absl::GetFlag(FLAGS_tls_ca); !ca.empty()) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = ReadFile(ca);
    if (ssl.pem_root_certs.empty()) {
      std::fprintf(stderr, "cardref_referee_admin: cannot read --tls_ca %s\n",
                   ca.c_str());
      return cardref::cli::kExitUsage;
    }
    channel_credentials = grpc::SslCredentials(ssl);
  }
  auto stub = cardref::v1::Referee::NewStub(
      grpc::CreateChannel(absl::GetFlag(FLAGS_server), channel_credentials));
  grpc::ClientContext context;
  cardref::grpc_service::AddOrganiserCredential(*token, &context);
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::seconds(10));
  context.set_wait_for_ready(true);

  if (command == "issue") {
    const std::string file = absl::GetFlag(FLAGS_credential_file);
    if (!file.empty() && access(file.c_str(), F_OK) == 0) {
      std::fprintf(stderr,
                   "cardref_referee_admin issue: %s exists; give a new file\n",
                   file.c_str());
      return cardref::cli::kExitUsage;
    }
    cardref::v1::IssueBotCredentialRequest request;
    request.set_entrant(absl::GetFlag(FLAGS_entrant));
    request.set_latency_allowance_millis(
        absl::GetFlag(FLAGS_latency_allowance_ms));
    request.set_replace(absl::GetFlag(FLAGS_replace));
    cardref::v1::IssueBotCredentialResponse response;
    const grpc::Status s = stub->IssueBotCredential(&context, request, &response);
    if (!s.ok()) return Fail(command, s);
    if (file.empty()) {
      std::printf("%s\n", response.credential().c_str());
    } else if (!WriteNewSecretFile(file, response.credential())) {
      return 1;
    }
    std::fprintf(stderr, "issued: %s%s\n",
                 Describe(response.entrant()).c_str(),
                 file.empty() ? "" : absl::StrCat("\tin ", file).c_str());
    return 0;
  }
  if (command == "revoke") {
    cardref::v1::RevokeBotCredentialRequest request;
    request.set_entrant(absl::GetFlag(FLAGS_entrant));
    request.set_reason(absl::GetFlag(FLAGS_reason));
    cardref::v1::RevokeBotCredentialResponse response;
    const grpc::Status s =
        stub->RevokeBotCredential(&context, request, &response);
    if (!s.ok()) return Fail(command, s);
    std::printf("revoked: %s\tstreams ended %d\tseats closed %d\n",
                response.entrant().name().c_str(), response.streams_ended(),
                response.seats_closed());
    return 0;
  }
  cardref::v1::ListBotCredentialsResponse response;
  const grpc::Status s = stub->ListBotCredentials(
      &context, cardref::v1::ListBotCredentialsRequest(), &response);
  if (!s.ok()) return Fail(command, s);
  for (const cardref::v1::BotEntrant& e : response.entrants()) {
    std::printf("%s\n", Describe(e).c_str());
  }
  return 0;
}
