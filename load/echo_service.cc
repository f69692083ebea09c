#include "load/echo_service.h"

#include <functional>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "referee/grpc/grpc_status.h"
#include "referee/grpc/stream_writer.h"
#include "referee/service/match_manager.h"

namespace cardref::load {

absl::StatusOr<std::unique_ptr<EchoService>> EchoService::Create(
    const std::string& game_id, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<Game>> game = AllGames().Create(game_id, {});
  if (!game.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--game: ", game.status().message()));
  }
  std::unique_ptr<EchoService> echo(
      new EchoService(game_id, (*game)->num_seats()));
  std::unique_ptr<State> state = (*game)->NewInitialState();
  Rng rng(seed);
  Card cards[64];
  ActionList legal;
  // What the referee's stream adds to each observation: the actions since
  // the seat's previous one (Match::ObserveIntoLocked), so the messages
  // have the referee's sizes, not only the game view's.
  std::vector<v1::ActionRecord> history;
  std::vector<size_t> shown((*game)->num_seats(), 0);
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
    const int seat = state->current_seat();
    v1::Observation& obs = echo->script_.emplace_back();
    obs.set_status(v1::MATCH_STATUS_IN_PROGRESS);
    codec::FillObservation(*state, seat, &obs);
    for (size_t i = shown[seat]; i < history.size(); ++i) {
      *obs.add_recent_actions() = history[i];
    }
    shown[seat] = history.size();
    state->LegalActions(legal);
    const Action action = legal[rng.Uniform(legal.size())];
    v1::ActionRecord& record = history.emplace_back();
    record.set_version(echo->script_.size());
    record.set_seat(seat);
    *record.mutable_action() = codec::EncodeAction(*state, action);
    record.set_round(state->round());
    state->ApplyLegalAction(action);
  }
  return echo;
}

std::shared_ptr<EchoService::Match> EchoService::Find(const std::string& id) {
  absl::MutexLock lock(&mu_);
  auto it = matches_.find(id);
  return it == matches_.end() ? nullptr : it->second;
}

int EchoService::SeatAt(size_t step) const {
  return step < script_.size() ? script_[step].seat_to_act() : -1;
}

void EchoService::ObservationAt(const Match& match, size_t step,
                                v1::Observation* out) const {
  if (step >= script_.size()) {
    out->Clear();
    out->set_seat_to_act(-1);
  } else {
    *out = script_[step];
    if (match.limit_ms > 0) {  // as the referee shows the seat to act
      out->set_deadline_unix_millis(absl::ToUnixMillis(absl::Now()) +
                                    match.limit_ms);
    }
  }
  out->set_match_id(match.id);
  out->set_version(step + 1);
}

namespace {

// As long as the referee's seat tokens (token.cc: 32 hex digits).
constexpr char kToken[] = "0123456789abcdef0123456789abcdef";

grpc::ServerUnaryReactor* Done(grpc::CallbackServerContext* context,
                               grpc::Status status) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  reactor->Finish(std::move(status));
  return reactor;
}

grpc::Status NoSuchMatch() {
  return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
}

// What a seat's stream owes it: its observation each time it is to act,
// and once at the end (the referee's SeatFeed, without the referee).
class EchoFeed {
 public:
  enum class Due { kNothing, kObservation, kLastObservation };

  // Fills `out` with what is due.
  Due Next(const EchoService& echo, EchoService::Match& match, int seat,
           v1::Observation* out) {
    size_t step;
    {
      absl::MutexLock lock(&match.mu);
      step = match.step;
    }
    const bool over = step >= echo.steps();
    if (!(over || echo.SeatAt(step) == seat) || step + 1 == last_version_) {
      return Due::kNothing;
    }
    echo.ObservationAt(match, step, out);
    last_version_ = step + 1;
    return over ? Due::kLastObservation : Due::kObservation;
  }

 private:
  uint64_t last_version_ = 0;
};

