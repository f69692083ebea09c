#include "referee/grpc/seat_play_stream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/codec/arena_message.h"
#include "referee/codec/unknown_fields.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/observation_stream.h"
#include "referee/grpc/stream_writer.h"

namespace cardref::grpc_service {
namespace {

// Holds a request of usual size (an action with its notation, match id and
// token: a few hundred bytes) with no heap block.
constexpr size_t kSeatRequestArenaBytes = 1024;

using BidiReactor =
    grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>;

class SeatPlayStream final
    : public StreamWriter<v1::PlaySeatResponse, BidiReactor> {
 public:
  explicit SeatPlayStream(SeatPlayDeps deps) : deps_(std::move(deps)) {
    StartRead(request_ = &read_.Fresh());
  }

  void OnReadDone(bool ok) override {
    if (!ok) {
      // The bot closed its side, or the stream broke (then OnCancel ends
      // it). The observations go on until the match ends.
      absl::MutexLock lock(&mu_);
      if (!feed_.has_value() && !end_.has_value()) {
        end_ = absl::InvalidArgumentError(
            "the stream ended before its first message named the seat "
            "(PlaySeatRequest.seat)");
        PokeLocked();
      }
      return;
    }
    if (!feed_.has_value()) {
      StartSeat();
    } else {
      HandleAction();
    }
  }

  void OnDone() override {
    if (feed_.has_value()) feed_->Close();
    bool last;
    {
      absl::MutexLock lock(&mu_);
      done_ = true;
      last = actions_in_flight_ == 0;
    }
    if (last) delete this;
  }

 private:
  // The first message: the seat, checked as WatchObservations' request.
  void StartSeat() {
    absl::Status st;
    if (!request_->has_seat()) {
      st = absl::InvalidArgumentError(
          "the first PlaySeatRequest names the seat (PlaySeatRequest.seat: "
          "match_id, seat, token)");
    }
    const v1::SeatRequest& seat = request_->seat();
    if (st.ok()) st = deps_.admit(seat.token());
    if (st.ok()) st = codec::CheckNoUnknownFieldsOfParsed(*request_);
    std::shared_ptr<service::Match> match;
    if (st.ok()) {
      absl::StatusOr<std::shared_ptr<service::Match>> found =
          deps_.manager->Find(seat.match_id());
      if (found.ok()) {
        match = *std::move(found);
        st = match->Authenticate(seat.seat(), seat.token());
      } else {
        st = found.status();
      }
    }
    service::StreamSlot slot;
    if (st.ok() && deps_.gate != nullptr) {
      absl::StatusOr<service::StreamSlot> acquired =
          deps_.gate->OpenSeatStream(seat.match_id(), seat.seat());
      if (acquired.ok()) {
        slot = *std::move(acquired);
      } else {
        st = acquired.status();
      }
    }
    if (!st.ok()) {
      absl::MutexLock lock(&mu_);
      end_ = st;
      PokeLocked();
      return;
    }
    {
      absl::MutexLock lock(&mu_);
      slot_ = std::move(slot);
      feed_.emplace(std::move(match), seat.seat(), seat.token(),
                    seat.since_version());
    }
    feed_->Open([this] { Poke(); });
    absl::MutexLock lock(&mu_);
    PokeLocked();
    ReadNextLocked();
  }

  // A later message: an action for the seat. It is used where it was read
  // (on the read arena), untouched until the next read, which starts only
  // once it is answered.
  void HandleAction() {
    absl::Status st;
    if (!request_->has_action()) {
      st = absl::InvalidArgumentError(
          "after the first message each PlaySeatRequest is an action "
          "(PlaySeatRequest.action)");
    } else {
      st = deps_.admit(feed_->token());
    }
    v1::SubmitActionRequest& action = *request_->mutable_action();
    const uint64_t sequence = action.sequence();
    const uint64_t decision_version = action.decision_version();
    if (st.ok()) st = codec::CheckNoUnknownFieldsOfParsed(action);
    if (st.ok()) st = TakeTheStreamsSeat(&action);
    if (!st.ok()) {
      absl::MutexLock lock(&mu_);
      RefuseLocked(st, sequence, decision_version);
      return;
    }
    // The stream brings the next decision.
    action.set_omit_observation(true);
    {
      absl::MutexLock lock(&mu_);
      ++actions_in_flight_;
    }
    // Without mu_: the match tells its watchers (Poke) before answering.
    service::Match::SubmitThen(
        feed_->match(), action,
        [this, sequence, decision_version](
            const absl::StatusOr<v1::SubmitActionResponse>& result) {
          Answered(result.status(), sequence, decision_version);
        });
  }

  // The match, seat and token an action names are the stream's: empty
  // (or seat 0) means so, anything else must equal them. The match checks
  // the seat and token it is given; the match id it needs not.
  absl::Status TakeTheStreamsSeat(v1::SubmitActionRequest* action) const {
    const std::string& match_id = feed_->match()->id();
    const int seat = feed_->seat();
    const std::string& token = feed_->token();
    if ((!action->match_id().empty() && action->match_id() != match_id) ||
        (action->seat() != 0 && action->seat() != seat) ||
        (!action->token().empty() && action->token() != token)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "this stream plays match ", match_id, " seat ", seat,
          "; an action on it names no other match, seat or token (leave "
          "them empty)"));
    }
    action->set_seat(seat);
    action->set_token(token);
    return absl::OkStatus();
  }

