#include "referee/grpc/referee_service.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "referee/base/hex.h"
#include "referee/codec/game_catalog.h"
#include "referee/codec/unknown_fields.h"
#include "referee/grpc/event_stream.h"
#include "referee/grpc/invitation_stream.h"
#include "referee/grpc/observation_stream.h"
#include "referee/grpc/seat_play_stream.h"

namespace cardref::grpc_service {
namespace {

template <typename T>
absl::Status Store(absl::StatusOr<T> result, T* response) {
  if (!result.ok()) return result.status();
  *response = *std::move(result);
  return absl::OkStatus();
}

}  // namespace

RefereeService::RefereeService(service::MatchManager* manager,
                               const OrganiserAuth* auth, CallGate* gate,
                               RefusalTarpit* tarpit)
    : RawMethods(gate, tarpit), manager_(manager), auth_(auth) {
  ServeRaw("ListGames", &RefereeService::DoListGames);
  ServeRaw("CreateMatch", &RefereeService::DoCreateMatch);
  ServeRaw("JoinMatch", &RefereeService::DoJoinMatch);
  ServeRaw("GetObservation", &RefereeService::DoGetObservation);
  ServeSubmitAction();
  ServeRaw("GetMatch", &RefereeService::DoGetMatch);
  ServeRaw("ListMatches", &RefereeService::DoListMatches);
  ServeRaw("CancelMatch", &RefereeService::DoCancelMatch);
  ServeRaw("AbortMatch", &RefereeService::DoAbortMatch);
  ServeRaw("CloseDealSet", &RefereeService::DoCloseDealSet);
  ServeRaw("ReportBotEnded", &RefereeService::DoReportBotEnded);
  ServeRaw("GetRefereeKey", &RefereeService::DoGetRefereeKey);
  ServeRaw("IssueBotCredential", &RefereeService::DoIssueBotCredential);
  ServeRaw("RevokeBotCredential", &RefereeService::DoRevokeBotCredential);
  ServeRaw("ListBotCredentials", &RefereeService::DoListBotCredentials);
}

absl::Status RefereeService::DoIssueBotCredential(
    const grpc::ServerContextBase& context,
    const v1::IssueBotCredentialRequest& request,
    v1::IssueBotCredentialResponse* response) {
  if (absl::Status st = auth_->Check(context, "IssueBotCredential"); !st.ok())
    return st;
  return Store(manager_->IssueBotCredential(request), response);
}

absl::Status RefereeService::DoRevokeBotCredential(
    const grpc::ServerContextBase& context,
    const v1::RevokeBotCredentialRequest& request,
    v1::RevokeBotCredentialResponse* response) {
  if (absl::Status st = auth_->Check(context, "RevokeBotCredential");
      !st.ok())
    return st;
  return Store(manager_->RevokeBotCredential(request), response);
}

absl::Status RefereeService::DoListBotCredentials(
    const grpc::ServerContextBase& context,
    const v1::ListBotCredentialsRequest& /*request*/,
    v1::ListBotCredentialsResponse* response) {
  if (absl::Status st = auth_->Check(context, "ListBotCredentials"); !st.ok())
    return st;
  *response = manager_->ListBotCredentials();
  return absl::OkStatus();
}

absl::Status RefereeService::DoListGames(
    const grpc::ServerContextBase& /*context*/,
    const v1::ListGamesRequest& /*request*/,
    v1::ListGamesResponse* response) {
  *response = codec::GameCatalog(manager_->registry());
  return absl::OkStatus();
}

absl::Status RefereeService::DoCreateMatch(
    const grpc::ServerContextBase& context,
    const v1::CreateMatchRequest& request, v1::CreateMatchResponse* response) {
  if (absl::Status st = auth_->Check(context, "CreateMatch"); !st.ok())
    return st;
  return Store(manager_->CreateMatch(request), response);  // checks the shape
}

absl::Status RefereeService::DoJoinMatch(
    const grpc::ServerContextBase& /*context*/,
    const v1::JoinMatchRequest& request, v1::JoinMatchResponse* response) {
  return Store(manager_->JoinMatch(request), response);
}

absl::Status RefereeService::DoGetObservation(
    const grpc::ServerContextBase& /*context*/, const v1::SeatRequest& request,
    v1::Observation* response) {
  absl::StatusOr<std::shared_ptr<service::Match>> match =
      manager_->Find(request.match_id());
  if (!match.ok()) return match.status();
  return Store((*match)->Observe(request.seat(), request.token(),
                                 request.since_version()),
               response);
}

absl::Status RefereeService::DoGetMatch(const grpc::ServerContextBase& context,
                                        const v1::GetMatchRequest& request,
                                        v1::MatchInfo* response) {
  absl::StatusOr<v1::MatchInfo> info =
      manager_->Info(request.match_id(), auth_->IsOrganiser(context));
  if (!info.ok()) return info.status();
  *response = *std::move(info);
  return absl::OkStatus();
}

absl::Status RefereeService::DoGetRefereeKey(
    const grpc::ServerContextBase& /*context*/,
    const v1::GetRefereeKeyRequest& /*request*/, v1::RefereeKey* response) {
  const std::string key = manager_->public_key();
  if (key.empty()) {
    return absl::FailedPreconditionError("this referee does not sign its logs");
  }
  response->set_algorithm("ed25519");
  response->set_public_key(key);
  response->set_public_key_hex(ToHex(key));
  return absl::OkStatus();
}

absl::Status RefereeService::DoListMatches(
    const grpc::ServerContextBase& context,
    const v1::ListMatchesRequest& request, v1::ListMatchesResponse* response) {
  if (absl::Status st = auth_->Check(context, "ListMatches"); !st.ok())
    return st;
  return Store(manager_->ListMatches(request), response);
}

absl::Status RefereeService::DoCancelMatch(
    const grpc::ServerContextBase& context, const v1::EndMatchRequest& request,
    v1::MatchInfo* response) {
  if (absl::Status st = auth_->Check(context, "CancelMatch"); !st.ok())
    return st;
  return Store(manager_->CancelMatch(request), response);
}

absl::Status RefereeService::DoAbortMatch(
    const grpc::ServerContextBase& context, const v1::EndMatchRequest& request,
    v1::MatchInfo* response) {
  if (absl::Status st = auth_->Check(context, "AbortMatch"); !st.ok())
    return st;
  return Store(manager_->AbortMatch(request), response);
}

absl::Status RefereeService::DoReportBotEnded(
    const grpc::ServerContextBase& context,
    const v1::ReportBotEndedRequest& request, v1::MatchInfo* response) {
  if (absl::Status st = auth_->Check(context, "ReportBotEnded"); !st.ok())
    return st;
  return Store(manager_->ReportBotEnded(request), response);
}

absl::Status RefereeService::DoCloseDealSet(
    const grpc::ServerContextBase& context,
    const v1::CloseDealSetRequest& request,
    v1::CloseDealSetResponse* response) {
  if (absl::Status st = auth_->Check(context, "CloseDealSet"); !st.ok())
    return st;
  return Store(manager_->CloseDealSet(request), response);
}

void RefereeService::ServeSubmitAction() {
  MarkRaw("SubmitAction", [this](grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* raw,
                                 grpc::ByteBuffer* out) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    v1::SubmitActionRequest request;
    absl::Status st = raw_methods_internal::ParseAndAdmit(
        *raw, &request, [&](absl::string_view token) {
      return Admit(*context, token);
    });
    absl::StatusOr<std::shared_ptr<service::Match>> match =
        st.ok() ? manager_->Find(request.match_id()) : st;
    if (!match.ok()) {
      Answer(*context, reactor, ToGrpcStatus(match.status()), request.token());
      return reactor;
    }
    // The call, its context and `out` live until the reactor is finished,
    // on whichever thread that happens.
    service::Match::SubmitThen(
        *match, request,
        [this, context, reactor, out, token = request.token()](
            absl::StatusOr<v1::SubmitActionResponse> result) {
          absl::Status answer = result.status();
          if (answer.ok()) answer = SerializeResponse(*result, out);
          Answer(*context, reactor, ToGrpcStatus(answer), token);
        });
    return reactor;
  });
}

