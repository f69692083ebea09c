// Helpers for strategies that score each legal action and play the best.
#ifndef CARDREF_BOTS_BEST_H_
#define CARDREF_BOTS_BEST_H_

#include "cardref/v1/game.pb.h"

namespace cardref::bots {

// The index of the highest score (the first of equals).
template <typename Score>
int Best(const v1::Observation& obs, Score score) {
  int best = 0;
  double best_score = score(obs.legal_actions(0).notation());
  for (int i = 1; i < obs.legal_actions_size(); ++i) {
    const double s = score(obs.legal_actions(i).notation());
    if (s > best_score) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

// The same, scoring each legal action itself (its typed form).
template <typename Score>
int BestAction(const v1::Observation& obs, Score score) {
  int best = 0;
  double best_score = score(obs.legal_actions(0));
  for (int i = 1; i < obs.legal_actions_size(); ++i) {
    const double s = score(obs.legal_actions(i));
    if (s > best_score) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

}  // namespace cardref::bots

#endif  // CARDREF_BOTS_BEST_H_
