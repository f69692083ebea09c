// The plumbing behind the referee's unary methods, so that the handlers
// (referee_service.cc) only translate requests to MatchManager calls.
//
// Every unary method is registered raw and parses its request itself, so
// bytes that do not decode get INVALID_ARGUMENT naming the expected message
// (raw_request.h); gRPC 1.51's own parse would answer UNIMPLEMENTED with no
// message. Then the call gate, so a flood is refused before it costs more
// than a parse, then the unknown-field check, then the handler; a refusal
// is answered through the tarpit (refusal_tarpit.h). Each unary method's
// handler is replaced here, not through the generated
// WithRawCallbackMethod_* mixins, whose raw overloads hide the typed ones
// (-Woverloaded-virtual). The streaming methods stay typed.
#ifndef CARDREF_REFEREE_GRPC_RAW_METHODS_H_
#define CARDREF_REFEREE_GRPC_RAW_METHODS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/status_macros.h"
#include "referee/codec/known_fields_scan.h"
#include "referee/codec/unknown_fields.h"
#include "referee/grpc/call_gate.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/raw_request.h"
#include "referee/grpc/refusal_tarpit.h"
#include "referee/service/request_shape.h"

namespace cardref::grpc_service {

namespace raw_methods_internal {

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
inline absl::string_view AdmissionToken(const v1::JoinMatchRequest& request) {
  return request.ticket();
}

// Size caps that must hold before a reflection walk, which visits every map
// entry: CreateMatch's; none for the others.
template <typename Request>
absl::Status CapsBeforeWalk(const Request& /*request*/) {
  return absl::OkStatus();
}
inline absl::Status CapsBeforeWalk(const v1::CreateMatchRequest& request) {
  return service::CheckCreateMatchShape(request);
}

// INVALID_ARGUMENT naming a field this schema does not know. The wire scan
// clears a well-formed request in one pass over its bytes; only what it
// cannot clear is walked by reflection, which names the field (the walk
// was 2.6% of the referee's CPU per decision).
template <typename Request>
absl::Status CheckRequestFields(absl::string_view wire,
                                const Request& request) {
  if (codec::OnlyKnownFieldsOnThisThread(wire, Request::descriptor())) {
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


}  // namespace raw_methods_internal

class RawMethods : public v1::Referee::CallbackService {
 protected:
  // Neither is owned; both outlive the service. Without a gate no call is
  // rate-limited and no stream is capped; without a tarpit every refusal
  // is answered at once.
  RawMethods(CallGate* gate, RefusalTarpit* tarpit)
      : gate_(gate), tarpit_(tarpit) {}

  // Registers `handle`, a method of the derived service, as the raw
  // handler of unary method `name`.
  template <typename Derived, typename Request, typename Response>
  void ServeRaw(const char* name,
                absl::Status (Derived::*handle)(const grpc::ServerContextBase&,
                                                const Request&, Response*));
  // Registers `handler` (raw request bytes in, raw response bytes out) for
  // unary method `name`.
  template <typename Handler>
  void MarkRaw(const char* name, Handler handler);

  // Finishes a unary call: a refusal through the tarpit, keyed by the
  // caller (`token`: the request's seat token, if any).
  void Answer(const grpc::ServerContextBase& context,
              grpc::ServerUnaryReactor* reactor, grpc::Status status,
              absl::string_view token);
  // The call gate's verdict (OK without one).
  absl::Status Admit(const grpc::ServerContextBase& context,
                     absl::string_view token);

  CallGate* const gate_;
  RefusalTarpit* const tarpit_;
};

template <typename Handler>
void RawMethods::MarkRaw(const char* name, Handler handler) {
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

template <typename Derived, typename Request, typename Response>
void RawMethods::ServeRaw(
    const char* name,
    absl::Status (Derived::*handle)(const grpc::ServerContextBase&,
                                    const Request&, Response*)) {
  Derived* service = static_cast<Derived*>(this);
  MarkRaw(name, [this, service, handle](grpc::CallbackServerContext* context,
                                        const grpc::ByteBuffer* raw,
                                        grpc::ByteBuffer* out) {
    return raw_methods_internal::Serve<Request, Response>(
        context, *raw, out,
        [&](absl::string_view token) { return Admit(*context, token); },
        [&](const Request& request, Response* response) {
          return (service->*handle)(*context, request, response);
        },
        [&](grpc::ServerUnaryReactor* reactor, grpc::Status status,
            absl::string_view token) {
          Answer(*context, reactor, std::move(status), token);
        });
  });
}

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_RAW_METHODS_H_
