// Craits <-> proto/cardref/v1/craits.proto.
#include "absl/strings/str_cat.h"
#include "games/craits/craits_entry_points.h"

#include "referee/codec/game_codec.h"
#include "referee/codec/codec_util.h"
#include "games/craits/craits.h"
#include "games/craits/craits_action.h"

namespace cardref::codec {
namespace {

using craits::CraitsMove;

absl::Status Malformed(absl::string_view field, absl::string_view why) {
  return MalformedField("craits", field, why);
}

class Codec final : public GameCodec {
 public:
  absl::string_view game_id() const override { return "craits"; }

  bool HasTypedAction(const v1::Action& action) const override {
    return action.has_craits();
  }

  absl::StatusOr<Action> ActionFromProto(
      const v1::Action& action) const override {
    const v1::CraitsAction& a = action.craits();
    CraitsMove move;
    switch (a.kind_case()) {
      case v1::CraitsAction::kPlay: {
        const auto& play = a.play();
        if (play.card() >= craits::kNumCards) {
          return Malformed(
              "play.card",
              absl::StrCat(play.card(), " is not a card id (0..51, CR-0.1)"));
        }
        if (!v1::Suit_IsValid(play.suit())) {
          return Malformed("play.suit", "is not a suit");
        }
        move = CraitsMove::Play(static_cast<Card>(play.card()),
                                SuitFromProto(play.suit()), play.announce());
        break;
      }
      case v1::CraitsAction::kDraw:
        move = CraitsMove::Draw();
        break;
      case v1::CraitsAction::kCallFool:
        if (a.call_fool().target() < 0 || a.call_fool().target() >= kMaxSeats) {
          return Malformed(
              "call_fool.target",
              absl::StrCat(a.call_fool().target(), " is not a seat"));
        }
        move = CraitsMove::CallFool(a.call_fool().target());
        break;
      case v1::CraitsAction::kNameSuit:
        if (!IsSuit(a.name_suit().suit())) {
          return Malformed("name_suit.suit", "must be a suit (CR-16.1)");
        }
        move = CraitsMove::NameSuit(SuitFromProto(a.name_suit().suit()));
        break;
      case v1::CraitsAction::KIND_NOT_SET:
        return absl::InvalidArgumentError(
            "craits action has no kind: set play, draw, call_fool or "
            "name_suit");
    }
    return move.Encode();
  }

  void ActionToProto(Action action, v1::Action* out) const override {
    absl::StatusOr<CraitsMove> move = CraitsMove::Decode(action);
    v1::CraitsAction* a = out->mutable_craits();
    if (!move.ok()) return;  // engine actions always decode
    switch (move->type) {
      case CraitsMove::Type::kPlay:
        a->mutable_play()->set_card(move->card);
        a->mutable_play()->set_suit(SuitToProto(move->suit));
        a->mutable_play()->set_announce(move->announce);
        break;
      case CraitsMove::Type::kDraw:
        a->mutable_draw();
        break;
      case CraitsMove::Type::kCallFool:
        a->mutable_call_fool()->set_target(move->target);
        break;
      case CraitsMove::Type::kNameSuit:
        a->mutable_name_suit()->set_suit(SuitToProto(move->suit));
        break;
    }
  }

