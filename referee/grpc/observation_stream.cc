#include "referee/grpc/observation_stream.h"

#include <utility>

#include "referee/codec/arena_message.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/stream_writer.h"

namespace cardref::grpc_service {

SeatFeed::SeatFeed(std::shared_ptr<service::Match> match, int seat,
                   std::string token, uint64_t since_version)
    : match_(std::move(match)),
      seat_(seat),
      token_(std::move(token)),
      since_version_(since_version) {}

void SeatFeed::Open(std::function<void()> on_change) {
  match_->StreamOpened(seat_);
  watcher_ = match_->AddWatcher(std::move(on_change));
}

void SeatFeed::Close() {
  if (watcher_ < 0) return;
  match_->RemoveWatcher(watcher_);
  watcher_ = -1;
  // After the watcher is gone: a disconnect may play for the seat.
  match_->StreamClosed(seat_);
}

SeatFeed::Due SeatFeed::Next(const std::function<v1::Observation*()>& fresh) {
  // Cheap check first, without the match's lock: most changes are another
  // seat's business. Every change is followed by a call here (on_change)
  // that reads it.
  const service::Match::Progress progress = match_->published_progress();
  const bool over = progress.status == v1::MATCH_STATUS_FINISHED ||
                    progress.status == v1::MATCH_STATUS_ABORTED;
  // An absent seat is told so, rather than left waiting for nothing.
  if (!over && seat_ < 64 && ((progress.absent_seats >> seat_) & 1) != 0) {
    if (absl::Status end = match_->SeatStreamEnd(seat_); !end.ok()) {
      return Due{false, ToGrpcStatus(end)};
    }
  }
  if (!(over || progress.seat_to_act == seat_) ||
      progress.version == last_version_) {
    return Due{};
  }
  v1::Observation* obs = fresh();
  if (absl::Status st =
          match_->ObserveInto(seat_, token_, since_version_, obs,
                              service::Match::Shown::kWhenDelivered,
                              service::Match::RecentActions::kBorrowed);
      !st.ok()) {
    return Due{false, ToGrpcStatus(st)};
  }
  last_version_ = obs->version();
  since_version_ = obs->version();  // the next message's actions follow
  Due due{true, std::nullopt};
  if (over) due.end = grpc::Status::OK;
  return due;
}

void SeatFeed::Written() { match_->Delivered(seat_, last_version_); }

namespace {

class ObservationWriter final : public StreamWriter<v1::Observation> {
 public:
  ObservationWriter(std::shared_ptr<service::Match> match, int seat,
                    std::string token, uint64_t since_version,
                    service::StreamSlot slot)
      : slot_(std::move(slot)),
        feed_(std::move(match), seat, std::move(token), since_version) {
    feed_.Open([this] { Poke(); });
    Poke();
  }

  void OnDone() override {
    feed_.Close();
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    // No write is in flight, so gRPC holds no pointer into the last one.
    v1::Observation* obs = nullptr;
    SeatFeed::Due due = feed_.Next([&] { return obs = &pending_.Fresh(); });
    return Next{due.observation ? obs : nullptr, std::move(due.end)};
  }

  void WrittenLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    feed_.Written();
  }

  service::StreamSlot slot_;  // given back when the stream is done
  SeatFeed feed_;  // Next and Written under mu_
  codec::ArenaMessage<v1::Observation, kSeatStreamArenaBytes> pending_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace

grpc::ServerWriteReactor<v1::Observation>* NewObservationStream(
    std::shared_ptr<service::Match> match, int seat, std::string token,
    uint64_t since_version, service::StreamSlot slot) {
  return new ObservationWriter(std::move(match), seat, std::move(token),
                               since_version, std::move(slot));
}

}  // namespace cardref::grpc_service
