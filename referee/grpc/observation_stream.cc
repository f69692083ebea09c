#include "referee/grpc/observation_stream.h"

#include <utility>

#include "referee/codec/arena_message.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/stream_writer.h"

namespace cardref::grpc_service {
namespace {

// The first block of a stream's observation arena: the largest game
// observations with their legal actions take 2 to 4 KiB.
constexpr size_t kStreamArenaBytes = 4096;

class ObservationWriter final : public StreamWriter<v1::Observation> {
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
    watcher_ = match_->AddWatcher([this] { Poke(); });
    Poke();
  }

  void OnDone() override {
    match_->RemoveWatcher(watcher_);
    // After the watcher is gone: a disconnect may play for the seat.
    match_->StreamClosed(seat_);
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    // Cheap check first: most changes are another seat's business.
    const service::Match::Progress progress = match_->progress();
    const bool over = progress.status == v1::MATCH_STATUS_FINISHED ||
                      progress.status == v1::MATCH_STATUS_ABORTED;
    // An absent seat is told so, rather than left waiting for nothing.
    if (!over && seat_ < 64 && ((progress.absent_seats >> seat_) & 1) != 0) {
      if (absl::Status end = match_->SeatStreamEnd(seat_); !end.ok()) {
        return FinishWith(ToGrpcStatus(end));
      }
    }
    if (!(over || progress.seat_to_act == seat_) ||
        progress.version == last_version_) {
      return Nothing();
    }
    // No write is in flight, so gRPC holds no pointer into the last one.
    v1::Observation& obs = pending_.Fresh();
    if (absl::Status st =
            match_->ObserveInto(seat_, token_, since_version_, &obs,
                                service::Match::Shown::kWhenDelivered);
        !st.ok()) {
      return FinishWith(ToGrpcStatus(st));
    }
    last_version_ = obs.version();
    since_version_ = obs.version();  // the next message's actions follow
    return over ? WriteThenFinish(&obs, grpc::Status::OK) : Write(&obs);
  }

  void WrittenLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    // The seat's decision clock starts now, not when the message was built.
    match_->Delivered(seat_, last_version_);
  }

  service::StreamSlot slot_;  // given back when the stream is done
  const std::shared_ptr<service::Match> match_;
  const int seat_;
  const std::string token_;
  int watcher_ = -1;
  codec::ArenaMessage<v1::Observation, kStreamArenaBytes> pending_
      ABSL_GUARDED_BY(mu_);
  uint64_t last_version_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t since_version_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

grpc::ServerWriteReactor<v1::Observation>* NewObservationStream(
    std::shared_ptr<service::Match> match, int seat, std::string token,
    uint64_t since_version, service::StreamSlot slot) {
  return new ObservationWriter(std::move(match), seat, std::move(token),
                               since_version, std::move(slot));
}

}  // namespace cardref::grpc_service
