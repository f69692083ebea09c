// The callback client of players.h: every call is asynchronous (gRPC's
// callback API), so a seat costs no thread and a read waits for no
// scheduler: 4,000 seats on the referee's own 2 cores read their streams
// when the observation arrives, not when their thread next runs.
//
// Ownership: a Slot plays one match after another until the run stops. A
// SeatPlayer is the reactor of one seat's stream and deletes itself when
// the stream is done; its counts live in a SeatCounts shared with its
// submissions still in flight, which adds them to the totals when the last
// of them lets go.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"
#include "load/players.h"

namespace cardref::load {
namespace {

class Run;

// One seat's counts, added to the run's totals when the seat's stream and
// its last submission are done.
class SeatCounts {
 public:
  SeatCounts(Run* run);
  ~SeatCounts();

  std::mutex mu;
  Tally tally;

 private:
  Run* const run_;
};

class Slot;

class Run {
 public:
  Run(const PlayOptions& options, Totals* totals, Clock::time_point end)
      : options_(options), totals_(totals), end_(end) {}

  const PlayOptions& options() const { return options_; }
  Totals& totals() { return *totals_; }
  Clock::time_point end() const { return end_; }
  bool stopping() const { return stop_.load(); }

  void Error(const std::string& what, const grpc::Status& status) {
    if (!stopping()) totals_->AddError(what, status);
  }

  // A live stream's context, cancelled when the run stops (at once if it
  // has stopped already).
  void Watch(grpc::ClientContext* context) {
    std::lock_guard<std::mutex> lock(mu_);
    contexts_.insert(context);
    if (stop_) context->TryCancel();
  }
  void Unwatch(grpc::ClientContext* context) {
    std::lock_guard<std::mutex> lock(mu_);
    contexts_.erase(context);
  }

  // Things still running (slots, seat counts, calls); Play waits for them
  // all.
  void Hold() {
    std::lock_guard<std::mutex> lock(mu_);
    ++held_;
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    if (--held_ == 0) done_.notify_all();
  }

  // Calls slot->NextMatch() after `delay` (at once when the run stops), on
  // the run's one retry thread: a refused CreateMatch must not stall a
  // callback thread, nor start a thread per refusal.
  void RetryLater(Slot* slot, std::chrono::milliseconds delay);

  void Play(int matches);

 private:
  void RetryLoop();

  const PlayOptions options_;
  Totals* const totals_;
  const Clock::time_point end_;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::condition_variable done_;
  std::set<grpc::ClientContext*> contexts_;
  int held_ = 0;
  std::condition_variable retry_wake_;
  std::multimap<Clock::time_point, Slot*> retries_;  // guarded by mu_
  std::thread retry_thread_;
};

SeatCounts::SeatCounts(Run* run) : run_(run) { run_->Hold(); }

SeatCounts::~SeatCounts() {
  run_->totals().AddSeat(tally);
  run_->Release();
}

// Holds the run while a call is in flight. It is a call's first member, so
// it lets go after the call's ClientContext, which holds a reference to the
// slot's channel: the run's channels must die on Play's thread, never on
// one of gRPC's callback threads. (gRPC 1.51 without background polling
// runs callbacks on its "nexting" threads; when the last channel using them
// is destroyed on one of them, that thread deletes the completion queue it
// is still reading, a double free that crashed cardref_load_smoke in CI.)
class Held {
 public:
  explicit Held(Run* run) : run_(run) { run_->Hold(); }
  ~Held() { run_->Release(); }
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;

 private:
  Run* const run_;
};

// Plays matches one after another on its own channel until the run stops.
class Slot {
 public:
  Slot(Run* run, int index)
      : run_(run),
        index_(index),
        stub_(v1::Referee::NewStub(
            SlotChannel(run->options().address, index))) {}

  v1::Referee::Stub& stub() { return *stub_; }
  Run& run() { return *run_; }

  // Creates the next match, or lets the run go once it stops.
  void NextMatch();
  // A seat of the current match is done (its stream ended or it could not
  // join); the last one starts the next match.
  void SeatDone() {
    if (seats_left_.fetch_sub(1) == 1) NextMatch();
  }

 private:
  struct CreateCall {
    explicit CreateCall(Run* run) : held(run) {}
    Held held;  // first: let go last
    grpc::ClientContext context;
    v1::CreateMatchRequest request;
    v1::CreateMatchResponse response;
  };
  void Created(std::unique_ptr<CreateCall> call, const grpc::Status& status);
  void Join(const std::string& match_id, int seat, uint64_t round);

