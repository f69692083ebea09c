#include "referee/grpc/invitation_stream.h"

#include <memory>
#include <utility>

#include "referee/grpc/grpc_status.h"
#include "referee/grpc/stream_writer.h"

namespace cardref::grpc_service {
namespace {

class InvitationWriter final : public StreamWriter<v1::InvitationEvent> {
 public:
  explicit InvitationWriter(service::MatchManager* manager)
      : manager_(manager) {}

  // Registers on the board (which may wake the writer at once, so this
  // comes after construction) and sends what is due; the refusal if the
  // manager refused (then nothing is registered).
  absl::Status Start(const v1::WatchInvitationsRequest& request) {
    absl::StatusOr<std::shared_ptr<service::InvitationBoard::Stream>> opened =
        manager_->OpenInvitations(request, [this] { Poke(); });
    if (!opened.ok()) return opened.status();
    {
      absl::MutexLock lock(&mu_);
      stream_ = *std::move(opened);
    }
    manager_->metrics()->StreamOpened("invitations");
    Poke();
    return absl::OkStatus();
  }

  void OnDone() override {
    std::shared_ptr<service::InvitationBoard::Stream> stream;
    {
      absl::MutexLock lock(&mu_);
      stream = std::move(stream_);
    }
    if (stream != nullptr) {
      // Its seats not yet joined go to another stream of the entrant.
      manager_->invitations().Close(stream);
      manager_->metrics()->StreamClosed("invitations");
    }
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (stream_ == nullptr) return Nothing();
    service::InvitationBoard::Next next =
        manager_->invitations().Take(*stream_);
    if (next.end.has_value()) return FinishWith(ToGrpcStatus(*next.end));
    if (!next.event.has_value()) return Nothing();
    // No write is in flight, so gRPC holds no pointer into the last one.
    pending_ = *std::move(next.event);
    return Write(&pending_);
  }

  service::MatchManager* const manager_;
  std::shared_ptr<service::InvitationBoard::Stream> stream_
      ABSL_GUARDED_BY(mu_);
  v1::InvitationEvent pending_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

grpc::ServerWriteReactor<v1::InvitationEvent>* NewInvitationStream(
    service::MatchManager* manager, const v1::WatchInvitationsRequest& request) {
  auto writer = std::make_unique<InvitationWriter>(manager);
  if (absl::Status st = writer->Start(request); !st.ok()) {
    // Never registered on the board, never seen by gRPC.
    return new ErrorWriter<v1::InvitationEvent>(st);
  }
  return writer.release();
}

}  // namespace cardref::grpc_service
