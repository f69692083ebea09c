// The gRPC face of the referee: translates requests to MatchManager calls
// and absl::Status to grpc::Status, nothing else (no rules, no clocks).
// Uses the callback API; no handler blocks on a bot.
#ifndef CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_
#define CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/grpc/call_gate.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/organiser_auth.h"
#include "referee/grpc/raw_methods.h"
#include "referee/grpc/refusal_tarpit.h"
#include "referee/service/match_manager.h"

namespace cardref::grpc_service {

// The unary methods are registered raw (raw_methods.h): each handler below
// gets a parsed request that has passed the call gate and the unknown-field
// check.
class RefereeService final : public RawMethods {
 public:
  // None is owned; all outlive the service. Without a gate no call is
  // rate-limited and no stream is capped; without a tarpit every refusal is
  // answered at once.
  RefereeService(service::MatchManager* manager, const OrganiserAuth* auth,
                 CallGate* gate = nullptr, RefusalTarpit* tarpit = nullptr);

  grpc::ServerWriteReactor<v1::Observation>* WatchObservations(
      grpc::CallbackServerContext* context,
      const v1::SeatRequest* request) override;
  grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
  PlaySeat(grpc::CallbackServerContext* context) override;
  grpc::ServerWriteReactor<v1::MatchEvent>* WatchMatchFull(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request) override;
  grpc::ServerWriteReactor<v1::MatchEvent>* WatchMatch(
      grpc::CallbackServerContext* context,
      const v1::WatchMatchRequest* request) override;
  grpc::ServerWriteReactor<v1::InvitationEvent>* WatchInvitations(
      grpc::CallbackServerContext* context,
      const v1::WatchInvitationsRequest* request) override;

 private:
  grpc::ServerWriteReactor<v1::MatchEvent>* StartEventStream(
      const grpc::ServerContextBase& context,
      const v1::WatchMatchRequest* request, service::Audience audience);
  // SubmitAction, registered raw like the others, but answered when the
  // match says (Match::SubmitThen): after a round's sync, from the thread
  // that waited for the disk, not from one of gRPC's.
  void ServeSubmitAction();

  // The handlers behind the raw methods, on parsed requests that have
  // passed the call gate and the unknown-field check (Serve).
  absl::Status DoListGames(const grpc::ServerContextBase& context,
                           const v1::ListGamesRequest& request,
                           v1::ListGamesResponse* response);
  absl::Status DoCreateMatch(const grpc::ServerContextBase& context,
                             const v1::CreateMatchRequest& request,
                             v1::CreateMatchResponse* response);
  absl::Status DoJoinMatch(const grpc::ServerContextBase& context,
                           const v1::JoinMatchRequest& request,
                           v1::JoinMatchResponse* response);
  absl::Status DoGetObservation(const grpc::ServerContextBase& context,
                                const v1::SeatRequest& request,
                                v1::Observation* response);
  absl::Status DoGetMatch(const grpc::ServerContextBase& context,
                          const v1::GetMatchRequest& request,
                          v1::MatchInfo* response);
  absl::Status DoListMatches(const grpc::ServerContextBase& context,
                             const v1::ListMatchesRequest& request,
                             v1::ListMatchesResponse* response);
  absl::Status DoCancelMatch(const grpc::ServerContextBase& context,
                             const v1::EndMatchRequest& request,
                             v1::MatchInfo* response);
  absl::Status DoAbortMatch(const grpc::ServerContextBase& context,
                            const v1::EndMatchRequest& request,
                            v1::MatchInfo* response);
  absl::Status DoReportBotEnded(const grpc::ServerContextBase& context,
                                const v1::ReportBotEndedRequest& request,
                                v1::MatchInfo* response);
  absl::Status DoCloseDealSet(const grpc::ServerContextBase& context,
                              const v1::CloseDealSetRequest& request,
                              v1::CloseDealSetResponse* response);
  absl::Status DoGetRefereeKey(const grpc::ServerContextBase& context,
                               const v1::GetRefereeKeyRequest& request,
                               v1::RefereeKey* response);
  absl::Status DoIssueBotCredential(
      const grpc::ServerContextBase& context,
      const v1::IssueBotCredentialRequest& request,
      v1::IssueBotCredentialResponse* response);
  absl::Status DoRevokeBotCredential(
      const grpc::ServerContextBase& context,
      const v1::RevokeBotCredentialRequest& request,
      v1::RevokeBotCredentialResponse* response);
  absl::Status DoListBotCredentials(
      const grpc::ServerContextBase& context,
      const v1::ListBotCredentialsRequest& request,
      v1::ListBotCredentialsResponse* response);
  service::MatchManager* manager_;
  const OrganiserAuth* auth_;
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_
