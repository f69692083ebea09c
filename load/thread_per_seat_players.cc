// The two blocking clients of players.h, a thread per seat: one watches its
// seat's observations and submits each action (PlayWithThreads), the other
// plays the seat on one PlaySeat stream, as the example bots do
// (PlayOnSeatStreams, tools/bot_main.cc). PlaySeat answers an accepted
// action with no message of its own, so its decision's round trip runs from
// the action to the next observation of its match, to whichever seat it
// goes.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "load/players.h"
#include "referee/base/rng.h"

namespace cardref::load {
namespace {

// A match's last action on a PlaySeat stream not yet followed by an
// observation.
struct PendingAction {
  std::mutex mu;
  uint64_t version = 0;  // the decision it answers; 0: none pending
  SendTime sent;
  int64_t deadline_unix_millis = 0;
};

class ThreadPerSeatRun {
 public:
  ThreadPerSeatRun(const PlayOptions& options, Totals* totals,
                   bool on_seat_streams)
      : options_(options),
        totals_(totals),
        on_seat_streams_(on_seat_streams) {}

  void Run(int matches, double seconds) {
    end_ = Clock::now() +
           std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
    std::vector<std::thread> slots;
    slots.reserve(matches);
    for (int m = 0; m < matches; ++m) {
      const auto first =
          Clock::now() + std::chrono::microseconds(static_cast<int64_t>(
                             options_.ramp_seconds * 1e6 * m / matches));
      slots.emplace_back([this, m, first] {
        std::this_thread::sleep_until(first);
        Slot(m);
      });
    }
    std::this_thread::sleep_until(end_);
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      for (grpc::ClientContext* c : contexts_) c->TryCancel();
    }
    for (std::thread& t : slots) t.join();
  }

 private:
  bool stopping() const { return stop_.load(); }

  void Error(const std::string& what, const grpc::Status& status) {
    if (!stopping()) totals_->AddError(what, status);
  }