// Registers `poke` as one of `match`'s watchers until the returned id is
// let go (Unwatch).
int Watch(EchoService::Match& match, std::function<void()> poke) {
  absl::MutexLock lock(&match.watch_mu);
  const int id = match.next_watcher++;
  match.watchers[id] = std::move(poke);
  return id;
}

void Unwatch(EchoService::Match& match, int id) {
  absl::MutexLock lock(&match.watch_mu);
  match.watchers.erase(id);
}

// A stream that writes what EchoFeed says is due.
template <typename Message, typename Reactor>
class EchoStream : public grpc_service::StreamWriter<Message, Reactor> {
 protected:
  using Base = grpc_service::StreamWriter<Message, Reactor>;
  // `message` holds the observation the feed filled.
  static typename Base::Next NextFor(EchoFeed::Due due,
                                     const Message* message) {
    switch (due) {
      case EchoFeed::Due::kNothing:
        return Base::Nothing();
      case EchoFeed::Due::kObservation:
        return Base::Write(message);
      case EchoFeed::Due::kLastObservation:
        return Base::WriteThenFinish(message, grpc::Status::OK);
    }
    return Base::Nothing();
  }
};

// WatchObservations' stream (the referee's ObservationWriter, without the
// referee).
class EchoWriter final
    : public EchoStream<v1::Observation,
                        grpc::ServerWriteReactor<v1::Observation>> {
 public:
  EchoWriter(const EchoService* echo, std::shared_ptr<EchoService::Match> match,
             int seat)
      : echo_(echo), match_(std::move(match)), seat_(seat) {
    watcher_ = Watch(*match_, [this] { Poke(); });
    Poke();
  }

  void OnDone() override {
    Unwatch(*match_, watcher_);
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return NextFor(feed_.Next(*echo_, *match_, seat_, &pending_), &pending_);
  }

  const EchoService* const echo_;
  const std::shared_ptr<EchoService::Match> match_;
  const int seat_;
  int watcher_ = -1;
  EchoFeed feed_ ABSL_GUARDED_BY(mu_);
  v1::Observation pending_ ABSL_GUARDED_BY(mu_);
};

// PlaySeat's stream (the referee's SeatPlayStream, without the referee):
// the first message names the seat, each later one is an action, which
// advances the match; a stale action is dropped, as the referee would
// refuse it.
class EchoSeatStream final
    : public EchoStream<v1::PlaySeatResponse,
                        grpc::ServerBidiReactor<v1::PlaySeatRequest,
                                                v1::PlaySeatResponse>> {
 public:
  explicit EchoSeatStream(EchoService* echo) : echo_(echo) {
    StartRead(&request_);
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the bot closed its side; the match goes on
    if (match_ == nullptr) {
      std::shared_ptr<EchoService::Match> match =
          echo_->Find(request_.seat().match_id());
      if (match == nullptr) {
        absl::MutexLock lock(&mu_);
        end_ = grpc::Status(grpc::StatusCode::NOT_FOUND, "no such match");
        PokeLocked();
        return;
      }
      {
        absl::MutexLock lock(&mu_);
        seat_ = request_.seat().seat();
        match_ = std::move(match);
      }
      watcher_ = Watch(*match_, [this] { Poke(); });
      Poke();
    } else {
      echo_->Advance(*match_, request_.action().decision_version());
    }
    absl::MutexLock lock(&mu_);
    if (!FinishedLocked()) StartRead(&request_);
  }

  void OnDone() override {
    if (watcher_ >= 0) Unwatch(*match_, watcher_);
    delete this;
  }

 private:
  Next NextLocked() override ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (end_.has_value()) return FinishWith(*end_);
    if (match_ == nullptr) return Nothing();
    return NextFor(
        feed_.Next(*echo_, *match_, seat_, pending_.mutable_observation()),
        &pending_);
  }

  EchoService* const echo_;
  v1::PlaySeatRequest request_;  // the read side's
  // Set by the first message, before the watcher that reads them.
  std::shared_ptr<EchoService::Match> match_;
  int seat_ = 0;
  int watcher_ = -1;
  std::optional<grpc::Status> end_ ABSL_GUARDED_BY(mu_);
  EchoFeed feed_ ABSL_GUARDED_BY(mu_);
  v1::PlaySeatResponse pending_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

