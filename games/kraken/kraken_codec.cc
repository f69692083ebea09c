// Kraken <-> proto/cardref/v1/kraken.proto.
#include <string>

#include "absl/strings/str_cat.h"
#include "games/kraken/kraken_entry_points.h"

#include "referee/codec/game_codec.h"
#include "referee/codec/codec_util.h"
#include "games/kraken/kraken.h"
#include "games/kraken/kraken_action.h"
#include "games/kraken/kraken_rules.h"

namespace cardref::codec {
namespace {

namespace kr = ::cardref::kraken;

absl::Status Malformed(absl::string_view field, absl::string_view why) {
  return MalformedField("kraken", field, why);
}

v1::KrakenComboKind ComboKindToProto(kr::ComboKind kind) {
  switch (kind) {
    case kr::ComboKind::kFourJacks:
      return v1::KRAKEN_COMBO_KIND_FOUR_JACKS;
    case kr::ComboKind::kFour:
      return v1::KRAKEN_COMBO_KIND_FOUR;
    case kr::ComboKind::kRun:
      return v1::KRAKEN_COMBO_KIND_RUN;
  }
  return v1::KRAKEN_COMBO_KIND_UNSPECIFIED;
}

// The engine's Bonus and KrakenBonus share their numbers (KR-12.1 order).
v1::KrakenBonus BonusToProto(kr::Bonus bonus) {
  return static_cast<v1::KrakenBonus>(static_cast<int>(bonus));
}

v1::KrakenPhase PhaseToProto(kr::Phase phase) {
  switch (phase) {
    case kr::Phase::kDeal:
      return v1::KRAKEN_PHASE_DEAL;
    case kr::Phase::kTrumpDeck:
      return v1::KRAKEN_PHASE_TRUMP_DECK;
    case kr::Phase::kTrumpSpeak:
      return v1::KRAKEN_PHASE_TRUMP_SPEAK;
    case kr::Phase::kTrumpForced:
      return v1::KRAKEN_PHASE_TRUMP_FORCED;
    case kr::Phase::kChallenge:
      return v1::KRAKEN_PHASE_CHALLENGE;
    case kr::Phase::kDeclare:
      return v1::KRAKEN_PHASE_DECLARE;
    case kr::Phase::kPlay:
      return v1::KRAKEN_PHASE_PLAY;
    case kr::Phase::kClaim:
      return v1::KRAKEN_PHASE_CLAIM;
    case kr::Phase::kGameOver:
      return v1::KRAKEN_PHASE_GAME_OVER;
  }
  return v1::KRAKEN_PHASE_UNSPECIFIED;
}

v1::KrakenClaimStatus ClaimToProto(kr::ClaimStatus claim) {
  switch (claim) {
    case kr::ClaimStatus::kNoBonus:
      return v1::KRAKEN_CLAIM_STATUS_NO_BONUS;
    case kr::ClaimStatus::kOpen:
      return v1::KRAKEN_CLAIM_STATUS_OPEN;
    case kr::ClaimStatus::kClaimed:
      return v1::KRAKEN_CLAIM_STATUS_CLAIMED;
    case kr::ClaimStatus::kDeclined:
      return v1::KRAKEN_CLAIM_STATUS_DECLINED;
  }
  return v1::KRAKEN_CLAIM_STATUS_UNSPECIFIED;
}

void DeclarationToProto(
    uint32_t payload,
    google::protobuf::RepeatedPtrField<v1::KrakenCombination>* out) {
  const kr::Declaration d = kr::DecodeDeclaration(payload);
  for (int i = 0; i < d.size; ++i) {
    v1::KrakenCombination* c = out->Add();
    c->set_kind(ComboKindToProto(d.combos[i].kind));
    AddCards(d.combos[i].cards, c->mutable_cards());
  }
}

// Shape only (KR-8.2, KR-8.3 "named twice"): whether the hand holds the
// combinations and whether each run is maximal is the engine's check.
absl::StatusOr<Action> DeclareFromProto(const v1::KrakenAction::Declare& d) {
  if (d.combinations_size() > kr::kMaxCombos) {
    return Malformed("declare.combinations",
                     absl::StrCat("has ", d.combinations_size(),
                                  " entries; an 8-card hand holds at most ",
                                  kr::kMaxCombos, " combinations (KR-8.3)"));
  }
  kr::Declaration declaration;
  for (int i = 0; i < d.combinations_size(); ++i) {
    const v1::KrakenCombination& c = d.combinations(i);
    const std::string field = absl::StrCat("declare.combinations[", i, "]");
    kr::Combo combo;
    switch (c.kind()) {
      case v1::KRAKEN_COMBO_KIND_FOUR_JACKS:
        combo.kind = kr::ComboKind::kFourJacks;
        break;
      case v1::KRAKEN_COMBO_KIND_FOUR:
        combo.kind = kr::ComboKind::kFour;
        break;
      case v1::KRAKEN_COMBO_KIND_RUN:
        combo.kind = kr::ComboKind::kRun;
        break;
      default:
        return Malformed(absl::StrCat(field, ".kind"),
                         "must be FOUR_JACKS, FOUR or RUN (KR-8.2)");
    }
    for (int j = 0; j < c.cards_size(); ++j) {
      const uint32_t card = c.cards(j);
      if (card >= kr::kNumCards) {
        return Malformed(
            absl::StrCat(field, ".cards[", j, "]"),
            absl::StrCat(card, " is not a card id (0..31, KR-1.1)"));
      }
      if (combo.cards & kr::CardBit(static_cast<Card>(card))) {
        return Malformed(
            absl::StrCat(field, ".cards[", j, "]"),
            absl::StrCat(kr::CardName(static_cast<Card>(card)),
                         " is named twice in one combination (KR-8.2)"));
      }
      combo.cards |= kr::CardBit(static_cast<Card>(card));
    }
    // This combination alone, for a message that names it.
    kr::Declaration single;
    single.Add(combo);
    if (absl::StatusOr<uint32_t> one = kr::EncodeDeclaration(single);
        !one.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("kraken.", field, ": ", one.status().message()));
    }
    declaration.Add(combo);
  }
  absl::StatusOr<uint32_t> payload = kr::EncodeDeclaration(declaration);
  if (!payload.ok()) {  // a combination named twice, or three runs
    return absl::InvalidArgumentError(absl::StrCat(
        "kraken.declare.combinations: ", payload.status().message()));
  }
  return kr::DeclareAction(*payload);
}

const kr::KrakenState& AsKraken(const State& state) {
  return static_cast<const kr::KrakenState&>(state);
}

void TrickToProto(const kr::KrakenTrick& t, int number, v1::KrakenTrick* out) {
  out->set_number(number);
  out->set_leader(t.leader);
  for (int i = 0; i < t.size; ++i) {
    v1::KrakenTrick::PlayedCard* c = out->add_cards();
    c->set_seat((t.leader + i) & 3);
    c->set_card(t.cards[i]);
    c->set_declare_stuk(((t.stuk_mask >> i) & 1) != 0);
  }
  const bool complete = t.size == 4;
  out->set_winner(complete ? t.winner : -1);
  out->set_points(complete ? t.points : 0);
  out->set_bonus(complete ? BonusToProto(t.bonus)
                          : v1::KRAKEN_BONUS_UNSPECIFIED);
  out->set_claim(complete ? ClaimToProto(t.claim)
                          : v1::KRAKEN_CLAIM_STATUS_UNSPECIFIED);
}

void RoundToProto(const kr::KrakenRoundResult& r, v1::KrakenRoundResult* out) {
  const kr::RoundScore& s = r.score;
  out->set_dealer(r.dealer);
  out->set_trump(SuitToProto(r.trump));
  out->set_maker(r.maker);
  out->set_makers_team(kr::TeamOf(r.maker));
  out->set_level(s.level);
  out->set_contest_winner(r.contest_winner);
  for (int t = 0; t < 2; ++t) {
    v1::KrakenTeamPoints* team = out->add_teams();
    team->set_tricks_won(s.tricks_won[t]);
    team->set_card_points(s.card_points[t]);
    team->set_last_trick(s.last_trick[t]);
    team->set_trick_bonus(s.trick_bonus[t]);
    team->set_stuk(s.stuk[t]);
    team->set_declarations(s.declarations[t]);
    team->set_pit(s.pit[t]);
    team->set_raw(s.raw[t]);
  }
  out->set_factor(s.factor);
  out->set_burden_team(s.burden_team);
  out->set_success(s.success);
  for (int t = 0; t < 2; ++t) out->add_scores(s.score[t]);
}

class Codec final : public GameCodec {
 public:
  absl::string_view game_id() const override { return "kraken"; }

