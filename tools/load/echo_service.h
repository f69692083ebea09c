// A trivial implementation of the Referee RPCs a bot uses (CreateMatch,
// JoinMatch, WatchObservations, GetObservation, SubmitAction), for
// cardref_load's baseline: no engine, no validation, no log. Each match
// replays observations recorded once from a random game of the same game
// (codec::FillObservation), so the messages have the sizes the referee's
// have; every submission by the seat to act advances the match one step.
#ifndef CARDREF_TOOLS_LOAD_ECHO_SERVICE_H_
#define CARDREF_TOOLS_LOAD_ECHO_SERVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.grpc.pb.h"

namespace cardref::load {

class EchoService final : public v1::Referee::Service {
 public:
  // Records the observations of one random game of `game` (default
  // parameters, `seed`). INVALID_ARGUMENT for an unknown game.
  static absl::StatusOr<std::unique_ptr<EchoService>> Create(
      const std::string& game, uint64_t seed);

  grpc::Status CreateMatch(grpc::ServerContext* context,
                           const v1::CreateMatchRequest* request,
                           v1::CreateMatchResponse* response) override;
  grpc::Status JoinMatch(grpc::ServerContext* context,
                         const v1::JoinMatchRequest* request,
                         v1::JoinMatchResponse* response) override;
  grpc::Status GetObservation(grpc::ServerContext* context,
                              const v1::SeatRequest* request,
                              v1::Observation* response) override;
  grpc::Status SubmitAction(grpc::ServerContext* context,
                            const v1::SubmitActionRequest* request,
                            v1::SubmitActionResponse* response) override;
  grpc::Status WatchObservations(
      grpc::ServerContext* context, const v1::SeatRequest* request,
      grpc::ServerWriter<v1::Observation>* writer) override;

 private:
  struct Match {
    absl::Mutex mu;
    size_t step ABSL_GUARDED_BY(mu) = 0;  // into script_; size(): over
  };
  explicit EchoService(int num_seats) : num_seats_(num_seats) {}
  std::shared_ptr<Match> Find(const std::string& id);
  // The observation of step `step` (version step + 1).
  void ObservationAt(size_t step, v1::Observation* out) const;

  const int num_seats_;
  std::vector<v1::Observation> script_;  // one per decision, in order

  absl::Mutex mu_;
  int64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  std::map<std::string, std::shared_ptr<Match>> matches_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::load

#endif  // CARDREF_TOOLS_LOAD_ECHO_SERVICE_H_