grpc::ServerUnaryReactor* EchoService::CreateMatch(
    grpc::CallbackServerContext* context, const v1::CreateMatchRequest* request,
    v1::CreateMatchResponse* response) {
  absl::MutexLock lock(&mu_);
  // Ids in the referee's shape, so requests and observations carry as many
  // bytes.
  const int64_t serial = next_id_++;
  const std::string id = service::FormatMatchId(
      game_id_, absl::Now(), serial,
      std::string(service::kMatchIdRandomBytes, static_cast<char>(serial)));
  auto match = std::make_shared<Match>();
  match->id = id;
  match->limit_ms = request->decision_time_limit_millis();
  matches_[id] = std::move(match);
  response->set_match_id(id);
  response->set_num_seats(num_seats_);
  return Done(context, grpc::Status::OK);
}

grpc::ServerUnaryReactor* EchoService::JoinMatch(
    grpc::CallbackServerContext* context, const v1::JoinMatchRequest* request,
    v1::JoinMatchResponse* response) {
  if (Find(request->match_id()) == nullptr) return Done(context, NoSuchMatch());
  response->set_match_id(request->match_id());
  response->set_seat(request->has_seat() ? request->seat() : 0);
  response->set_token(kToken);
  response->set_num_seats(num_seats_);
  return Done(context, grpc::Status::OK);
}

grpc::ServerUnaryReactor* EchoService::GetObservation(
    grpc::CallbackServerContext* context, const v1::SeatRequest* request,
    v1::Observation* response) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) return Done(context, NoSuchMatch());
  size_t step;
  {
    absl::MutexLock lock(&match->mu);
    step = match->step;
  }
  ObservationAt(*match, step, response);
  return Done(context, grpc::Status::OK);
}

std::optional<size_t> EchoService::Advance(Match& match,
                                           uint64_t decision_version) {
  size_t step;
  {
    absl::MutexLock lock(&match.mu);
    if (match.step >= script_.size() || decision_version != match.step + 1) {
      return std::nullopt;
    }
    step = ++match.step;
  }
  {
    absl::MutexLock lock(&match.watch_mu);
    for (auto& [id, watcher] : match.watchers) watcher();
  }
  if (step >= script_.size()) {
    absl::MutexLock lock(&mu_);
    matches_.erase(match.id);
  }
  return step;
}

grpc::ServerUnaryReactor* EchoService::SubmitAction(
    grpc::CallbackServerContext* context,
    const v1::SubmitActionRequest* request,
    v1::SubmitActionResponse* response) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) return Done(context, NoSuchMatch());
  const std::optional<size_t> step =
      Advance(*match, request->decision_version());
  if (!step.has_value()) {
    return Done(context, grpc::Status(grpc::StatusCode::FAILED_PRECONDITION,
                                      "not this decision"));
  }
  if (!request->omit_observation()) {
    ObservationAt(*match, *step, response->mutable_observation());
  }
  return Done(context, grpc::Status::OK);
}

grpc::ServerWriteReactor<v1::Observation>* EchoService::WatchObservations(
    grpc::CallbackServerContext*, const v1::SeatRequest* request) {
  std::shared_ptr<Match> match = Find(request->match_id());
  if (match == nullptr) {
    return new grpc_service::ErrorWriter<v1::Observation>(
        absl::NotFoundError("no such match"));
  }
  return new EchoWriter(this, std::move(match), request->seat());
}

grpc::ServerBidiReactor<v1::PlaySeatRequest, v1::PlaySeatResponse>*
EchoService::PlaySeat(grpc::CallbackServerContext* /*context*/) {
  return new EchoSeatStream(this);
}

}  // namespace cardref::load