  bool HasTypedAction(const v1::Action& action) const override {
    return action.has_kraken();
  }

  absl::StatusOr<Action> ActionFromProto(
      const v1::Action& action) const override {
    const v1::KrakenAction& a = action.kraken();
    switch (a.kind_case()) {
      case v1::KrakenAction::kChooseTrump: {
        const v1::Suit suit = a.choose_trump().suit();
        if (!IsSuit(suit)) {
          return Malformed("choose_trump.suit",
                           "must be a suit: CLUBS, DIAMONDS, HEARTS or "
                           "SPADES (KR-17.1)");
        }
        return kr::ChooseTrumpAction(SuitFromProto(suit));
      }
      case v1::KrakenAction::kPassTrump:
        return kr::PassTrumpAction();
      case v1::KrakenAction::kAcceptTrump:
        return kr::AcceptTrumpAction();
      case v1::KrakenAction::kChallenge:
        return kr::ChallengeAction();
      case v1::KrakenAction::kPassChallenge:
        return kr::PassChallengeAction();
      case v1::KrakenAction::kDeclare:
        return DeclareFromProto(a.declare());
      case v1::KrakenAction::kPlay: {
        const uint32_t card = a.play().card();
        if (card >= kr::kNumCards) {
          return Malformed(
              "play.card",
              absl::StrCat(card, " is not a card id (0..31, KR-1.1)"));
        }
        return kr::PlayAction(static_cast<Card>(card), a.play().declare_stuk());
      }
      case v1::KrakenAction::kClaimBonus: {
        const v1::KrakenBonus bonus = a.claim_bonus().bonus();
        if (bonus == v1::KRAKEN_BONUS_UNSPECIFIED ||
            !v1::KrakenBonus_IsValid(bonus)) {
          return Malformed("claim_bonus.bonus",
                           "must be one of the seven bonus types (KR-12.1)");
        }
        return kr::ClaimBonusAction(static_cast<kr::Bonus>(bonus));
      }
      case v1::KrakenAction::kDeclineBonus:
        return kr::DeclineBonusAction();
      case v1::KrakenAction::KIND_NOT_SET:
        break;
    }
    return absl::InvalidArgumentError(
        "kraken action has no kind: set choose_trump, pass_trump, "
        "accept_trump, challenge, pass_challenge, declare, play, claim_bonus "
        "or decline_bonus (KR-17.1)");
  }

