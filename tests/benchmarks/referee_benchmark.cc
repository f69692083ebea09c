// End-to-end referee throughput over gRPC on loopback: an in-process
// referee (the same RefereeServer as cardref_referee, logging to a temp
// dir) and random bots on their own threads and channels, each watching
// its stream and submitting as the example bot does. Built by default, not
// run by ctest; figures in BENCHMARKS.md.
//
//   build/tests/referee_benchmark --benchmark_min_time=3
#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/benchmark.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "referee/base/rng.h"
#include "referee/grpc/server.h"

namespace cardref {
namespace {

struct Referee {
  Referee() {
    dir = std::filesystem::temp_directory_path() /
          ("referee_benchmark_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    grpc_service::ServerOptions options;
    options.manager.log_dir = dir.string();
    server = std::move(*grpc_service::RefereeServer::Start(options));
  }
  ~Referee() {
    server.reset();
    std::filesystem::remove_all(dir);
  }
  std::filesystem::path dir;
  std::unique_ptr<grpc_service::RefereeServer> server;
};

Referee& SharedReferee() {
  static Referee* referee = new Referee;
  return *referee;
}

// Plays one seat to the end; returns the decisions it made.
int PlaySeat(const std::string& address, const v1::JoinMatchResponse& me,
             uint64_t seed) {
  auto stub = v1::Referee::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  Rng rng(seed);
  v1::SeatRequest request;
  request.set_match_id(me.match_id());
  request.set_seat(me.seat());
  request.set_token(me.token());
  grpc::ClientContext context;
  auto stream = stub->WatchObservations(&context, request);
  v1::Observation obs;
  int decisions = 0;
  while (stream->Read(&obs)) {
    if (obs.seat_to_act() != me.seat()) continue;
    v1::SubmitActionRequest submit;
    submit.set_match_id(me.match_id());
    submit.set_seat(me.seat());
    submit.set_token(me.token());
    *submit.mutable_action() =
        obs.legal_actions(rng.Uniform(obs.legal_actions_size()));
    submit.set_decision_version(obs.version());
    v1::SubmitActionResponse response;
    grpc::ClientContext submit_context;
    if (stub->SubmitAction(&submit_context, submit, &response).ok()) {
      ++decisions;
    }
  }
  stream->Finish();
  return decisions;
}

// Each iteration plays `matches` Craits matches (2 seats, SHORT) at once.
void BM_ConcurrentCraitsMatches(benchmark::State& bench) {
  const int matches = static_cast<int>(bench.range(0));
  Referee& referee = SharedReferee();
  const std::string address = referee.server->address();
  auto stub = v1::Referee::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  int64_t decisions = 0;
  uint64_t seed = 1;
  for (auto _ : bench) {
    std::vector<v1::JoinMatchResponse> seats;
    for (int m = 0; m < matches; ++m) {
      v1::CreateMatchRequest create;
      create.set_game("craits");
      auto& values = *create.mutable_params()->mutable_values();
      values["num_players"].set_int_value(2);
      values["game_length"].set_enum_value("SHORT");
      create.set_dealing_seed(seed++);
      v1::CreateMatchResponse created;
      grpc::ClientContext c;
      stub->CreateMatch(&c, create, &created);
      for (int s = 0; s < 2; ++s) {
        v1::JoinMatchRequest join;
        join.set_match_id(created.match_id());
        join.set_seat(s);
        v1::JoinMatchResponse joined;
        grpc::ClientContext j;
        stub->JoinMatch(&j, join, &joined);
        seats.push_back(joined);
      }
    }
    std::atomic<int64_t> made{0};
    std::vector<std::thread> bots;
    for (size_t i = 0; i < seats.size(); ++i) {
      bots.emplace_back([&, i] { made += PlaySeat(address, seats[i], seed + i); });
    }
    for (std::thread& t : bots) t.join();
    decisions += made;
  }
  bench.counters["decisions_per_s"] =
      benchmark::Counter(static_cast<double>(decisions),
                         benchmark::Counter::kIsRate);
  bench.counters["us_per_decision"] = benchmark::Counter(
      static_cast<double>(decisions),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ConcurrentCraitsMatches)
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cardref

BENCHMARK_MAIN();
