#include "ladder/run/remote_seats.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "ladder/run/play_match.h"
#include "ladder/tools/remote_entrant.h"
#include "referee/base/status_macros.h"
#include "referee/grpc/organiser_token.h"
#include "tournament/event_state.h"

namespace cardref::ladder::run {
namespace {

void Organiser(const std::optional<std::string>& token,
               grpc::ClientContext* context) {
  grpc_service::AddOrganiserCredential(token, context);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
}

absl::Status FromGrpc(const grpc::Status& s, const std::string& what) {
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()),
                      absl::StrCat(what, ": ", s.error_message()));
}

absl::StatusOr<cardref::v1::ListBotCredentialsResponse> List(
    cardref::v1::Referee::Stub& stub,
    const std::optional<std::string>& organiser_token) {
  cardref::v1::ListBotCredentialsResponse listed;
  grpc::ClientContext context;
  Organiser(organiser_token, &context);
  grpc::Status s = stub.ListBotCredentials(
      &context, cardref::v1::ListBotCredentialsRequest(), &listed);
  if (!s.ok()) return FromGrpc(s, "ListBotCredentials");
  return listed;
}

}  // namespace

absl::StatusOr<std::string> RemoteSeats::EnsureCredential(
    cardref::v1::Referee::Stub& stub,
    const std::optional<std::string>& organiser_token,
    const std::string& player) {
  absl::MutexLock lock(&mu_);
  if (checked_.count(player) > 0) return std::string();
  ASSIGN_OR_RETURN(cardref::v1::ListBotCredentialsResponse listed,
                   List(stub, organiser_token));
  const std::string file = CredentialFile(folder_, player);
  for (const cardref::v1::BotEntrant& e : listed.entrants()) {
    if (e.name() != player) continue;
    checked_.insert(player);
    return absl::StrCat("remote entrant ", player, ": credential ",
                        e.credential_id(), " (issued before, in ", file,
                        "); ", e.streams(), " invitation stream(s) open");
  }
  cardref::v1::IssueBotCredentialRequest request;
  request.set_entrant(player);
  cardref::v1::IssueBotCredentialResponse issued;
  grpc::ClientContext context;
  Organiser(organiser_token, &context);
  grpc::Status s = stub.IssueBotCredential(&context, request, &issued);
  if (!s.ok()) {
    return FromGrpc(s, absl::StrCat("IssueBotCredential for ", player));
  }
  RETURN_IF_ERROR(MakeDir(absl::StrCat(folder_, "/credentials")));
  RETURN_IF_ERROR(tournament::WriteFileAtomically(
      file, absl::StrCat(issued.credential(), "\n"), 0600));
  checked_.insert(player);
  return absl::StrCat("remote entrant ", player, ": its bot credential ",
                      issued.entrant().credential_id(), " is in ", file,
                      " (mode 0600): hand it to its author");
}

absl::StatusOr<int> RemoteSeats::OpenStreams(
    cardref::v1::Referee::Stub& stub,
    const std::optional<std::string>& organiser_token,
    const std::string& player) {
  ASSIGN_OR_RETURN(cardref::v1::ListBotCredentialsResponse listed,
                   List(stub, organiser_token));
  for (const cardref::v1::BotEntrant& e : listed.entrants()) {
    if (e.name() == player) return e.streams();
  }
  return 0;
}

void RemoteSeats::Forget() {
  absl::MutexLock lock(&mu_);
  checked_.clear();
}

}  // namespace cardref::ladder::run
