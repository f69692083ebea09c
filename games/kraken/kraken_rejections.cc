// KrakenState's rejections: which rule an action breaks and what was
// expected instead (KR-17.3). Split from kraken.cc to keep each file to one
// job; the legality itself is LegalActions.
#include <string>

#include "absl/strings/str_cat.h"
#include "referee/base/rule_error.h"
#include "referee/base/status_macros.h"
#include "games/kraken/kraken.h"

namespace cardref::kraken {

namespace {

absl::string_view StepName(int step) {
  return step == 1 ? "contra" : step == 2 ? "re-contra" : "Super Kraken";
}

bool IsTrumpKind(ActionKind k) {
  return k == ActionKind::kChooseTrump || k == ActionKind::kPassTrump ||
         k == ActionKind::kAcceptTrump;
}
bool IsChallengeKind(ActionKind k) {
  return k == ActionKind::kChallenge || k == ActionKind::kPassChallenge;
}
bool IsClaimKind(ActionKind k) {
  return k == ActionKind::kClaimBonus || k == ActionKind::kDeclineBonus;
}

}  // namespace

// --- --------------------------------------------------------------

absl::string_view KrakenState::PhaseRule() const {
  switch (phase_) {
    case Phase::kTrumpSpeak:
      return config_.trump_mode == TrumpMode::kFree ? "KR-6.3" : "KR-6.4";
    case Phase::kTrumpForced:
      return config_.trump_mode == TrumpMode::kUtrecht ? "KR-6.2"
             : config_.trump_mode == TrumpMode::kFree  ? "KR-6.3"
                                                       : "KR-6.4b";
    case Phase::kChallenge:
      return challenge_step_ == 1   ? "KR-7.2"
             : challenge_step_ == 2 ? "KR-7.3"
                                    : "KR-7.4";
    case Phase::kDeclare:
      return "KR-8.1";
    case Phase::kPlay:
      return current().size == 0 ? "KR-9.1" : "KR-9.2";
    case Phase::kClaim:
      return "KR-12.3";
    default:
      return "KR-17.1";
  }
}

std::string KrakenState::Expected() const {
  const std::string who = SeatName(to_act_);
  switch (phase_) {
    case Phase::kTrumpSpeak:
      if (config_.trump_mode == TrumpMode::kFree) {
        return absl::StrCat(who, " must CHOOSE_TRUMP or PASS_TRUMP");
      }
      return absl::StrCat(who, " must ACCEPT_TRUMP (proposed ",
                          std::string(1, SuitLetter(proposed_)),
                          ") or PASS_TRUMP");
    case Phase::kTrumpForced:
      if (config_.trump_mode == TrumpMode::kUtrecht) {
        return absl::StrCat("eldest (", who, ") must CHOOSE_TRUMP");
      }
      if (config_.trump_mode == TrumpMode::kFree) {
        return absl::StrCat("all four passed: ", who,
                            " must now CHOOSE_TRUMP (any suit)");
      }
      return absl::StrCat("all four passed on ",
                          std::string(1, SuitLetter(proposed_)), ": eldest (",
                          who, ") must CHOOSE_TRUMP of a suit other than ",
                          std::string(1, SuitLetter(proposed_)));
    case Phase::kChallenge:
      return absl::StrCat(who, " must CHALLENGE or PASS_CHALLENGE (",
                          StepName(challenge_step_), " step)");
    case Phase::kDeclare:
      return absl::StrCat(who, " must DECLARE (zero or more combinations)");
    case Phase::kPlay:
      return absl::StrCat(who, " must PLAY a card",
                          current().size == 0 ? absl::StrCat(" to lead trick ",
                                                             trick_index_ + 1)
                                              : std::string());
    case Phase::kClaim:
      return absl::StrCat("the trick winner (", who, ") must CLAIM_BONUS(",
                          BonusName(current().bonus), ") or DECLINE_BONUS");
    default:
      return "no seat acts now";
  }
}

absl::Status KrakenState::ExplainWrongKind(ActionKind kind) const {
  const absl::string_view name = ActionKindName(kind);
  const bool trump_fixed = phase_ >= Phase::kChallenge;
  if (phase_ == Phase::kClaim) {
    return IllegalAction("KR-12.3", Expected(), " before anything else; ", name,
                         " is not allowed now");
  }
  if (IsTrumpKind(kind) && trump_fixed) {
    return IllegalAction("KR-6.1", "trump is already fixed (",
                         std::string(1, SuitLetter(trump_)), ", maker ",
                         SeatName(maker_), "); ", Expected());
  }
  if (IsChallengeKind(kind) && phase_ >= Phase::kDeclare) {
    return IllegalAction("KR-7.1", "the challenges are over (level ", level_,
                         "); ", Expected());
  }
  if (IsChallengeKind(kind) && !trump_fixed) {
    return IllegalAction("KR-7.1",
                         "challenges start only once trump is "
                         "fixed; ",
                         Expected());
  }
  if (kind == ActionKind::kDeclare && phase_ >= Phase::kPlay) {
    return IllegalAction("KR-8.1", "every seat has declared; ", Expected());
  }
  if (IsClaimKind(kind)) {
    return IllegalAction("KR-12.3",
                         "no claim window is open (one opens only "
                         "right after a trick with a bonus type); ",
                         Expected());
  }
  if (kind == ActionKind::kPlay) {
    return IllegalAction(PhaseRule(), "play has not started (KR-4.4); ",
                         Expected());
  }
  return IllegalAction(PhaseRule(), name, " is not expected now; ", Expected());
}

absl::Status KrakenState::ExplainIllegal(Action action) const {
  ASSIGN_OR_RETURN(KrakenAction a, Decode(action));
  switch (phase_) {
    case Phase::kTrumpSpeak:
      if (config_.trump_mode == TrumpMode::kRandom &&
          a.kind == ActionKind::kChooseTrump) {
        return IllegalAction(
            "KR-6.4", SeatName(to_act_), " may only ACCEPT_TRUMP (proposed ",
            std::string(1, SuitLetter(proposed_)), ") or PASS_TRUMP");
      }
      break;
    case Phase::kTrumpForced:
      if (config_.trump_mode == TrumpMode::kUtrecht &&
          a.kind == ActionKind::kPassTrump) {
        return IllegalAction("KR-6.2", "Utrecht: eldest (", SeatName(to_act_),
                             ") must name a trump suit; passing is illegal");
      }
      if (config_.trump_mode == TrumpMode::kRandom &&
          a.kind == ActionKind::kChooseTrump) {
        return IllegalAction("KR-6.4b", "all four passed on ",
                             std::string(1, SuitLetter(proposed_)),
                             ": eldest (", SeatName(to_act_),
                             ") must name a suit other than ",
                             std::string(1, SuitLetter(proposed_)));
      }
      if (config_.trump_mode == TrumpMode::kFree &&
          a.kind == ActionKind::kPassTrump) {
        return IllegalAction("KR-6.3", "all four passed: ", SeatName(to_act_),
                             " must now name a trump suit");
      }
      break;
    case Phase::kDeclare:
      if (a.kind == ActionKind::kDeclare) {
        RETURN_IF_ERROR(CheckDeclaration(hands_[to_act_], PayloadOf(action)));
      }
      break;
    case Phase::kPlay:
      if (a.kind == ActionKind::kPlay) {
        // Ruling: the card obligation is reported before the stuk flag; the
        // card is the action's main content.
        RETURN_IF_ERROR(ExplainIllegalCard(hands_[to_act_], CurrentCards(),
                                           trump_, config_.rule_set, a.card));
        if (a.declare_stuk) {  // KR-13.2
          const Card k = MakeCard(trump_, kKing);
          const Card q = MakeCard(trump_, kQueen);
          if (a.card != k && a.card != q) {
            return IllegalAction("KR-13.2",
                                 "declare_stuk needs the trump K "
                                 "or Q (",
                                 CardName(k), ", ", CardName(q), "); ",
                                 CardName(a.card), " is neither");
          }
          if (stuk_holder_ != to_act_) {
            return IllegalAction("KR-13.2", SeatName(to_act_),
                                 " was not dealt both ", CardName(k), " and ",
                                 CardName(q));
          }
          return IllegalAction("KR-13.2", SeatName(to_act_),
                               " has already declared stuk this round");
        }
      }
      break;
    case Phase::kClaim:
      if (a.kind == ActionKind::kClaimBonus) {
        return IllegalAction("KR-12.3", "the trick's bonus is ",
                             BonusName(current().bonus), ", not ",
                             BonusName(a.bonus));
      }
      break;
    default:
      break;
  }
  // Every illegal value of a kind legal now is explained above; reaching
  // here with such a kind would be an engine bug (ApplyAction then reports
  // an internal error rather than a wrong rule).
  ActionList legal;
  LegalActions(legal);
  for (Action l : legal) {
    if (KindOf(l) == a.kind) return absl::OkStatus();
  }
  return ExplainWrongKind(a.kind);
}

absl::Status KrakenState::ApplyActionAs(int seat, Action action) {
  // Ruling: an out-of-turn action names the turn-order rule of the phase
  // (KR-6.x, KR-7.2..7.4, KR-8.1, KR-9.1/9.2, KR-12.3), per KR-17.3.
  if (node_type() == NodeType::kDecision && seat != to_act_) {
    if (phase_ == Phase::kClaim) {
      return IllegalAction("KR-12.3", "only the trick winner (", SeatName(to_act_),
                           ") may claim or decline; ", SeatName(seat),
                           " is out of turn");
    }
    return IllegalAction(PhaseRule(), "out of turn: ", Expected(), ", not ",
                         SeatName(seat));
  }
  return ApplyAction(action);
}

}  // namespace cardref::kraken