  void ActionToProto(Action action, v1::Action* out) const override {
    TypedToProto(action, out->mutable_kraken());
  }

  void FillGameView(const State& state, int seat,
                    v1::Observation* out) const override;
  void FillRoundResult(const State& state, int round,
                       v1::RoundResult* out) const override;
  void FillFinalResult(const State& state, v1::FinalResult* out) const override;

 private:
  static void TypedToProto(Action action, v1::KrakenAction* a) {
    absl::StatusOr<kr::KrakenAction> d = kr::Decode(action);
    if (!d.ok()) return;  // engine actions always decode
    switch (d->kind) {
      case kr::ActionKind::kChooseTrump:
        a->mutable_choose_trump()->set_suit(SuitToProto(d->suit));
        break;
      case kr::ActionKind::kPassTrump:
        a->mutable_pass_trump();
        break;
      case kr::ActionKind::kAcceptTrump:
        a->mutable_accept_trump();
        break;
      case kr::ActionKind::kChallenge:
        a->mutable_challenge();
        break;
      case kr::ActionKind::kPassChallenge:
        a->mutable_pass_challenge();
        break;
      case kr::ActionKind::kDeclare:
        DeclarationToProto(kr::PayloadOf(action),
                           a->mutable_declare()->mutable_combinations());
        break;
      case kr::ActionKind::kPlay:
        a->mutable_play()->set_card(d->card);
        a->mutable_play()->set_declare_stuk(d->declare_stuk);
        break;
      case kr::ActionKind::kClaimBonus:
        a->mutable_claim_bonus()->set_bonus(BonusToProto(d->bonus));
        break;
      case kr::ActionKind::kDeclineBonus:
        a->mutable_decline_bonus();
        break;
    }
  }

