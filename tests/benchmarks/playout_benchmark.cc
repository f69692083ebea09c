// Uniformly random playouts of every registered game with default
// parameters: chance events drawn with Rng::Shuffle of ChanceCards, each
// decision a uniform pick from LegalActions applied with ApplyLegalAction.
// One benchmark iteration is one complete game; the `decisions` counter is
// decisions per second (and `per_game` the mean decisions per game).
// Built by default, not run by ctest: see BENCHMARKS.md.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "referee/base/rng.h"
#include "games/all_games.h"
#include "games/api/game.h"

namespace cardref {
namespace {

// Plays one game to the end; returns the number of decisions.
int64_t RandomPlayout(const Game& game, Rng& rng) {
  std::unique_ptr<State> state = game.NewInitialState();
  ActionList legal;
  Card cards[64];
  int64_t decisions = 0;
  while (true) {
    switch (state->node_type()) {
      case NodeType::kTerminal:
        return decisions;
      case NodeType::kChance: {
        const int n = state->ChanceCards(absl::MakeSpan(cards));
        rng.Shuffle(absl::MakeSpan(cards, n));
        absl::Status st =
            state->ApplyChance(state->chance_kind(), absl::MakeConstSpan(cards, n));
        if (!st.ok()) {
          std::cerr << game.id() << ": chance event rejected: " << st << "\n";
          std::abort();
        }
        break;
      }
      case NodeType::kDecision:
        state->LegalActions(legal);
        state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
        ++decisions;
        break;
    }
  }
}

void BM_RandomPlayout(benchmark::State& bench, const std::string& id) {
  absl::StatusOr<std::unique_ptr<Game>> game = AllGames().Create(id, {});
  if (!game.ok()) {
    bench.SkipWithError(std::string(game.status().message()).c_str());
    return;
  }
  Rng rng(12345);
  int64_t decisions = 0;
  int64_t games = 0;
  for (auto _ : bench) {
    decisions += RandomPlayout(**game, rng);
    ++games;
  }
  bench.counters["decisions"] = benchmark::Counter(
      static_cast<double>(decisions), benchmark::Counter::kIsRate);
  bench.counters["per_game"] =
      static_cast<double>(decisions) / static_cast<double>(games);
}

}  // namespace
}  // namespace cardref

int main(int argc, char** argv) {
  for (const std::string& id : cardref::AllGames().Ids()) {
    benchmark::RegisterBenchmark(("BM_RandomPlayout/" + id).c_str(),
                                 cardref::BM_RandomPlayout, id)
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