  // SubmitThen's answer, on whichever thread it comes.
  void Answered(const absl::Status& status, uint64_t sequence,
                uint64_t decision_version) {
    bool last = false;
    {
      absl::MutexLock lock(&mu_);
      --actions_in_flight_;
      if (done_) {
        last = actions_in_flight_ == 0;  // OnDone left the deletion to us
      } else if (!status.ok()) {
        RefuseLocked(status, sequence, decision_version);
      } else {
        ReadNextLocked();
      }
    }
    if (last) delete this;
  }

  // Sends the refusal; the next action is read once it is written.
  void RefuseLocked(const absl::Status& status, uint64_t sequence,
                    uint64_t decision_version)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    v1::ActionRefused& refused = refusal_.emplace();
    refused.set_code(static_cast<int>(status.code()));
    refused.set_message(std::string(status.message()));
    refused.set_sequence(sequence);
    refused.set_decision_version(decision_version);
    PokeLocked();
  }

  void ReadNextLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (!FinishedLocked()) StartRead(request_ = &read_.Fresh());
  }

  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (end_.has_value()) return FinishWith(ToGrpcStatus(*end_));
    // No write is in flight, so gRPC holds no pointer into the last one.
    if (refusal_.has_value()) {
      v1::PlaySeatResponse& response = pending_.Fresh();
      *response.mutable_refused() = *std::move(refusal_);
      refusal_.reset();
      writing_refusal_ = true;
      return Write(&response);
    }
    if (!feed_.has_value()) return Nothing();
    v1::PlaySeatResponse* response = nullptr;
    SeatFeed::Due due = feed_->Next([&] {
      response = &pending_.Fresh();
      return response->mutable_observation();
    });
    return Next{due.observation ? response : nullptr, std::move(due.end)};
  }

  void WrittenLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (writing_refusal_) {
      writing_refusal_ = false;
      ReadNextLocked();
    } else {
      feed_->Written();
    }
  }

  const SeatPlayDeps deps_;
  // The read side's (one read in flight; never touched by the writer): each
  // message is parsed onto the arena, which the next read resets, so a
  // decision's request costs no heap allocation.
  codec::ArenaMessage<v1::PlaySeatRequest, kSeatRequestArenaBytes> read_;
  v1::PlaySeatRequest* request_ = nullptr;  // on read_
  // Set once, by the first message (the seat), before anything reads them
  // elsewhere.
  service::StreamSlot slot_;  // given back when the stream is done
  std::optional<SeatFeed> feed_;  // Next and Written under mu_

  std::optional<absl::Status> end_ ABSL_GUARDED_BY(mu_);
  std::optional<v1::ActionRefused> refusal_ ABSL_GUARDED_BY(mu_);
  bool writing_refusal_ ABSL_GUARDED_BY(mu_) = false;
  codec::ArenaMessage<v1::PlaySeatResponse, kSeatStreamArenaBytes>
      pending_
      ABSL_GUARDED_BY(mu_);
  int actions_in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  bool done_ ABSL_GUARDED_BY(mu_) = false;  // OnDone was called
};

}  // namespace

grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
NewSeatPlayStream(SeatPlayDeps deps) {
  return new SeatPlayStream(std::move(deps));
}

}  // namespace cardref::grpc_service