  // A stream's context, cancelled when the run stops; false if it has.
  bool Hold(grpc::ClientContext* context) {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return false;
    contexts_.insert(context);
    return true;
  }
  // Lets it go and ends its call.
  void Release(grpc::ClientContext* context) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      contexts_.erase(context);
    }
    context->TryCancel();
  }

  // Plays one match after another until the run stops.
  void Slot(int slot) {
    auto stub = v1::Referee::NewStub(SlotChannel(options_.address, slot));
    for (uint64_t round = 0; !stopping(); ++round) {
      v1::CreateMatchRequest create;
      create.set_game(options_.game);
      create.set_decision_time_limit_millis(options_.limit_ms);
      if (!options_.token.empty()) create.set_open(true);
      v1::CreateMatchResponse created;
      grpc::ClientContext context;
      AddBearer(options_.token, &context);
      SetAnswerDeadline(end_, &context);
      const grpc::Status st = stub->CreateMatch(&context, create, &created);
      if (!st.ok()) {
        if (Unanswered(st, end_, Clock::now())) totals_->AddUnanswered();
        Error("CreateMatch", st);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      PendingAction pending;
      std::vector<std::thread> seats;
      for (int s = 0; s < created.num_seats(); ++s) {
        const uint64_t seed = options_.seed * 1000003 +
                              static_cast<uint64_t>(slot) * 7919 + round * 31 +
                              static_cast<uint64_t>(s);
        seats.emplace_back([&, s, seed] {
          v1::JoinMatchResponse me;
          if (grpc::Status st =
                  JoinSeat(*stub, created.match_id(), s, end_, totals_, &me);
              !st.ok()) {
            Error("JoinMatch", st);
          } else if (on_seat_streams_) {
            PlayOnStream(*stub, created.match_id(), s, me.token(), seed,
                         &pending);
          } else {
            WatchAndSubmit(*stub, created.match_id(), s, me.token(), seed);
          }
        });
      }
      for (std::thread& t : seats) t.join();
      if (stopping()) {
        std::lock_guard<std::mutex> lock(totals_->mu);
        totals_->left_matches.push_back(created.match_id());
      }
    }
  }

  // Watches the joined seat's observations and submits each of its
  // actions.
  void WatchAndSubmit(v1::Referee::Stub& stub, const std::string& match_id,
                      int seat, const std::string& token, uint64_t seed) {
    v1::SeatRequest watch;
    watch.set_match_id(match_id);
    watch.set_seat(seat);
    watch.set_token(token);
    grpc::ClientContext context;
    if (!Hold(&context)) return;
    auto stream = stub.WatchObservations(&context, watch);
    Rng rng(seed);
    Tally tally;
    uint64_t answered = 0;
    v1::Observation obs;
    while (!stopping() && stream->Read(&obs)) {
      ++tally.observations;
      tally.observation_bytes += static_cast<int64_t>(obs.ByteSizeLong());
      if (obs.seat_to_act() != seat || obs.version() == answered ||
          obs.legal_actions_size() == 0) {
        continue;
      }
      answered = obs.version();
      v1::SubmitActionRequest submit;
      submit.set_match_id(match_id);
      submit.set_seat(seat);
      submit.set_token(token);
      *submit.mutable_action() = obs.legal_actions(
          static_cast<int>(rng.Uniform(obs.legal_actions_size())));
      submit.set_decision_version(obs.version());
      submit.set_omit_observation(options_.omit_observation);
      v1::SubmitActionResponse response;
      grpc::ClientContext submit_context;
      SetAnswerDeadline(end_, &submit_context);
      const SendTime sent = SendTime::Now();
      const grpc::Status st =
          stub.SubmitAction(&submit_context, submit, &response);
      const auto done = Clock::now();
      if (done > end_) {
        if (Unanswered(st, end_, done)) totals_->AddUnanswered();
        break;
      }
      if (!CountSubmission(st.error_code(), sent, obs.deadline_unix_millis(),
                           done, &tally)) {
        Error("SubmitAction", st);
      }
    }
    Release(&context);
    stream->Finish();
    totals_->AddSeat(tally);
  }

  // Plays the joined seat on one PlaySeat stream.
  void PlayOnStream(v1::Referee::Stub& stub, const std::string& match_id,
                    int seat, const std::string& token, uint64_t seed,
                    PendingAction* pending) {
    grpc::ClientContext context;
    if (!Hold(&context)) return;
    auto stream = stub.PlaySeat(&context);
    v1::PlaySeatRequest first;
    first.mutable_seat()->set_match_id(match_id);
    first.mutable_seat()->set_seat(seat);
    first.mutable_seat()->set_token(token);
    Rng rng(seed);
    Tally tally;
    uint64_t answered = 0;
    v1::PlaySeatResponse message;
    bool broke = !stream->Write(first);
    while (!broke && stream->Read(&message)) {
      const Clock::time_point now = Clock::now();
      if (message.has_refused()) {
        const v1::ActionRefused& refused = message.refused();
        const auto code = static_cast<grpc::StatusCode>(refused.code());
        std::lock_guard<std::mutex> lock(pending->mu);
        if (pending->version != refused.decision_version()) continue;
        pending->version = 0;
        if (now <= end_ &&
            !CountSubmission(code, pending->sent, pending->deadline_unix_millis,
                             now, &tally)) {
          Error("PlaySeat", grpc::Status(code, refused.message()));
        }
        continue;
      }
      const v1::Observation& obs = message.observation();
      ++tally.observations;
      tally.observation_bytes += static_cast<int64_t>(obs.ByteSizeLong());
      {
        std::lock_guard<std::mutex> lock(pending->mu);
        if (pending->version != 0 && obs.version() > pending->version) {
          pending->version = 0;
          if (now <= end_) {
            CountSubmission(grpc::StatusCode::OK, pending->sent,
                            pending->deadline_unix_millis, now, &tally);
          }
        }
      }
      if (obs.seat_to_act() != seat || obs.version() == answered ||
          obs.legal_actions_size() == 0) {
        continue;
      }
      answered = obs.version();
      v1::PlaySeatRequest next;
      v1::SubmitActionRequest& submit = *next.mutable_action();
      *submit.mutable_action() = obs.legal_actions(
          static_cast<int>(rng.Uniform(obs.legal_actions_size())));
      submit.set_decision_version(obs.version());
      {
        std::lock_guard<std::mutex> lock(pending->mu);
        pending->version = obs.version();
        pending->sent = SendTime::Now();
        pending->deadline_unix_millis = obs.deadline_unix_millis();
      }
      broke = !stream->Write(next);
    }
    Release(&context);
    const grpc::Status end = stream->Finish();
    if (!end.ok() && end.error_code() != grpc::StatusCode::CANCELLED) {
      if (Unanswered(end, end_, Clock::now())) totals_->AddUnanswered();
      Error("PlaySeat", end);
    }
    totals_->AddSeat(tally);
  }

  const PlayOptions options_;
  Totals* const totals_;
  const bool on_seat_streams_;
  Clock::time_point end_;
  std::mutex mu_;
  std::atomic<bool> stop_{false};  // set under mu_, read without
  std::set<grpc::ClientContext*> contexts_;  // guarded by mu_
};

}  // namespace

void PlayWithThreads(const PlayOptions& options, int matches, double seconds,
                     Totals* totals) {
  ThreadPerSeatRun(options, totals, /*on_seat_streams=*/false)
      .Run(matches, seconds);
}

void PlayOnSeatStreams(const PlayOptions& options, int matches, double seconds,
                       Totals* totals) {
  ThreadPerSeatRun(options, totals, /*on_seat_streams=*/true)
      .Run(matches, seconds);
}

}  // namespace cardref::load
