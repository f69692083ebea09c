#include "games/api/game.h"

namespace cardref {

std::vector<int> SeatTeams(const GameTraits& traits, int seats) {
  if (traits.teams) return traits.teams(seats);
  std::vector<int> teams(seats);
  for (int s = 0; s < seats; ++s) teams[s] = s;
  return teams;
}

bool ActionList::contains(Action a) const {
  for (int i = 0; i < size_; ++i) {
    if (actions_[i] == a) return true;
  }
  return false;
}

absl::string_view ChanceKindName(ChanceKind kind) {
  switch (kind) {
    case ChanceKind::kDeal:
      return "deal";
    case ChanceKind::kReshuffle:
      return "reshuffle";
    case ChanceKind::kTrumpDeck:
      return "trump_deck";
  }
  return "unknown";
}

bool State::IsLegalAction(Action action) const {
  ActionList legal;
  LegalActions(legal);
  return legal.contains(action);
}

absl::Status State::ApplyAction(Action action) {
  if (node_type() != NodeType::kDecision) {
    return absl::FailedPreconditionError(
        IsTerminal() ? "the game is over: no action is expected"
                     : "a chance event is pending: no action is expected");
  }
  if (!IsLegalAction(action)) {
    absl::Status why = ExplainIllegal(action);
    if (why.ok()) {  // an engine bug; never accept an action not listed
      why = absl::InternalError(
          "action is not among the legal actions (engine gave no reason)");
    }
    return why;
  }
  ApplyLegalAction(action);
  return absl::OkStatus();
}

}  // namespace cardref
