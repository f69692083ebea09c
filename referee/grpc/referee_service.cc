#include "referee/grpc/referee_service.h"

#include <memory>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "google/protobuf/descriptor.h"
#include "referee/base/hex.h"
#include "referee/base/status_macros.h"
#include "referee/codec/arena_message.h"
#include "referee/codec/codec.h"
#include "referee/codec/game_catalog.h"
#include "referee/codec/known_fields_scan.h"
#include "referee/codec/unknown_fields.h"
#include "referee/service/request_shape.h"
#include "referee/grpc/event_stream.h"
#include "referee/grpc/raw_request.h"

namespace cardref::grpc_service {

namespace {

// The seat token a request carries, if its message has one: the tarpit
// (refusal_tarpit.h) counts a seat's refusals apart from its neighbours'.
template <typename Request>
auto RequestToken(const Request& request, int)
    -> decltype(request.token(), absl::string_view()) {
  return request.token();
}
template <typename Request>
absl::string_view RequestToken(const Request& /*request*/, long) {
  return {};
}

// The token the call gate keys a request by: the seat token, or for a join
// the invitation ticket; none for the rest (keyed by the caller's address).
template <typename Request>
absl::string_view AdmissionToken(const Request& request) {
  return RequestToken(request, 0);
}
absl::string_view AdmissionToken(const v1::JoinMatchRequest& request) {
  return request.ticket();
}

// Size caps that must hold before a reflection walk, which visits every map
// entry: CreateMatch's; none for the others.
template <typename Request>
absl::Status CapsBeforeWalk(const Request& /*request*/) {
  return absl::OkStatus();
}
absl::Status CapsBeforeWalk(const v1::CreateMatchRequest& request) {
  return service::CheckCreateMatchShape(request);
}

// INVALID_ARGUMENT naming a field this schema does not know. The wire scan
// clears a well-formed request in one pass over its bytes; only what it
// cannot clear is walked by reflection, which names the field (the walk
// was 2.6% of the referee's CPU per decision: issue 12).
template <typename Request>
absl::Status CheckRequestFields(absl::string_view wire,
                                const Request& request) {
  thread_local codec::KnownFieldsScan scan;  // caches per-type tables
  if (scan.OnlyKnownFields(wire, Request::descriptor())) {
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(CapsBeforeWalk(request));
  return codec::CheckNoUnknownFields(request);
}

// A raw request parsed, through the call gate (`admit`), so a flood is
// refused before it costs more than a parse, then the unknown-field check.
template <typename Request, typename Admit>
absl::Status ParseAndAdmit(const grpc::ByteBuffer& raw, Request* request,
                           Admit admit) {
  const RequestBytes bytes(raw);
  absl::Status st = ParseRequest(bytes.view(), request);
  if (st.ok()) st = admit(AdmissionToken(*request));
  if (st.ok()) st = CheckRequestFields(bytes.view(), *request);
  return st;
}

// Every unary method is registered raw: the referee parses the request
// itself, so bytes that do not decode get INVALID_ARGUMENT naming the
// expected message (raw_request.h), not gRPC's bare UNIMPLEMENTED. Then
// the call gate (`admit`), so a flood is refused before it costs more than
// a parse, then the unknown-field check, then the method. `answer`
// finishes the call, now or (a refusal) later.
template <typename Request, typename Response, typename Admit,
          typename Handle, typename Answer>
grpc::ServerUnaryReactor* Serve(grpc::CallbackServerContext* context,
                                const grpc::ByteBuffer& raw,
                                grpc::ByteBuffer* out, Admit admit,
                                Handle handle, Answer answer) {
  Request request;
  Response response;
  absl::Status st = ParseAndAdmit(raw, &request, admit);
  if (st.ok()) st = handle(request, &response);
  if (st.ok()) st = SerializeResponse(response, out);
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  answer(reactor, ToGrpcStatus(st), RequestToken(request, 0));
  return reactor;
}

template <typename T>
absl::Status Store(absl::StatusOr<T> result, T* response) {
  if (!result.ok()) return result.status();
  *response = *std::move(result);
  return absl::OkStatus();
}

// The first block of a stream's observation arena: a Kraken or Krass
// Kariert observation with its legal actions takes 2 to 4 KiB.
constexpr size_t kStreamArenaBytes = 4096;

// Streams a seat's observation each time it must act, and once at the end.
class ObservationWriter : public grpc::ServerWriteReactor<v1::Observation> {
 public:
  ObservationWriter(std::shared_ptr<service::Match> match, int seat,
                    std::string token, uint64_t since_version,
                    service::StreamSlot slot)
      : slot_(std::move(slot)),
        match_(std::move(match)),
        seat_(seat),
        token_(std::move(token)),
        since_version_(since_version) {
    match_->StreamOpened(seat_);  // disconnect detection (fault policy)
    watcher_ = match_->AddWatcher([this] { MaybeWrite(); });
    MaybeWrite();
  }

  void OnWriteDone(bool ok) override {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (!ok) {
      FinishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                "the stream broke while writing"));
      return;
    }
    if (final_sent_) {
      FinishLocked(grpc::Status::OK);
      return;
    }
    // The seat's decision clock starts now, not when the message was built:
    // a busy referee's delay in sending it is not the seat's (issue 12).
    match_->Delivered(seat_, last_version_);
    WriteIfDueLocked();
  }