grpc::ServerWriteReactor<v1::Observation>* RefereeService::WatchObservations(
    grpc::CallbackServerContext* context, const v1::SeatRequest* request) {
  if (absl::Status st = Admit(*context, request->token()); !st.ok()) {
    return new ErrorWriter<v1::Observation>(st);
  }
  if (absl::Status st = codec::CheckNoUnknownFields(*request); !st.ok()) {
    return new ErrorWriter<v1::Observation>(st);
  }
  absl::StatusOr<std::shared_ptr<service::Match>> match =
      manager_->Find(request->match_id());
  if (!match.ok()) return new ErrorWriter<v1::Observation>(match.status());
  // Authenticate before streaming anything. Only that: the first message,
  // built by the writer, starts the decision's clock once it is written.
  if (absl::Status st =
          (*match)->Authenticate(request->seat(), request->token());
      !st.ok()) {
    return new ErrorWriter<v1::Observation>(st);
  }
  service::StreamSlot slot;
  if (gate_ != nullptr) {
    absl::StatusOr<service::StreamSlot> acquired =
        gate_->OpenSeatStream(request->match_id(), request->seat());
    if (!acquired.ok()) {
      return new ErrorWriter<v1::Observation>(acquired.status());
    }
    slot = *std::move(acquired);
  }
  return NewObservationStream(*match, request->seat(), request->token(),
                              request->since_version(), std::move(slot));
}

grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
RefereeService::PlaySeat(grpc::CallbackServerContext* context) {
  SeatPlayDeps deps;
  deps.manager = manager_;
  deps.gate = gate_;
  // The context outlives the stream's reactor. The stream's messages come
  // one at a time with the same token: its keys are worked out once.
  deps.admit = [gate = gate_, context, keyed = std::string(),
                keys = std::optional<CallGate::CallerKeys>()](
                   absl::string_view token) mutable {
    if (gate == nullptr) return absl::OkStatus();
    if (!keys.has_value() || keyed != token) {
      keys = gate->KeysOf(*context, token);
      keyed = std::string(token);
    }
    return gate->Admit(*keys);
  };
  return NewSeatPlayStream(std::move(deps));
}

grpc::ServerWriteReactor<v1::MatchEvent>* RefereeService::StartEventStream(
    const grpc::ServerContextBase& context,
    const v1::WatchMatchRequest* request, service::Audience audience) {
  if (absl::Status st = codec::CheckNoUnknownFields(*request); !st.ok()) {
    return new ErrorWriter<v1::MatchEvent>(st);
  }
  if (audience == service::Audience::kOrganiser &&
      request->delay_decisions() != 0) {
    return new ErrorWriter<v1::MatchEvent>(absl::InvalidArgumentError(
        "delay_decisions is for the spectators' stream (WatchMatch)"));
  }
  absl::StatusOr<std::shared_ptr<service::Match>> match =
      manager_->Find(request->match_id());
  if (!match.ok()) return new ErrorWriter<v1::MatchEvent>(match.status());
  if (audience == service::Audience::kSpectator) {
    if (absl::Status st = manager_->CheckPublic(**match); !st.ok()) {
      return new ErrorWriter<v1::MatchEvent>(st);
    }
  }
  std::vector<service::StreamSlot> slots;
  if (gate_ != nullptr) {
    absl::StatusOr<std::vector<service::StreamSlot>> acquired =
        gate_->OpenEventStream(context,
                               audience == service::Audience::kOrganiser);
    if (!acquired.ok())
      return new ErrorWriter<v1::MatchEvent>(acquired.status());
    slots = *std::move(acquired);
  }
  return NewEventStream(*std::move(match), audience, request->after_index(),
                        request->delay_decisions(), std::move(slots),
                        manager_->metrics());
}

grpc::ServerWriteReactor<v1::MatchEvent>* RefereeService::WatchMatchFull(
    grpc::CallbackServerContext* context,
    const v1::WatchMatchRequest* request) {
  if (absl::Status st = Admit(*context, ""); !st.ok()) {
    return new ErrorWriter<v1::MatchEvent>(st);
  }
  if (absl::Status st = auth_->Check(*context, "WatchMatchFull"); !st.ok()) {
    return new ErrorWriter<v1::MatchEvent>(st);
  }
  return StartEventStream(*context, request, service::Audience::kOrganiser);
}

grpc::ServerWriteReactor<v1::InvitationEvent>*
RefereeService::WatchInvitations(grpc::CallbackServerContext* context,
                                 const v1::WatchInvitationsRequest* request) {
  // Keyed by the credential: a flood spends its own bucket.
  if (absl::Status st = Admit(*context, request->credential()); !st.ok()) {
    return new ErrorWriter<v1::InvitationEvent>(st);
  }
  if (absl::Status st = codec::CheckNoUnknownFields(*request); !st.ok()) {
    return new ErrorWriter<v1::InvitationEvent>(st);
  }
  return NewInvitationStream(manager_, *request);
}

grpc::ServerWriteReactor<v1::MatchEvent>* RefereeService::WatchMatch(
    grpc::CallbackServerContext* context,
    const v1::WatchMatchRequest* request) {
  if (absl::Status st = Admit(*context, ""); !st.ok()) {
    return new ErrorWriter<v1::MatchEvent>(st);
  }
  return StartEventStream(*context, request, service::Audience::kSpectator);
}

}  // namespace cardref::grpc_service
