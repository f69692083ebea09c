// A trivial implementation of the Referee RPCs a bot uses (CreateMatch,
// JoinMatch, WatchObservations, GetObservation, SubmitAction, PlaySeat), for
// cardref_load's baseline: no engine, no validation, no log. It is the same
// kind of server as the referee (gRPC's callback API, a write reactor per
// stream that writes only when its seat is to act and once at the end, as
// referee/grpc/referee_service.cc's does). Each match replays observations
// recorded once from a random game of the same game
// (codec::FillObservation plus the actions since the seat's previous
// observation, as the referee's stream sends them), with match ids and
// tokens of the referee's length, so requests and observations have the
// sizes the referee's have (cardref_load prints both sides' observation
// bytes); a submission for the current decision advances the match one
// step.
#ifndef CARDREF_LOAD_ECHO_SERVICE_H_
#define CARDREF_LOAD_ECHO_SERVICE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.grpc.pb.h"

namespace cardref::load {

class EchoService final : public v1::Referee::CallbackService {
 public:
  // Records the observations of one random game of `game` (default
  // parameters, `seed`). INVALID_ARGUMENT for an unknown game.
  static absl::StatusOr<std::unique_ptr<EchoService>> Create(
      const std::string& game, uint64_t seed);

  grpc::ServerUnaryReactor* CreateMatch(
      grpc::CallbackServerContext* context,
      const v1::CreateMatchRequest* request,
      v1::CreateMatchResponse* response) override;
  grpc::ServerUnaryReactor* JoinMatch(grpc::CallbackServerContext* context,
                                      const v1::JoinMatchRequest* request,
                                      v1::JoinMatchResponse* response) override;
  grpc::ServerUnaryReactor* GetObservation(
      grpc::CallbackServerContext* context, const v1::SeatRequest* request,
      v1::Observation* response) override;
  grpc::ServerUnaryReactor* SubmitAction(
      grpc::CallbackServerContext* context,
      const v1::SubmitActionRequest* request,
      v1::SubmitActionResponse* response) override;
  grpc::ServerWriteReactor<v1::Observation>* WatchObservations(
      grpc::CallbackServerContext* context,
      const v1::SeatRequest* request) override;
  grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
  PlaySeat(grpc::CallbackServerContext* context) override;

  // One match: its step, and the streams watching it.
  struct Match {
    std::string id;
    int64_t limit_ms = 0;  // the decision time limit it was created with
    absl::Mutex mu;
    size_t step ABSL_GUARDED_BY(mu) = 0;  // into the script; size(): over
    // Held while watchers run, so removing one waits for its call to end.
    absl::Mutex watch_mu ABSL_ACQUIRED_BEFORE(mu);
    int next_watcher ABSL_GUARDED_BY(watch_mu) = 0;
    std::map<int, std::function<void()>> watchers ABSL_GUARDED_BY(watch_mu);
  };

  size_t steps() const { return script_.size(); }
  // The seat to act at `step`; -1 once over.
  int SeatAt(size_t step) const;
  // `match`'s observation of step `step` (version step + 1).
  void ObservationAt(const Match& match, size_t step,
                     v1::Observation* out) const;
  // Advances `match` past the decision of version `decision_version` and
  // tells its watchers; returns the step reached, or nullopt (nothing
  // changes) if that is not its current decision.
  std::optional<size_t> Advance(Match& match, uint64_t decision_version);
  // The match `id`; null if there is none (or it is over).
  std::shared_ptr<Match> Find(const std::string& id);

 private:
  EchoService(std::string game_id, int num_seats)
      : game_id_(std::move(game_id)), num_seats_(num_seats) {}

  const std::string game_id_;
  const int num_seats_;
  std::vector<v1::Observation> script_;  // one per decision, in order

  absl::Mutex mu_;
  int64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  std::map<std::string, std::shared_ptr<Match>> matches_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::load

#endif  // CARDREF_LOAD_ECHO_SERVICE_H_
