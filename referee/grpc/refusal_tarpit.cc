#include "referee/grpc/refusal_tarpit.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/time/time.h"

namespace cardref::grpc_service {

bool IsRefusal(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ABORTED:
    case grpc::StatusCode::OUT_OF_RANGE:
    case grpc::StatusCode::UNAUTHENTICATED:
      return true;
    default:
      return false;
  }
}

RefusalTarpit::RefusalTarpit(const service::Limits& limits,
                             const service::Clock* clock)
    : free_(limits.refusals_per_second, limits.refusal_burst, clock,
            service::kMaxTrackedCallers),
      delay_(std::max(0, limits.refusal_delay_ms)),
      max_held_(static_cast<size_t>(std::max(0, limits.max_delayed_refusals))) {
}

RefusalTarpit::~RefusalTarpit() { Stop(); }

void RefusalTarpit::Finish(grpc::ServerUnaryReactor* reactor,
                           grpc::Status status, absl::string_view caller) {
  if (enabled() && IsRefusal(status.error_code()) &&
      !free_.Admit("refusals", caller).ok()) {
    absl::MutexLock lock(&mu_);
    if (!stopped_ && held_.size() < max_held_) {
      held_.push_back({std::chrono::steady_clock::now() + delay_, reactor,
                       std::move(status)});
      ++delayed_total_;
      if (!timer_.joinable()) timer_ = std::thread([this] { Run(); });
      if (held_.size() == 1) wake_.Signal();
      return;
    }
  }
  reactor->Finish(std::move(status));
}

void RefusalTarpit::Run() {
  std::vector<Held> due;
  absl::MutexLock lock(&mu_);
  // A CondVar, not Mutex::Await: Await's condition runs on whichever thread
  // unlocks, which ThreadSanitizer cannot order (tests/tsan/).
  while (!stopped_) {
    if (held_.empty()) {
      wake_.Wait(&mu_);
      continue;
    }
    const SteadyTime now = std::chrono::steady_clock::now();
    if (held_.front().due > now) {
      // A new entry is never due before the front: only Stop wakes us early.
      wake_.WaitWithTimeout(&mu_, absl::FromChrono(held_.front().due - now));
      continue;
    }
    while (!held_.empty() && held_.front().due <= now) {
      due.push_back(std::move(held_.front()));
      held_.pop_front();
    }
    mu_.Unlock();  // Finish may run gRPC code: never under our lock
    for (Held& h : due) h.reactor->Finish(std::move(h.status));
    due.clear();
    mu_.Lock();
  }
}

void RefusalTarpit::Stop() {
  std::deque<Held> left;
  std::thread timer;
  {
    absl::MutexLock lock(&mu_);
    stopped_ = true;
    wake_.Signal();
    left.swap(held_);
    timer.swap(timer_);
  }
  if (timer.joinable()) timer.join();
  for (Held& h : left) h.reactor->Finish(std::move(h.status));
}

size_t RefusalTarpit::held() const {
  absl::MutexLock lock(&mu_);
  return held_.size();
}

uint64_t RefusalTarpit::delayed_total() const {
  absl::MutexLock lock(&mu_);
  return delayed_total_;
}

}  // namespace cardref::grpc_service
