// The gRPC face of the referee: translates requests to MatchManager calls
// and absl::Status to grpc::Status, nothing else (no rules, no clocks).
// Uses the callback API; no handler blocks on a bot.
#ifndef CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_
#define CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/match_manager.h"

namespace cardref::grpc_service {

// absl -> gRPC, code and message unchanged (the codes share numbering).
grpc::Status ToGrpcStatus(const absl::Status& status);

class RefereeService final : public v1::Referee::CallbackService {
 public:
  explicit RefereeService(service::MatchManager* manager)
      : manager_(manager) {}

  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* context,
                                      const v1::ListGamesRequest* request,
                                      v1::ListGamesResponse* response) override;
  grpc::ServerUnaryReactor* CreateMatch(
      grpc::CallbackServerContext* context,
      const v1::CreateMatchRequest* request,
      v1::CreateMatchResponse* response) override;
  grpc::ServerUnaryReactor* JoinMatch(grpc::CallbackServerContext* context,
                                      const v1::JoinMatchRequest* request,
                                      v1::JoinMatchResponse* response) override;
  grpc::ServerUnaryReactor* GetObservation(
      grpc::CallbackServerContext* context, const v1::SeatRequest* request,
      v1::Observation* response) override;
  grpc::ServerUnaryReactor* SubmitAction(
      grpc::CallbackServerContext* context,
      const v1::SubmitActionRequest* request,
      v1::SubmitActionResponse* response) override;
  grpc::ServerWriteReactor<v1::Observation>* WatchObservations(
      grpc::CallbackServerContext* context,
      const v1::SeatRequest* request) override;
  grpc::ServerUnaryReactor* GetMatch(grpc::CallbackServerContext* context,
                                     const v1::GetMatchRequest* request,
                                     v1::MatchInfo* response) override;
  grpc::ServerUnaryReactor* GetRefereeKey(
      grpc::CallbackServerContext* context,
      const v1::GetRefereeKeyRequest* request,
      v1::RefereeKey* response) override;

 private:
  service::MatchManager* manager_;  // not owned
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_REFEREE_SERVICE_H_
