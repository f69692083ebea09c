// Krass Kariert <-> proto/cardref/v1/krass_kariert.proto.
#include <array>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "games/krass_kariert/krass_kariert_entry_points.h"

#include "referee/codec/game_codec.h"
#include "referee/codec/codec_util.h"
#include "games/krass_kariert/krass_kariert.h"
#include "games/krass_kariert/krass_kariert_action.h"
#include "games/krass_kariert/krass_kariert_scoring.h"

namespace cardref::codec {
namespace {

namespace kk = ::cardref::krass_kariert;

absl::Status Malformed(absl::string_view field, absl::string_view why) {
  return MalformedField("krass_kariert", field, why);
}

// Shape only (KK-16.1): 1..3 ascending contiguous positions, at most two X
// values of 1..12. Whether the cards form a combination is the engine's.
absl::StatusOr<kk::KrassKariertAction> PlayFromProto(
    const v1::KrassKariertAction::Play& play) {
  const int k = play.positions_size();
  if (k < 1 || k > 3) {
    return Malformed("play.positions",
                     absl::StrCat("has ", k,
                                  " entries; a PLAY names 1 to 3 hand "
                                  "positions (KK-16.1)"));
  }
  if (play.positions(0) > kk::kMaxEncodedPosition) {
    return Malformed(
        "play.positions[0]",
        absl::StrCat(play.positions(0), " is not a hand position (0..",
                     kk::kMaxEncodedPosition, ", KK-16.1)"));
  }
  for (int i = 1; i < k; ++i) {
    if (play.positions(i) != play.positions(i - 1) + 1) {
      return Malformed(
          "play.positions",
          absl::StrCat(absl::StrJoin(play.positions(), ","),
                       " are not contiguous (KK-16.1: expected ascending "
                       "positions i, i+1, ..., i+k-1)"));
    }
  }
  if (play.x_values_size() > kk::kMaxXValues) {
    return Malformed("play.x_values",
                     absl::StrCat("has ", play.x_values_size(),
                                  " values; a block holds at most two X "
                                  "(KK-0.1, KK-3.3)"));
  }
  std::vector<int> positions(play.positions().begin(), play.positions().end());
  std::vector<int> xs;
  for (int i = 0; i < play.x_values_size(); ++i) {
    const uint32_t x = play.x_values(i);
    if (x < kk::kMinValue || x > kk::kMaxValue) {
      return Malformed(absl::StrCat("play.x_values[", i, "]"),
                       absl::StrCat(x, " is outside 1..12 (KK-3.3)"));
    }
    xs.push_back(static_cast<int>(x));
  }
  // Cannot fail after the checks above; it builds the typed action.
  return kk::PlayFromPositions(positions, xs);
}

absl::Status CheckPosition(absl::string_view field, uint32_t position,
                           absl::string_view rule) {
  if (position <= kk::kMaxEncodedPosition) return absl::OkStatus();
  return Malformed(
      field, absl::StrCat(position, " is outside 0..", kk::kMaxEncodedPosition,
                          " (", rule, ")"));
}

void CombinationToProto(kk::Strength s, v1::KrassKariertCombination* out) {
  out->set_type(static_cast<v1::KrassKariertComboType>(kk::TypeOf(s)));
  out->set_key(kk::KeyOf(s));
}

std::vector<int> Seats(kk::SeatMask mask) {
  std::vector<int> seats;
  for (int s = 0; s < kMaxSeats; ++s) {
    if (kk::HasSeat(mask, s)) seats.push_back(s);
  }
  return seats;
}

// Round results 1..rounds from the per-round chip-loss masks, replaying the
// chip accounting (KK-1.1, KK-11.3) from the parameters, as an auditor would.
void RoundResultsToProto(
    const kk::KrassKariertConfig& config,
    absl::Span<const kk::SeatMask> charged, int rounds,
    google::protobuf::RepeatedPtrField<v1::KrassKariertRoundResult>* out) {
  std::array<int, kMaxSeats> chips = {};
  for (int s = 0; s < config.num_players; ++s) {
    chips[s] = config.chips_per_player;
  }
  for (int r = 0; r < rounds; ++r) {
    const kk::ChipLossResult loss = kk::ApplyChipLoss(chips, charged[r]);
    v1::KrassKariertRoundResult* result = out->Add();
    for (int s : Seats(charged[r])) result->add_charged(s);
    for (int s = 0; s < config.num_players; ++s) {
      result->add_chips(loss.chips[s]);
    }
    for (int s : Seats(loss.eliminated)) result->add_eliminated(s);
    chips = loss.chips;
  }
}

const kk::KrassKariertState& AsKrassKariert(const State& state) {
  return static_cast<const kk::KrassKariertState&>(state);
}

class Codec final : public GameCodec {
 public:
  absl::string_view game_id() const override { return "krass_kariert"; }

