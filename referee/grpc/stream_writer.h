// The one way a server stream writes (callback API): at most one message in
// flight, the next one chosen only once the previous write is done, so a
// slow reader costs one message of memory, never a queue. Every
// server-streaming RPC of the referee (observations, match events, health
// watches) and the load tool's echo derive from it.
//
// A subclass says what is due (NextLocked) and is told when a write is done
// (WrittenLocked); anything that may make a message due calls Poke, from
// any thread. Cancellation, a broken stream and the final status are
// handled here: Finish is called exactly once, never while a write is in
// flight. The subclass's OnDone releases what it holds and deletes it.
// A stream refused before it starts is an ErrorWriter (grpc_status.h).
// `Reactor` is the gRPC reactor written through: a server stream's, or a
// bidirectional one's (PlaySeat: the subclass reads too).
#ifndef CARDREF_REFEREE_GRPC_STREAM_WRITER_H_
#define CARDREF_REFEREE_GRPC_STREAM_WRITER_H_

#include <optional>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"

namespace cardref::grpc_service {

template <typename Message,
          typename Reactor = grpc::ServerWriteReactor<Message>>
class StreamWriter : public Reactor {
 public:
  // Something may be due: writes it unless a write is in flight (the end of
  // that write looks again).
  void Poke() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    WriteIfDueLocked();
  }

  void OnWriteDone(bool ok) override ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (!ok) {
      FinishLocked(grpc::Status(grpc::StatusCode::UNAVAILABLE,
                                "the stream broke while writing"));
      return;
    }
    if (finish_after_write_.has_value()) {
      FinishLocked(*std::move(finish_after_write_));
      return;
    }
    WrittenLocked();
    WriteIfDueLocked();
  }

  void OnCancel() override ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    cancelled_ = true;
    if (!writing_) FinishLocked(grpc::Status::CANCELLED);
  }

 protected:
  // What is due now: a message to write (owned by the subclass, untouched
  // until the write is done), a status to end with, both (write, then end
  // with the status), or neither (nothing yet).
  struct Next {
    const Message* message = nullptr;
    std::optional<grpc::Status> finish;
  };
  static Next Write(const Message* message) { return Next{message, {}}; }
  static Next WriteThenFinish(const Message* message, grpc::Status status) {
    return Next{message, std::move(status)};
  }
  static Next FinishWith(grpc::Status status) {
    return Next{nullptr, std::move(status)};
  }
  static Next Nothing() { return Next{}; }

  // Called with mu_ held, never while a write is in flight nor after the
  // stream finished.
  virtual Next NextLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) = 0;
  // A message was written (and the stream goes on).
  virtual void WrittenLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {}

  // Poke, with mu_ held (a subclass that changed what is due).
  void PokeLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { WriteIfDueLocked(); }

  // The stream has ended (Finish called): start nothing more on it.
  bool FinishedLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return finished_ || cancelled_;
  }

  // Guards the subclass's stream state too.
  absl::Mutex mu_;

 private:
  void WriteIfDueLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (writing_ || finished_) return;
    if (cancelled_) {
      FinishLocked(grpc::Status::CANCELLED);
      return;
    }
    Next next = NextLocked();
    if (next.message != nullptr) {
      finish_after_write_ = std::move(next.finish);
      writing_ = true;
      this->StartWrite(next.message);
    } else if (next.finish.has_value()) {
      FinishLocked(*std::move(next.finish));
    }
  }

  void FinishLocked(grpc::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (finished_) return;
    finished_ = true;
    this->Finish(std::move(status));
  }

  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<grpc::Status> finish_after_write_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_STREAM_WRITER_H_
