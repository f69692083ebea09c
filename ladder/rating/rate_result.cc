#include "ladder/rating/rate_result.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "ladder/store/validation.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {

PlackettLuceParams ModelParams(const LadderConfig& config) {
  PlackettLuceParams params;
  params.beta = config.rating.beta;
  params.kappa = config.rating.kappa;
  params.tau = config.frozen ? 0.0 : config.rating.tau;
  return params;
}

absl::StatusOr<std::vector<Rating>> RatePlackettLuce(
    const LadderConfig& config, const LadderGame& game,
    const MatchResult& result, const std::vector<Rating>& before) {
  if (before.size() != result.seats.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        before.size(), " ratings for ", result.seats.size(), " seats"));
  }
  // team key -> (team index, member positions in `result.seats`)
  std::map<int, size_t> team_of_key;
  std::vector<std::vector<size_t>> members;
  std::vector<int> ranks;
  for (size_t i = 0; i < result.seats.size(); ++i) {
    const SeatResult& seat = result.seats[i];
    if (seat.seat < 0 || seat.seat >= game.players) {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", seat.seat, " out of range"));
    }
    const int key = SideOfSeat(game, seat.seat);
    auto [it, inserted] = team_of_key.emplace(key, members.size());
    if (inserted) {
      members.emplace_back();
      ranks.push_back(seat.rank);
    } else if (ranks[it->second] != seat.rank) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat ", seat.seat, " has another rank than its partner"));
    }
    members[it->second].push_back(i);
  }
  std::vector<std::vector<Skill>> teams(members.size());
  for (size_t t = 0; t < members.size(); ++t) {
    for (size_t i : members[t]) {
      teams[t].push_back({before[i].mu, before[i].sigma});
    }
  }
  ASSIGN_OR_RETURN(std::vector<std::vector<Skill>> updated,
                   UpdatePlackettLuce(ModelParams(config), teams, ranks));
  std::vector<Rating> after = before;
  for (size_t t = 0; t < members.size(); ++t) {
    for (size_t m = 0; m < members[t].size(); ++m) {
      Rating& rating = after[members[t][m]];
      rating.mu = updated[t][m].mu;
      rating.sigma = updated[t][m].sigma;
      rating.games += 1;
    }
  }
  return after;
}

}  // namespace cardref::ladder