  bool HasTypedAction(const v1::Action& action) const override {
    return action.has_krass_kariert();
  }

  absl::StatusOr<Action> ActionFromProto(
      const v1::Action& action) const override {
    const v1::KrassKariertAction& a = action.krass_kariert();
    switch (a.kind_case()) {
      case v1::KrassKariertAction::kPlay: {
        absl::StatusOr<kk::KrassKariertAction> play = PlayFromProto(a.play());
        if (!play.ok()) return play.status();
        return kk::EncodeAction(*play);
      }
      case v1::KrassKariertAction::kTakeReserve: {
        const auto& take = a.take_reserve();
        if (take.slot() > 1) {
          return Malformed("take_reserve.slot",
                           absl::StrCat(take.slot(),
                                        " is not a reserve slot (0 or 1, "
                                        "KK-16.2)"));
        }
        if (absl::Status st = CheckPosition("take_reserve.position",
                                            take.position(), "KK-16.2");
            !st.ok()) {
          return st;
        }
        return kk::EncodeTakeReserve(static_cast<int>(take.slot()),
                                     static_cast<int>(take.position()));
      }
      case v1::KrassKariertAction::kPlaceDrawn: {
        const uint32_t position = a.place_drawn().position();
        if (absl::Status st =
                CheckPosition("place_drawn.position", position, "KK-16.3");
            !st.ok()) {
          return st;
        }
        return kk::EncodePlaceDrawn(static_cast<int>(position));
      }
      case v1::KrassKariertAction::KIND_NOT_SET:
        break;
    }
    return absl::InvalidArgumentError(
        "krass_kariert action has no kind: set play, take_reserve or "
        "place_drawn (KK-16)");
  }

  void ActionToProto(Action action, v1::Action* out) const override {
    TypedToProto(action, out->mutable_krass_kariert());
  }

  void FillGameView(const State& state, int seat,
                    v1::Observation* out) const override;
  void FillRoundResult(const State& state, int round,
                       v1::RoundResult* out) const override;
  void FillFinalResult(const State& state, v1::FinalResult* out) const override;