  Run* const run_;
  const int index_;
  std::unique_ptr<v1::Referee::Stub> stub_;
  uint64_t round_ = 0;
  std::atomic<int> seats_left_{0};
  std::string match_id_;  // the current (last) match
};

// One seat's stream: answers each of its decisions at once.
class SeatPlayer : public grpc::ClientReadReactor<v1::Observation> {
 public:
  SeatPlayer(Slot* slot, std::string match_id, int seat, std::string token,
             uint64_t seed)
      : slot_(slot),
        seat_(seat),
        token_(std::move(token)),
        match_id_(std::move(match_id)),
        rng_(seed),
        counts_(std::make_shared<SeatCounts>(&slot->run())) {
    watch_.set_match_id(match_id_);
    watch_.set_seat(seat_);
    watch_.set_token(token_);
  }

  void Start() {
    slot_->run().Watch(&context_);
    slot_->stub().async()->WatchObservations(&context_, &watch_, this);
    StartRead(&observation_);
    StartCall();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    {
      std::lock_guard<std::mutex> lock(counts_->mu);
      ++counts_->tally.observations;
      counts_->tally.observation_bytes +=
          static_cast<int64_t>(observation_.ByteSizeLong());
    }
    if (!slot_->run().stopping() && observation_.seat_to_act() == seat_ &&
        observation_.version() != answered_ &&
        observation_.legal_actions_size() > 0) {
      answered_ = observation_.version();
      Submit();
    }
    StartRead(&observation_);
  }

  void OnDone(const grpc::Status&) override {
    slot_->run().Unwatch(&context_);
    Slot* slot = slot_;
    delete this;
    slot->SeatDone();
  }

 private:
  // Not Held: the callback's copy of the seat's counts holds the run, and
  // it goes with the callback, after the call (its body's done_call).
  struct SubmitCall {
    grpc::ClientContext context;
    v1::SubmitActionRequest request;
    v1::SubmitActionResponse response;
    int64_t deadline_unix_millis = 0;  // as the observation told it
    SendTime sent;
  };

  void Submit() {
    auto call = std::make_unique<SubmitCall>();
    v1::SubmitActionRequest& submit = call->request;
    submit.set_match_id(match_id_);
    submit.set_seat(seat_);
    submit.set_token(token_);
    *submit.mutable_action() = observation_.legal_actions(
        static_cast<int>(rng_.Uniform(observation_.legal_actions_size())));
    submit.set_decision_version(observation_.version());
    submit.set_omit_observation(slot_->run().options().omit_observation);
    call->deadline_unix_millis = observation_.deadline_unix_millis();
    SetAnswerDeadline(slot_->run().end(), &call->context);
    call->sent = SendTime::Now();
    SubmitCall* raw = call.release();
    // The callback keeps the counts, not the reactor: the stream may end
    // before the answer comes.
    std::shared_ptr<SeatCounts> counts = counts_;
    Run* run = &slot_->run();
    slot_->stub().async()->SubmitAction(
        &raw->context, &raw->request, &raw->response,
        [raw, counts, run](const grpc::Status& status) {
          std::unique_ptr<SubmitCall> done_call(raw);
          const auto done = Clock::now();
          if (done > run->end()) {
            if (Unanswered(status, run->end(), done)) {
              run->totals().AddUnanswered();
            }
            return;
          }
          bool counted;
          {
            std::lock_guard<std::mutex> lock(counts->mu);
            counted = CountSubmission(status.error_code(), done_call->sent,
                                      done_call->deadline_unix_millis, done,
                                      &counts->tally);
          }
          if (!counted) run->Error("SubmitAction", status);
        });
  }

