#include "referee/grpc/event_stream.h"

#include <deque>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "referee/grpc/stream_writer.h"

namespace cardref::grpc_service {

namespace {

// Events fetched from the match per request: bounds the reactor's buffer.
constexpr size_t kBatch = 64;

class EventWriter final : public StreamWriter<v1::MatchEvent> {
 public:
  EventWriter(std::shared_ptr<service::Match> match, service::Audience audience,
              uint64_t after_index, uint32_t delay_decisions,
              std::vector<service::StreamSlot> slots,
              service::MetricsSink* metrics)
      : slots_(std::move(slots)),
        match_(std::move(match)),
        metrics_(metrics),
        audience_(audience),
        delay_decisions_(delay_decisions),
        last_index_(after_index) {
    metrics_->StreamOpened("events");
    watcher_ = match_->AddWatcher([this] { Poke(); });
    Poke();
  }

  void OnDone() override {
    match_->RemoveWatcher(watcher_);
    metrics_->StreamClosed("events");
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (queue_.empty()) {
      service::EventBatch batch =
          match_->EventsAfter(last_index_, audience_, delay_decisions_, kBatch);
      for (v1::MatchEvent& e : batch.events) queue_.push_back(std::move(e));
      // Complete means these are the last: finish once they are written.
      complete_ = batch.complete;
    }
    if (queue_.empty()) {
      return complete_ ? FinishWith(grpc::Status::OK) : Nothing();
    }
    pending_ = std::move(queue_.front());
    queue_.pop_front();
    last_index_ = pending_.index();
    return Write(&pending_);
  }

  std::vector<service::StreamSlot> slots_;  // given back when done
  const std::shared_ptr<service::Match> match_;
  service::MetricsSink* const metrics_;  // not owned
  const service::Audience audience_;
  const uint32_t delay_decisions_;
  int watcher_ = -1;
  uint64_t last_index_ ABSL_GUARDED_BY(mu_);
  std::deque<v1::MatchEvent> queue_ ABSL_GUARDED_BY(mu_);
  v1::MatchEvent pending_ ABSL_GUARDED_BY(mu_);
  bool complete_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

grpc::ServerWriteReactor<v1::MatchEvent>* NewEventStream(
    std::shared_ptr<service::Match> match, service::Audience audience,
    uint64_t after_index, uint32_t delay_decisions,
    std::vector<service::StreamSlot> slots, service::MetricsSink* metrics) {
  return new EventWriter(std::move(match), audience, after_index,
                         delay_decisions, std::move(slots), metrics);
}

}  // namespace cardref::grpc_service
