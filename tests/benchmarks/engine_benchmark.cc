// The engine's operations one at a time, for every registered game with
// default parameters, on the decision states of random playouts (as
// playout_benchmark plays them): LegalActions, ApplyLegalAction (replaying
// recorded games, so no legal-action generation is timed), Clone, and
// building a seat's observation (codec::FillObservation, what the referee
// sends for every decision). Built by default, not run by ctest; figures in
// BENCHMARKS.md.
//
//   build/tests/engine_benchmark [--benchmark_filter=craits]
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "cardref/v1/game.pb.h"
#include "referee/base/rng.h"
#include "referee/codec/arena_message.h"
#include "referee/codec/codec.h"
#include "games/all_games.h"
#include "games/api/game.h"

namespace cardref {
namespace {

constexpr int kGames = 16;

// One step of a recorded game: a chance event's cards or a decision.
struct Step {
  bool chance = false;
  ChanceKind kind{};
  std::vector<Card> cards;
  Action action{};
};

struct Recorded {
  std::unique_ptr<Game> game;
  std::vector<std::vector<Step>> games;          // kGames playouts
  std::vector<std::unique_ptr<State>> decisions;  // every decision state
  int64_t decision_count = 0;
};

// Plays kGames random games of `id`, recording every step and keeping a
// copy of every decision state.
const Recorded& RecordedGames(const std::string& id) {
  static auto* cache = new std::map<std::string, Recorded>;
  auto [it, inserted] = cache->try_emplace(id);
  Recorded& r = it->second;
  if (!inserted) return r;
  absl::StatusOr<std::unique_ptr<Game>> game = AllGames().Create(id, {});
  if (!game.ok()) return r;
  r.game = std::move(*game);
  Rng rng(2026);
  ActionList legal;
  Card cards[64];
  for (int g = 0; g < kGames; ++g) {
    std::vector<Step>& steps = r.games.emplace_back();
    std::unique_ptr<State> state = r.game->NewInitialState();
    while (state->node_type() != NodeType::kTerminal) {
      Step step;
      if (state->node_type() == NodeType::kChance) {
        const int n = state->ChanceCards(absl::MakeSpan(cards));
        rng.Shuffle(absl::MakeSpan(cards, n));
        step.chance = true;
        step.kind = state->chance_kind();
        step.cards.assign(cards, cards + n);
        if (!state->ApplyChance(step.kind, step.cards).ok()) std::abort();
      } else {
        r.decisions.push_back(state->Clone());
        state->LegalActions(legal);
        step.action = legal[rng.Uniform(legal.size())];
        state->ApplyLegalAction(step.action);
        ++r.decision_count;
      }
      steps.push_back(std::move(step));
    }
  }
  return r;
}

void PerDecision(benchmark::State& bench, int64_t decisions) {
  bench.counters["decisions"] = benchmark::Counter(
      static_cast<double>(decisions), benchmark::Counter::kIsRate);
}

void BM_LegalActions(benchmark::State& bench, const std::string& id) {
  const Recorded& r = RecordedGames(id);
  ActionList legal;
  size_t i = 0;
  for (auto _ : bench) {
    r.decisions[i]->LegalActions(legal);
    benchmark::DoNotOptimize(legal.size());
    if (++i == r.decisions.size()) i = 0;
  }
  PerDecision(bench, bench.iterations());
}

// One iteration replays the recorded games (chance events included).
void BM_Apply(benchmark::State& bench, const std::string& id) {
  const Recorded& r = RecordedGames(id);
  for (auto _ : bench) {
    for (const std::vector<Step>& steps : r.games) {
      std::unique_ptr<State> state = r.game->NewInitialState();
      for (const Step& step : steps) {
        if (step.chance) {
          if (!state->ApplyChance(step.kind, step.cards).ok()) std::abort();
        } else {
          state->ApplyLegalAction(step.action);
        }
      }
      benchmark::DoNotOptimize(state.get());
    }
  }
  PerDecision(bench, bench.iterations() * r.decision_count);
}

void BM_Clone(benchmark::State& bench, const std::string& id) {
  const Recorded& r = RecordedGames(id);
  size_t i = 0;
  for (auto _ : bench) {
    std::unique_ptr<State> copy = r.decisions[i]->Clone();
    benchmark::DoNotOptimize(copy.get());
    if (++i == r.decisions.size()) i = 0;
  }
}

// The observation of the seat to act, on a reused arena as the referee's
// stream writer builds them (ObservationWriter).
void BM_Observation(benchmark::State& bench, const std::string& id) {
  const Recorded& r = RecordedGames(id);
  codec::ArenaMessage<v1::Observation> message;
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : bench) {
    const State& state = *r.decisions[i];
    v1::Observation& obs = message.Fresh();
    codec::FillObservation(state, state.current_seat(), &obs);
    bytes += static_cast<int64_t>(obs.ByteSizeLong());
    if (++i == r.decisions.size()) i = 0;
  }
  bench.counters["obs_bytes"] =
      static_cast<double>(bytes) / static_cast<double>(bench.iterations());
}

}  // namespace
}  // namespace cardref

int main(int argc, char** argv) {
  using cardref::AllGames;
  for (const std::string& id : AllGames().Ids()) {
    benchmark::RegisterBenchmark(("BM_LegalActions/" + id).c_str(),
                                 cardref::BM_LegalActions, id);
    benchmark::RegisterBenchmark(("BM_Apply/" + id).c_str(), cardref::BM_Apply,
                                 id)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_Clone/" + id).c_str(), cardref::BM_Clone,
                                 id);
    benchmark::RegisterBenchmark(("BM_Observation/" + id).c_str(),
                                 cardref::BM_Observation, id);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
