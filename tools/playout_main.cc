// cardref_playout --game=craits --games=N --seed=S [--params=a=1,b=x]
//
// Plays N uniformly random games (every chance event drawn with
// Rng::Shuffle of State::ChanceCards, every decision a uniform pick from
// LegalActions applied with ApplyLegalAction) and prints how many decisions
// were played. Meant for instruction counts per decision:
//   valgrind --tool=callgrind cardref_playout --games=200
// minus the same run with --games=0 (start-up cost), divided by the
// decisions printed. See BENCHMARKS.md.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/string_view.h"
#include "referee/base/rng.h"
#include "games/all_games.h"
#include "games/api/game.h"
#include "games/api/params.h"
#include "tools/cli_flags.h"

ABSL_FLAG(std::string, game, "craits", "game id, e.g. craits");
ABSL_FLAG(int, games, 1000, "number of random games to play (>= 0)");
ABSL_FLAG(uint64_t, seed, 1, "seed of the Rng that drives chance and picks");
ABSL_FLAG(std::string, params, "",
          "game parameters name=value,... (defaults for the others)");

namespace {

constexpr char kUsage[] =
    "cardref_playout: plays uniformly random games and prints the number of\n"
    "decisions played.\n"
    "Usage: cardref_playout [--game=craits] [--games=1000] [--seed=1]\n"
    "                       [--params=name=value,...]\n";

struct Counts {
  int64_t decisions = 0;
  int64_t chance_events = 0;
};

bool PlayOne(const cardref::Game& game, cardref::Rng& rng, Counts& counts) {
  std::unique_ptr<cardref::State> state = game.NewInitialState();
  cardref::ActionList legal;
  cardref::Card cards[64];
  while (true) {
    switch (state->node_type()) {
      case cardref::NodeType::kTerminal:
        return true;
      case cardref::NodeType::kChance: {
        const int n = state->ChanceCards(absl::MakeSpan(cards));
        rng.Shuffle(absl::MakeSpan(cards, n));
        absl::Status st = state->ApplyChance(
            state->chance_kind(), absl::MakeConstSpan(cards, n));
        if (!st.ok()) {
          std::cerr << "cardref_playout: chance event rejected: " << st
                    << "\n";
          return false;
        }
        ++counts.chance_events;
        break;
      }
      case cardref::NodeType::kDecision:
        state->LegalActions(legal);
        state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
        ++counts.decisions;
        break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!cardref::cli::ParseFlagsOrExit(argc, argv, kUsage).empty()) {
    std::cerr << "cardref_playout takes no arguments\n";
    return cardref::cli::kExitUsage;
  }

  const cardref::GameRegistry& registry = cardref::AllGames();
  absl::StatusOr<const cardref::GameInfo*> info =
      registry.Find(absl::GetFlag(FLAGS_game));
  if (!info.ok()) {
    std::cerr << "cardref_playout: " << info.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<cardref::GameParams> params =
      cardref::ParseParams(absl::GetFlag(FLAGS_params), (*info)->params);
  if (!params.ok()) {
    std::cerr << "cardref_playout: " << params.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<cardref::Game>> game =
      (*info)->create(*params);
  if (!game.ok()) {
    std::cerr << "cardref_playout: " << game.status().message() << "\n";
    return 2;
  }
  const int games = absl::GetFlag(FLAGS_games);
  if (games < 0) {
    std::cerr << "cardref_playout: --games must be >= 0\n";
    return 2;
  }
  cardref::Rng rng(absl::GetFlag(FLAGS_seed));
  Counts counts;
  for (int g = 0; g < games; ++g) {
    if (!PlayOne(**game, rng, counts)) return 1;
  }
  std::cout << "game=" << (*info)->id << " games=" << games
            << " decisions=" << counts.decisions
            << " chance_events=" << counts.chance_events << "\n";
  return 0;
}