  static void SeatActionsToProto(
      const std::vector<kr::SeatAction>& actions,
      google::protobuf::RepeatedPtrField<v1::KrakenSeatAction>* out) {
    for (const kr::SeatAction& sa : actions) {
      v1::KrakenSeatAction* p = out->Add();
      p->set_seat(sa.seat);
      TypedToProto(sa.action, p->mutable_action());
    }
  }
};

void Codec::FillGameView(const State& state, int seat,
                         v1::Observation* out) const {
  const kr::KrakenState& ks = AsKraken(state);
  const kr::KrakenObservation o = ks.Observe(seat);
  v1::KrakenObservation* view = out->mutable_kraken();
  if (seat >= 0) {  // a spectator has neither
    view->set_team(kr::TeamOf(seat));
    view->set_partner(kr::PartnerOf(seat));
  }
  view->set_dealer(o.dealer);
  view->set_eldest(o.eldest);
  view->set_phase(PhaseToProto(o.phase));
  AddCards(o.hand, view->mutable_hand());
  for (int n : o.hand_sizes) view->add_hand_sizes(n);

  // Trump selection (KR-6, KR-6.5).
  view->set_proposed_suit(SuitToProto(o.proposed_suit));
  for (Card c : o.turned_trump_cards) view->add_turned_trump_cards(c);
  SeatActionsToProto(o.trump_actions, view->mutable_trump_actions());
  view->set_trump(SuitToProto(o.trump));
  view->set_maker(o.maker);
  view->set_makers_team(o.maker < 0 ? -1 : kr::TeamOf(o.maker));

  // Challenges (KR-7).
  SeatActionsToProto(o.challenge_actions, view->mutable_challenge_actions());
  view->set_level(o.level);
  view->set_burden_team(
      o.maker < 0 ? -1 : kr::BurdenTeam(o.level, kr::TeamOf(o.maker)));

  // Declarations (KR-8.1 order) and the contest (KR-8.4, KR-16.1).
  for (int i = 0; i < kr::kNumSeats; ++i) {
    const int s = (o.eldest + i) & 3;
    if (!o.declared[s]) continue;
    v1::KrakenDeclaration* d = view->add_declarations();
    d->set_seat(s);
    DeclarationToProto(o.declarations[s], d->mutable_combinations());
    d->set_points(kr::DeclarationPoints(o.declarations[s]));
  }
  if (o.contest_decided) {
    v1::KrakenContest* contest = view->mutable_contest();
    contest->set_winner_seat(o.contest_winner);
    contest->set_best_value(
        o.contest_winner < 0
            ? 0
            : kr::DeclarationBestCombo(o.declarations[o.contest_winner]));
    for (int p : o.declaration_points) contest->add_points(p);
  }

  // Play (KR-9, KR-12, KR-13). Tricks complete in order, so a completed
  // trick's number is its position.
  for (size_t i = 0; i < o.completed_tricks.size(); ++i) {
    TrickToProto(o.completed_tricks[i], static_cast<int>(i) + 1,
                 view->add_completed_tricks());
  }
  if (o.phase == kr::Phase::kPlay) {
    TrickToProto(o.current_trick,
                 static_cast<int>(o.completed_tricks.size()) + 1,
                 view->mutable_current_trick());
  }
  view->set_claim_window_open(o.claim_window_open);
  for (bool b : o.stuk_declared) view->add_stuk_declared(b);

  // Scores (KR-14); round results are public (KR-16.1).
  for (int64_t t : o.totals) view->add_totals(t);
  for (const kr::KrakenRoundResult& r : ks.round_results()) {
    RoundToProto(r, view->add_completed_rounds());
  }
}

void Codec::FillRoundResult(const State& state, int round,
                            v1::RoundResult* out) const {
  RoundToProto(AsKraken(state).round_results()[round - 1],
               out->mutable_kraken());
}

void Codec::FillFinalResult(const State& state, v1::FinalResult* out) const {
  const kr::KrakenGameResult r = AsKraken(state).Result();
  v1::KrakenFinalResult* result = out->mutable_kraken();
  for (const std::array<int64_t, 2>& round : r.round_scores) {
    v1::KrakenFinalResult::RoundScores* scores = result->add_round_scores();
    for (int64_t s : round) scores->add_scores(s);
  }
  for (int64_t t : r.totals) result->add_totals(t);
  if (r.winner_team >= 0) result->set_winner_team(r.winner_team);
}

}  // namespace
}  // namespace cardref::codec

namespace cardref::kraken {

const codec::GameCodec& Codec() {
  static const codec::Codec* codec = new codec::Codec;
  return *codec;
}

}  // namespace cardref::kraken
