#include "tools/load/echo_service.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "referee/games/all_games.h"

namespace cardref::load {

absl::StatusOr<std::unique_ptr<EchoService>> EchoService::Create(
    const std::string& game_id, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<Game>> game = AllGames().Create(game_id, {});
  if (!game.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--game: ", game.status().message()));
  }
  std::unique_ptr<EchoService> echo(new EchoService((*game)->num_seats()));
  std::unique_ptr<State> state = (*game)->NewInitialState();
  Rng rng(seed);
  Card cards[64];
  ActionList legal;
  while (!state->IsTerminal()) {
    if (state->node_type() == NodeType::kChance) {
      const int n = state->ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards, n));
      if (!state->ApplyChance(state->chance_kind(),
                              absl::MakeConstSpan(cards, n))
               .ok()) {
        return absl::InternalError("the engine refused its own chance event");
      }
      continue;
    }
    v1::Observation& obs = echo->script_.emplace_back();
    codec::FillObservation(*state, state->current_seat(), &obs);
    state->LegalActions(legal);
    state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
  }
  return echo;
}

std::shared_ptr<EchoService::Match> EchoService::Find(const std::string& id) {
  absl::MutexLock lock(&mu_);
  auto it = matches_.find(id);
  return it == matches_.end() ? nullptr : it->second;
}

void EchoService::ObservationAt(size_t step, v1::Observation* out) const {
  if (step >= script_.size()) {
    out->Clear();
    out->set_seat_to_act(-1);
    out->set_version(step + 1);
    return;
  }
  *out = script_[step];
  out->set_version(step + 1);
}

grpc::Status EchoService::CreateMatch(grpc::ServerContext*,
                                      const v1::CreateMatchRequest*,
                                      v1::CreateMatchResponse* response) {
  absl::MutexLock lock(&mu_);
  const std::string id = absl::StrCat("echo-", next_id_++);
  matches_[id] = std::make_shared<Match>();
  response->set_match_id(id);
  response->set_num_seats(num_seats_);
  return grpc::Status::OK;
}

grpc::Status EchoService::JoinMatch(grpc::ServerContext*,
                                    const v1::JoinMatchRequest* request,
                                    v1::JoinMatchResponse* response) {
  if (Find(request->match_id()) == nullptr) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
  }
  response->set_match_id(request->match_id());
  response->set_seat(request->has_seat() ? request->seat() : 0);
  response->set_token("echo");
  response->set_num_seats(num_seats_);
  return grpc::Status::OK;
}

grpc::Status EchoService::GetObservation(grpc::ServerContext*,
                                         const v1::SeatRequest* request,
                                         v1::Observation* response) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
  }
  size_t step;
  {
    absl::MutexLock lock(&match->mu);
    step = match->step;
  }
  ObservationAt(step, response);
  return grpc::Status::OK;
}

grpc::Status EchoService::SubmitAction(grpc::ServerContext*,
                                       const v1::SubmitActionRequest* request,
                                       v1::SubmitActionResponse* response) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
  }
  size_t step;
  {
    absl::MutexLock lock(&match->mu);
    if (match->step >= script_.size() ||
        request->decision_version() != match->step + 1) {
      return grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                          "not this decision");
    }
    step = ++match->step;
  }
  ObservationAt(step, response->mutable_observation());
  if (step >= script_.size()) {
    absl::MutexLock lock(&mu_);
    matches_.erase(request->match_id());
  }
  return grpc::Status::OK;
}

grpc::Status EchoService::WatchObservations(
    grpc::ServerContext* context, const v1::SeatRequest* request,
    grpc::ServerWriter<v1::Observation>* writer) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) {
    return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
  }
  size_t sent = static_cast<size_t>(-1);
  v1::Observation obs;
  while (!context->IsCancelled()) {
    size_t step;
    {
      absl::MutexLock lock(&match->mu);
      // Wakes up now and then to notice a cancelled call.
      std::pair<Match*, size_t> arg(match.get(), sent);
      match->mu.AwaitWithTimeout(
          absl::Condition(
              +[](std::pair<Match*, size_t>* a) {
                return a->first->step != a->second;
              },
              &arg),
          absl::Milliseconds(200));
      step = match->step;
    }
    if (step == sent) continue;
    sent = step;
    ObservationAt(step, &obs);
    // Every seat's watcher gets the acting seat's view (the same size).
    if (!writer->Write(obs)) break;
    if (step >= script_.size()) break;
  }
  return grpc::Status::OK;
}

}  // namespace cardref::load