 private:
  static void TypedToProto(Action action, v1::KrassKariertAction* a) {
    absl::StatusOr<kk::KrassKariertAction> decoded = kk::DecodeAction(action);
    if (!decoded.ok()) return;  // engine actions always decode
    switch (decoded->type) {
      case kk::ActionType::kPlay: {
        v1::KrassKariertAction::Play* play = a->mutable_play();
        for (int i = 0; i < decoded->count; ++i) {
          play->add_positions(decoded->start + i);
        }
        for (int i = 0; i < decoded->num_x_values; ++i) {
          play->add_x_values(decoded->x_values[i]);
        }
        break;
      }
      case kk::ActionType::kTakeReserve:
        a->mutable_take_reserve()->set_slot(decoded->slot);
        a->mutable_take_reserve()->set_position(decoded->position);
        break;
      case kk::ActionType::kPlaceDrawn:
        a->mutable_place_drawn()->set_position(decoded->position);
        break;
    }
  }
};

void Codec::FillGameView(const State& state, int seat,
                         v1::Observation* out) const {
  const kk::KrassKariertObservation o = AsKrassKariert(state).Observe(seat);
  const int n = o.config.num_players;
  v1::KrassKariertObservation* view = out->mutable_krass_kariert();
  view->set_dealer(o.dealer);
  view->set_trick(o.trick);
  for (int s = 0; s < n; ++s) {
    v1::KrassKariertObservation::SeatView* sv = view->add_seats();
    sv->set_chips(o.chips[s]);
    sv->set_active(o.active[s]);
    sv->set_hand_size(o.hand_sizes[s]);
    for (int slot = 0; slot < kk::kReserveSlots; ++slot) {
      v1::KrassKariertObservation::ReserveSlot* r = sv->add_reserves();
      if (o.reserves[s][slot] != kk::kNoCard) r->set_card(o.reserves[s][slot]);
    }
    sv->set_participant(o.participants[s]);
  }
  view->set_leader(o.leader);
  if (o.target != kk::kNoStrength) {
    CombinationToProto(o.target, view->mutable_target());
  }
  view->set_target_seat(o.target_seat);
  view->set_draws_in_trick(o.draws_in_trick);
  for (int i = 0; i < o.trick_length; ++i) {
    const kk::KrassKariertTrickEntry& e = o.trick_actions[i];
    v1::KrassKariertObservation::TrickAction* t = view->add_current_trick();
    t->set_seat(e.seat);
    TypedToProto(e.action, t->mutable_action());
    for (int j = 0; j < e.num_cards; ++j) t->add_cards(e.cards[j]);
    if (e.combination != kk::kNoStrength) {
      CombinationToProto(e.combination, t->mutable_combination());
    }
  }
  view->set_draw_pile_size(o.pile_size);
  for (int i = 0; i < o.num_discards; ++i)
    view->add_discard_pile(o.discards[i]);
  view->set_drawing_seat(o.drawing_seat);
  view->set_drawn_count(o.drawn_count);
  view->set_pending_count(o.pending_count);
  for (int i = 0; i < o.hand_length; ++i) view->add_hand(o.hand[i]);
  for (int i = 0; i < o.own_pending_count; ++i) {
    view->add_own_pending_drawn(o.own_pending[i]);
  }
  RoundResultsToProto(o.config, o.round_losses, o.rounds_completed,
                      view->mutable_completed_rounds());
}

void Codec::FillRoundResult(const State& state, int round,
                            v1::RoundResult* out) const {
  const kk::KrassKariertState& s = AsKrassKariert(state);
  std::vector<kk::SeatMask> charged;
  for (int r = 1; r <= round; ++r) charged.push_back(s.round_loss(r));
  // The earlier rounds only feed the chip counts of this one.
  google::protobuf::RepeatedPtrField<v1::KrassKariertRoundResult> rounds;
  RoundResultsToProto(s.config(), charged, round, &rounds);
  *out->mutable_krass_kariert() = std::move(*rounds.rbegin());
}

void Codec::FillFinalResult(const State& state, v1::FinalResult* out) const {
  const kk::KrassKariertResult r = AsKrassKariert(state).Result();
  v1::KrassKariertFinalResult* result = out->mutable_krass_kariert();
  for (int c : r.chips) result->add_chips(c);
  for (int s : r.losers) result->add_losers(s);
  for (int s : r.winners) result->add_winners(s);
  for (const kk::KrassKariertRoundLoss& loss : r.round_losses) {
    v1::KrassKariertFinalResult::RoundLoss* l = result->add_round_losses();
    l->set_round(loss.round);
    for (int s : loss.seats) l->add_seats(s);
  }
}

}  // namespace
}  // namespace cardref::codec

namespace cardref::krass_kariert {

const codec::GameCodec& Codec() {
  static const codec::Codec* codec = new codec::Codec;
  return *codec;
}

}  // namespace cardref::krass_kariert