  Slot* const slot_;
  const int seat_;
  const std::string token_;
  const std::string match_id_;
  Rng rng_;
  std::shared_ptr<SeatCounts> counts_;
  grpc::ClientContext context_;
  v1::SeatRequest watch_;
  v1::Observation observation_;
  uint64_t answered_ = 0;
};

void Slot::NextMatch() {
  if (run_->stopping()) {
    if (!match_id_.empty()) {
      std::lock_guard<std::mutex> lock(run_->totals().mu);
      run_->totals().left_matches.push_back(match_id_);
    }
    run_->Release();
    return;
  }
  auto call = std::make_unique<CreateCall>(run_);
  call->request.set_game(run_->options().game);
  call->request.set_decision_time_limit_millis(run_->options().limit_ms);
  SetAnswerDeadline(run_->end(), &call->context);
  if (!run_->options().token.empty()) {
    call->request.set_open(true);
    call->context.AddMetadata("authorization",
                              absl::StrCat("Bearer ", run_->options().token));
  }
  CreateCall* raw = call.release();
  stub_->async()->CreateMatch(&raw->context, &raw->request, &raw->response,
                              [this, raw](const grpc::Status& status) {
                                Created(std::unique_ptr<CreateCall>(raw),
                                        status);
                              });
}

void Slot::Created(std::unique_ptr<CreateCall> call,
                   const grpc::Status& status) {
  if (!status.ok()) {
    if (Unanswered(status, run_->end(), Clock::now())) {
      run_->totals().AddUnanswered();
    }
    run_->Error("CreateMatch", status);
    // A refused match (a cap, a rate limit): try again shortly.
    run_->RetryLater(this, std::chrono::milliseconds(100));
    return;
  }
  const int seats = call->response.num_seats();
  if (seats <= 0) {
    NextMatch();
    return;
  }
  seats_left_.store(seats);
  match_id_ = call->response.match_id();
  // Counted before the joins: once they are out, the match may end and the
  // next one be created on another thread.
  const uint64_t round = round_++;
  for (int s = 0; s < seats; ++s) Join(call->response.match_id(), s, round);
}

void Slot::Join(const std::string& match_id, int seat, uint64_t round) {
  struct JoinCall {
    explicit JoinCall(Run* run) : held(run) {}
    Held held;  // first: let go last
    grpc::ClientContext context;
    v1::JoinMatchRequest request;
    v1::JoinMatchResponse response;
  };
  auto* call = new JoinCall(run_);
  call->request.set_match_id(match_id);
  call->request.set_seat(seat);
  call->request.set_player_name(absl::StrCat("load", seat));
  SetAnswerDeadline(run_->end(), &call->context);
  const PlayOptions& o = run_->options();
  const uint64_t seed = o.seed * 1000003 +
                        static_cast<uint64_t>(index_) * 7919 + round * 31 +
                        static_cast<uint64_t>(seat);
  stub_->async()->JoinMatch(
      &call->context, &call->request, &call->response,
      [this, call, match_id, seat, seed](const grpc::Status& status) {
        std::unique_ptr<JoinCall> done(call);
        if (!status.ok()) {
          if (Unanswered(status, run_->end(), Clock::now())) {
            run_->totals().AddUnanswered();
          }
          run_->Error("JoinMatch", status);
          SeatDone();
          return;
        }
        (new SeatPlayer(this, match_id, seat, done->response.token(), seed))
            ->Start();
      });
}

void Run::RetryLater(Slot* slot, std::chrono::milliseconds delay) {
  std::lock_guard<std::mutex> lock(mu_);
  retries_.emplace(Clock::now() + delay, slot);
  retry_wake_.notify_one();
}

void Run::RetryLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (retries_.empty()) {
      // Every slot is released (so nothing can be retried any more) only
      // after the run stopped.
      if (held_ == 0) return;
      retry_wake_.wait(lock);
      continue;
    }
    const auto first = retries_.begin();
    if (!stop_ && Clock::now() < first->first) {
      retry_wake_.wait_until(lock, first->first);
      continue;
    }
    Slot* const slot = first->second;
    retries_.erase(first);
    lock.unlock();
    slot->NextMatch();  // lets the slot go if the run has stopped
    lock.lock();
  }
}

void Run::Play(int matches) {
  std::vector<std::unique_ptr<Slot>> slots;
  slots.reserve(matches);
  for (int m = 0; m < matches; ++m) {
    slots.push_back(std::make_unique<Slot>(this, m));
    Hold();  // released when the slot stops
  }
  retry_thread_ = std::thread([this] { RetryLoop(); });
  const Clock::time_point start = Clock::now();
  const double ramp_us = options_.ramp_seconds * 1e6;
  for (int m = 0; m < matches; ++m) {
    if (ramp_us > 0) {
      std::this_thread::sleep_until(
          start + std::chrono::microseconds(
                      static_cast<int64_t>(ramp_us * m / matches)));
    }
    slots[m]->NextMatch();
  }
  std::this_thread::sleep_until(end_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    for (grpc::ClientContext* c : contexts_) c->TryCancel();
    retry_wake_.notify_one();  // waiting retries run now, and let go
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [this] { return held_ == 0; });
    retry_wake_.notify_one();
  }
  retry_thread_.join();
}

}  // namespace

void PlayWithCallbacks(const PlayOptions& options, int matches,
                       double seconds, Totals* totals) {
  const Clock::time_point end =
      Clock::now() +
      std::chrono::microseconds(static_cast<int64_t>(seconds * 1e6));
  Run run(options, totals, end);
  run.Play(matches);
}

}  // namespace cardref::load