  void OnCancel() override {
    absl::MutexLock lock(&mu_);
    if (!writing_) FinishLocked(grpc::Status::CANCELLED);
    cancelled_ = true;
  }

  void OnDone() override {
    match_->RemoveWatcher(watcher_);
    // After the watcher is gone: a disconnect may play for the seat.
    match_->StreamClosed(seat_);
    delete this;
  }

 private:
  void MaybeWrite() {
    absl::MutexLock lock(&mu_);
    WriteIfDueLocked();
  }

  void WriteIfDueLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (writing_ || finished_) return;
    if (cancelled_) {
      FinishLocked(grpc::Status::CANCELLED);
      return;
    }
    // Cheap check first: most changes are another seat's business.
    const service::Match::Progress progress = match_->progress();
    const bool over = progress.status == v1::MATCH_STATUS_FINISHED ||
                      progress.status == v1::MATCH_STATUS_ABORTED;
    if (!(over || progress.seat_to_act == seat_) ||
        progress.version == last_version_) {
      return;
    }
    // No write is in flight, so gRPC holds no pointer into the last one.
    v1::Observation& obs = pending_.Fresh();
    if (absl::Status st =
            match_->ObserveInto(seat_, token_, since_version_, &obs,
                                service::Match::Shown::kWhenDelivered);
        !st.ok()) {
      FinishLocked(ToGrpcStatus(st));
      return;
    }
    last_version_ = obs.version();
    since_version_ = obs.version();  // the next message's actions follow
    final_sent_ = over;
    writing_ = true;
    StartWrite(&obs);
  }

  void FinishLocked(grpc::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (finished_) return;
    finished_ = true;
    Finish(std::move(status));
  }

