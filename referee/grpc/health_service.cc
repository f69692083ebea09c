#include "referee/grpc/health_service.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/stream_writer.h"
#include "referee/service/text_limits.h"

namespace cardref::grpc_service {

using ::grpc::health::v1::HealthCheckRequest;
using ::grpc::health::v1::HealthCheckResponse;

// One Watch stream: the status now, then each change. Writes one message at
// a time; a change made while a write is in flight is sent after it (only
// the latest), so a client that never reads holds one message.
class HealthWatcher final : public StreamWriter<HealthCheckResponse> {
 public:
  // `known`: the service asked about is one the referee reports on.
  HealthWatcher(HealthService* service, bool known, service::StreamSlot slot)
      : service_(service), known_(known), slot_(std::move(slot)) {
    service_->metrics_->StreamOpened("health");
  }

  bool known() const { return known_; }

  // Sends `status` unless it is the last one sent.
  void Tell(HealthService::ServingStatus status) {
    {
      absl::MutexLock lock(&mu_);
      wanted_ = status;
    }
    Poke();
  }

  // Ends the stream once what it was told is written.
  void End() {
    {
      absl::MutexLock lock(&mu_);
      ending_ = true;
    }
    Poke();
  }

  void OnDone() override {
    service_->Forget(this);
    service_->metrics_->StreamClosed("health");
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (wanted_ == sent_) {
      return ending_ ? FinishWith(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                               "the referee is shutting down"))
                     : Nothing();
    }
    response_.set_status(static_cast<HealthService::ServingStatus>(wanted_));
    sent_ = wanted_;
    return Write(&response_);
  }

  HealthService* const service_;
  const bool known_;
  service::StreamSlot slot_;  // given back when the stream is done
  HealthCheckResponse response_ ABSL_GUARDED_BY(mu_);
  int wanted_ ABSL_GUARDED_BY(mu_) = -1;
  int sent_ ABSL_GUARDED_BY(mu_) = -1;  // nothing yet
  bool ending_ ABSL_GUARDED_BY(mu_) = false;
};

bool HealthService::Known(const std::string& service) {
  return service.empty() || service == v1::Referee::service_full_name();
}

HealthService::ServingStatus HealthService::StatusLocked() const {
  return serving_ ? HealthCheckResponse::SERVING
                  : HealthCheckResponse::NOT_SERVING;
}

void HealthService::SetServingLocked(bool serving) {
  serving_ = serving;
  for (HealthWatcher* watcher : watchers_) {
    if (watcher->known()) watcher->Tell(StatusLocked());  // else unknown
  }
}

void HealthService::SetServing(bool serving) {
  absl::MutexLock lock(&mu_);
  SetServingLocked(serving);
}

void HealthService::Shutdown() {
  absl::MutexLock lock(&mu_);
  SetServingLocked(false);
  shut_down_ = true;
  for (HealthWatcher* watcher : watchers_) watcher->End();
}

int HealthService::watchers() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(watchers_.size());
}

void HealthService::Forget(HealthWatcher* watcher) {
  absl::MutexLock lock(&mu_);
  watchers_.erase(watcher);
}

grpc::ServerUnaryReactor* HealthService::Check(
    grpc::CallbackServerContext* context, const HealthCheckRequest* request,
    HealthCheckResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (gate_ != nullptr) {
    if (absl::Status st = gate_->Admit(*context, ""); !st.ok()) {
      reactor->Finish(ToGrpcStatus(st));
      return reactor;
    }
  }
  if (!Known(request->service())) {
    reactor->Finish(grpc::Status(
        grpc::StatusCode::NOT_FOUND,
        absl::StrCat("unknown service \"",
                     service::QuotePrefix(request->service()),
                     "\": this referee reports on \"\" (all of it) and \"",
                     v1::Referee::service_full_name(), "\"")));
    return reactor;
  }
  {
    absl::MutexLock lock(&mu_);
    response->set_status(StatusLocked());
  }
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerWriteReactor<HealthCheckResponse>* HealthService::Watch(
    grpc::CallbackServerContext* context, const HealthCheckRequest* request) {
  service::StreamSlot slot;
  if (gate_ != nullptr) {
    absl::StatusOr<service::StreamSlot> acquired =
        gate_->OpenServiceStream(*context);
    if (!acquired.ok()) {
      return new ErrorWriter<HealthCheckResponse>(acquired.status());
    }
    slot = *std::move(acquired);
  }
  const bool known = Known(request->service());
  auto* watcher = new HealthWatcher(this, known, std::move(slot));
  absl::MutexLock lock(&mu_);
  watchers_.insert(watcher);
  // Under the lock, so a SetServing in between cannot be overtaken.
  watcher->Tell(known ? StatusLocked() : HealthCheckResponse::SERVICE_UNKNOWN);
  if (shut_down_) watcher->End();  // after Shutdown: that status, then ends
  return watcher;
}

}  // namespace cardref::grpc_service
