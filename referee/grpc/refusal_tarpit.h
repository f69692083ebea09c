// A tarpit for callers whose calls the referee keeps refusing. Refusals
// (client errors: illegal or out-of-turn moves, bad tokens, undecodable
// requests, rate limits) are answered at once up to a free quota per caller
// (a token bucket: service::Limits::refusal_burst, refilling at
// refusals_per_second); past it, each is answered only after
// refusal_delay_ms. A flooder that waits for its answers (any synchronous
// client) then stalls on its own calls, and the referee spends nothing while
// it waits: no thread, one queue entry per held answer. At most
// max_delayed_refusals answers are held at once, past that they go out at
// once; an asynchronous flooder is bounded by the call rate limits
// (call_gate.h). Honest bots, refused a handful of times, never wait.
// docs/limits.md, "Refusals".
#ifndef CARDREF_REFEREE_GRPC_REFUSAL_TARPIT_H_
#define CARDREF_REFEREE_GRPC_REFUSAL_TARPIT_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "referee/service/clock.h"
#include "referee/service/limits.h"
#include "referee/service/rate_limit.h"

namespace cardref::grpc_service {

// True for the codes that blame the caller's request (and so count against
// its quota); not for OK, nor for the server's own troubles (UNAVAILABLE,
// INTERNAL, DATA_LOSS, ...), nor CANCELLED and DEADLINE_EXCEEDED.
bool IsRefusal(grpc::StatusCode code);

// Thread-safe.
class RefusalTarpit {
 public:
  // `clock` (not owned) refills the quotas; the delay is real time.
  RefusalTarpit(const service::Limits& limits, const service::Clock* clock);
  ~RefusalTarpit();  // Stop()
  RefusalTarpit(const RefusalTarpit&) = delete;
  RefusalTarpit& operator=(const RefusalTarpit&) = delete;

  // Finishes `reactor` with `status`: at once, unless `status` is a refusal
  // past `caller`'s free quota and fewer than the maximum are held.
  void Finish(grpc::ServerUnaryReactor* reactor, grpc::Status status,
              absl::string_view caller) ABSL_LOCKS_EXCLUDED(mu_);

  // Answers every held call now, and every later one at once. gRPC's
  // shutdown waits for every call to be answered, so the server calls this
  // first.
  void Stop() ABSL_LOCKS_EXCLUDED(mu_);

  bool enabled() const { return free_.enabled() && delay_.count() > 0; }
  // Answers held now, and held since the start.
  size_t held() const ABSL_LOCKS_EXCLUDED(mu_);
  uint64_t delayed_total() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  using SteadyTime = std::chrono::steady_clock::time_point;
  struct Held {
    SteadyTime due;
    grpc::ServerUnaryReactor* reactor;
    grpc::Status status;
  };
  void Run() ABSL_LOCKS_EXCLUDED(mu_);

  service::RateLimiter free_;
  const std::chrono::milliseconds delay_;
  const size_t max_held_;
  mutable absl::Mutex mu_;
  absl::CondVar wake_;  // an answer to hold, or Stop
  // Due in the order they were held: the delay is the same for all.
  std::deque<Held> held_ ABSL_GUARDED_BY(mu_);
  uint64_t delayed_total_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;
  std::thread timer_;  // started with the first held answer
};

}  // namespace cardref::grpc_service

#endif  // CARDREF_REFEREE_GRPC_REFUSAL_TARPIT_H_