  service::StreamSlot slot_;  // given back when the stream is done
  const std::shared_ptr<service::Match> match_;
  const int seat_;
  const std::string token_;
  int watcher_ = -1;
  absl::Mutex mu_;
  // Each observation is built on an arena and dropped before the next, so
  // building and freeing one costs a few allocations at most instead of
  // one per field (issue 12).
  codec::ArenaMessage<v1::Observation, kStreamArenaBytes> pending_
      ABSL_GUARDED_BY(mu_);
  uint64_t last_version_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t since_version_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool final_sent_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

absl::Status RefereeService::Admit(const grpc::ServerContextBase& context,
                                   absl::string_view token) {
  return gate_ == nullptr ? absl::OkStatus() : gate_->Admit(context, token);
}

template <typename Handler>
void RefereeService::MarkRaw(const char* name, Handler handler) {
  // The generated code numbers methods in the order of referee.proto, as
  // the descriptor does.
  const google::protobuf::MethodDescriptor* method =
      v1::ListGamesRequest::descriptor()
          ->file()
          ->FindServiceByName("Referee")
          ->FindMethodByName(name);
  MarkMethodRawCallback(
      method->index(),
      new grpc::internal::CallbackUnaryHandler<grpc::ByteBuffer,
                                               grpc::ByteBuffer>(
          std::move(handler)));
}

template <typename Request, typename Response>
void RefereeService::ServeRaw(
    const char* name,
    absl::Status (RefereeService::*handle)(const grpc::ServerContextBase&,
                                           const Request&, Response*)) {
  MarkRaw(name, [this, handle](grpc::CallbackServerContext* context,
                               const grpc::ByteBuffer* raw,
                               grpc::ByteBuffer* out) {
    return Serve<Request, Response>(
        context, *raw, out,
        [&](absl::string_view token) { return Admit(*context, token); },
        [&](const Request& request, Response* response) {
          return (this->*handle)(*context, request, response);
        },
        [&](grpc::ServerUnaryReactor* reactor, grpc::Status status,
            absl::string_view token) {
          Answer(*context, reactor, std::move(status), token);
        });
  });
}

void RefereeService::Answer(const grpc::ServerContextBase& context,
                            grpc::ServerUnaryReactor* reactor,
                            grpc::Status status, absl::string_view token) {
  if (tarpit_ == nullptr || status.ok() || !tarpit_->enabled()) {
    reactor->Finish(std::move(status));
    return;
  }
  // A refused credential is not the caller's: its refusals are charged to
  // the caller's address, or a flooder sending a new made-up token with
  // every call would get a new free quota each time.
  const bool credential_refused =
      status.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
      status.error_code() == grpc::StatusCode::PERMISSION_DENIED;
  std::string caller;
  if (gate_ == nullptr) {
    caller = context.peer();
  } else if (credential_refused) {
    caller = gate_->AddressKey(context);
  } else {
    caller = gate_->CallerKey(context, token);
  }
  tarpit_->Finish(reactor, std::move(status), caller);
}

RefereeService::RefereeService(service::MatchManager* manager,
                               const OrganiserAuth* auth, CallGate* gate,
                               RefusalTarpit* tarpit)
    : manager_(manager), auth_(auth), gate_(gate), tarpit_(tarpit) {
  ServeRaw("ListGames", &RefereeService::DoListGames);
  ServeRaw("CreateMatch", &RefereeService::DoCreateMatch);
  ServeRaw("JoinMatch", &RefereeService::DoJoinMatch);
  ServeRaw("GetObservation", &RefereeService::DoGetObservation);
  ServeSubmitAction();
  ServeRaw("GetMatch", &RefereeService::DoGetMatch);
  ServeRaw("ListMatches", &RefereeService::DoListMatches);
  ServeRaw("CancelMatch", &RefereeService::DoCancelMatch);
  ServeRaw("AbortMatch", &RefereeService::DoAbortMatch);
  ServeRaw("GetRefereeKey", &RefereeService::DoGetRefereeKey);
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

void RefereeService::ServeSubmitAction() {
  MarkRaw("SubmitAction", [this](grpc::CallbackServerContext* context,
                                 const grpc::ByteBuffer* raw,
                                 grpc::ByteBuffer* out) {
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    v1::SubmitActionRequest request;
    absl::Status st = ParseAndAdmit(*raw, &request, [&](absl::string_view token) {
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
  return new ObservationWriter(*match, request->seat(), request->token(),
                               request->since_version(), std::move(slot));
}

grpc::ServerWriteReactor<v1::MatchEvent>* RefereeService::StartEventStream(
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
  service::StreamSlot slot;
  if (gate_ != nullptr) {
    absl::StatusOr<service::StreamSlot> acquired = gate_->OpenEventStream();
    if (!acquired.ok())
      return new ErrorWriter<v1::MatchEvent>(acquired.status());
    slot = *std::move(acquired);
  }
  return NewEventStream(*std::move(match), audience, request->after_index(),
                        request->delay_decisions(), std::move(slot),
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
  return StartEventStream(request, service::Audience::kOrganiser);
}

grpc::ServerWriteReactor<v1::MatchEvent>* RefereeService::WatchMatch(
    grpc::CallbackServerContext* context,
    const v1::WatchMatchRequest* request) {
  if (absl::Status st = Admit(*context, ""); !st.ok()) {
    return new ErrorWriter<v1::MatchEvent>(st);
  }
  return StartEventStream(request, service::Audience::kSpectator);
}

}  // namespace cardref::grpc_service