  void FillGameView(const State& state, int seat,
                    v1::Observation* out) const override;
  void FillRoundResult(const State& state, int round,
                       v1::RoundResult* out) const override;
  void FillFinalResult(const State& state,
                       v1::FinalResult* out) const override;
};

v1::CraitsPhase PhaseToProto(craits::Phase phase) {
  switch (phase) {
    case craits::Phase::kNameSuit:
      return v1::CRAITS_PHASE_NAME_SUIT;
    case craits::Phase::kTurn:
      return v1::CRAITS_PHASE_TURN;
    case craits::Phase::kCrank:
      return v1::CRAITS_PHASE_CRANK;
    case craits::Phase::kPostOut:
      return v1::CRAITS_PHASE_POST_OUT;
    case craits::Phase::kRoundOver:
      return v1::CRAITS_PHASE_ROUND_OVER;
    case craits::Phase::kGameOver:
      return v1::CRAITS_PHASE_GAME_OVER;
  }
  return v1::CRAITS_PHASE_UNSPECIFIED;
}

const craits::CraitsState& AsCraits(const State& state) {
  return static_cast<const craits::CraitsState&>(state);
}

void RoundToProto(const craits::CraitsRoundResult& result, int num_players,
                  v1::CraitsRoundResult* out) {
  out->mutable_scores()->Reserve(num_players);
  out->mutable_hands()->Reserve(num_players);
  for (int s = 0; s < num_players; ++s) {
    out->add_scores(result.scores[s]);
    google::protobuf::RepeatedField<uint32_t>* hand =
        out->add_hands()->mutable_cards();
    hand->Reserve(craits::CountCards(result.hands[s]));
    AddCards(result.hands[s], hand);
  }
  out->set_exhausted(result.exhausted);
}

// Straight from the state's public accessors, as CraitsState::Observe
// would fill them: that struct also lists the legal actions, every
// completed round and last round's hands as vectors, which the view does
// not send (it was two thirds of building an observation).
void Codec::FillGameView(const State& state, int seat,
                         v1::Observation* out) const {
  const craits::CraitsState& s = AsCraits(state);
  const int n = state.game().num_seats();
  v1::CraitsObservation* view = out->mutable_craits();
  view->set_round(s.round());
  view->set_cards_per_hand(craits::HandSizeForRound(s.round()));
  view->set_dealer(s.dealer());
  view->set_direction(s.dir());
  view->set_phase(PhaseToProto(s.phase()));
  if (s.top_card() >= 0) view->set_top_card(s.top_card());
  view->set_active_suit(SuitToProto(s.active_suit()));
  view->set_crank_count(s.crank_count());
  const absl::Span<const Card> pile = s.discard_pile();
  view->mutable_discard_pile()->Reserve(static_cast<int>(pile.size()));
  for (Card c : pile) view->add_discard_pile(c);
  view->set_stock_size(s.stock_size());
  view->mutable_seats()->Reserve(n);
  for (int p = 0; p < n; ++p) {
    v1::CraitsObservation::SeatView* sv = view->add_seats();
    sv->set_hand_size(s.hand_size(p));
    sv->set_missed_turn(s.missed_turn(p));
    sv->set_total(s.totals()[p]);
  }
  view->set_vulnerable_seat(s.vulnerable());
  if (seat >= 0 && seat < n) {  // a seat's own hand, ascending ids
    view->mutable_hand()->Reserve(s.hand_size(seat));
    AddCards(s.hand(seat), view->mutable_hand());
  }
  absl::Span<const craits::CraitsRoundResult> rounds = s.round_results();
  if (!rounds.empty()) {
    RoundToProto(rounds.back(), n, view->mutable_last_round());
  }
  view->set_actions_this_round(s.actions_this_round());
  for (const craits::DrawRecord& d : s.last_draws()) {
    v1::CraitsDraw* draw = view->add_last_draws();
    draw->set_seat(d.seat);
    draw->set_requested(d.requested);
    draw->set_drawn(d.drawn);
    const absl::string_view cause = craits::DrawCauseName(d.cause);
    draw->set_cause(cause.data(), cause.size());
  }
}

void Codec::FillRoundResult(const State& state, int round,
                            v1::RoundResult* out) const {
  const craits::CraitsState& s = AsCraits(state);
  RoundToProto(s.round_results()[round - 1], state.game().num_seats(),
               out->mutable_craits());
}

void Codec::FillFinalResult(const State& state, v1::FinalResult* out) const {
  const craits::CraitsState& s = AsCraits(state);
  v1::CraitsFinalResult* result = out->mutable_craits();
  for (int t : s.totals()) result->add_totals(t);
  for (int w : s.Winners()) result->add_winners(w);
  absl::Span<const craits::CraitsRoundResult> rounds = s.round_results();
  for (size_t r = 0; r < rounds.size(); ++r) {
    if (rounds[r].exhausted) result->add_exhausted_rounds(r + 1);
  }
}

}  // namespace
}  // namespace cardref::codec

namespace cardref::craits {

const codec::GameCodec& Codec() {
  static const codec::Codec* codec = new codec::Codec;
  return *codec;
}

}  // namespace cardref::craits
