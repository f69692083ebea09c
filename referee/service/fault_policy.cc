#include "referee/service/fault_policy.h"

#include <algorithm>


namespace cardref::service {

Action NeutralAction(const State& state) {
  ActionList legal;
  state.LegalActions(legal);
  Action best = legal[0];
  int best_preference = state.SubstitutePreference(best);
  for (Action a : legal) {
    const int p = state.SubstitutePreference(a);
    if (p < best_preference) {
      best = a;
      best_preference = p;
    }
  }
  return best;
}

v1::FaultAction EffectiveAction(const v1::FaultPolicy& policy) {
  return policy.action() == v1::FAULT_ACTION_UNSPECIFIED
             ? v1::FAULT_ACTION_SUBSTITUTE
             : policy.action();
}

std::vector<int> ForfeitGroup(const Game& game, int seat) {
  if (!game.traits().teams) return {seat};
  const std::vector<int> teams = game.traits().teams(game.num_seats());
  std::vector<int> group;
  for (int s = 0; s < static_cast<int>(teams.size()); ++s) {
    if (teams[s] == teams[seat]) group.push_back(s);
  }
  return group;
}

void ApplyForfeits(const Game& game, const std::vector<bool>& forfeited,
                   v1::FinalResult* result) {
  const int n = result->scores_size();
  std::vector<bool> out(n, false);
  bool any = false;
  for (int s = 0; s < n && s < static_cast<int>(forfeited.size()); ++s) {
    if (!forfeited[s]) continue;
    for (int t : ForfeitGroup(game, s)) {
      if (t < n) out[t] = true;
    }
    any = true;
  }
  if (!any) return;
  const bool higher = result->higher_score_is_better();
  int playing = 0;
  for (int s = 0; s < n; ++s) playing += out[s] ? 0 : 1;
  result->clear_ranks();
  result->clear_winners();
  for (int s = 0; s < n; ++s) {
    if (out[s]) {
      result->add_ranks(playing + 1);
      continue;
    }
    int better = 0;
    for (int t = 0; t < n; ++t) {
      if (out[t]) continue;
      better += higher ? result->scores(t) > result->scores(s)
                       : result->scores(t) < result->scores(s);
    }
    result->add_ranks(better + 1);
    if (better == 0) result->add_winners(s);
  }
}

}  // namespace cardref::service
