#include "games/testing/tiny_tricks/tiny_tricks_entry_points.h"

#include "referee/codec/game_codec.h"

#include "absl/strings/str_cat.h"
#include "cardref/v1/tiny_tricks.pb.h"
#include "games/testing/tiny_tricks/tiny_tricks.h"
#include "referee/codec/codec_util.h"

namespace cardref::tiny_tricks {
namespace {

const TinyTricksState& AsTiny(const State& state) {
  return static_cast<const TinyTricksState&>(state);
}

class TinyTricksCodec final : public codec::GameCodec {
 public:
  absl::string_view game_id() const override { return "tiny_tricks"; }

  bool HasTypedAction(const v1::Action& action) const override {
    return action.has_tiny_tricks();
  }

  absl::StatusOr<Action> ActionFromProto(
      const v1::Action& action) const override {
    const uint32_t card = action.tiny_tricks().play();
    if (card >= kDeckSize) {
      return codec::MalformedField(
          "tiny_tricks", "play",
          absl::StrCat(card, " is not a card id (0..11, TT-1)"));
    }
    return static_cast<Action>(card);
  }

  void ActionToProto(Action action, v1::Action* out) const override {
    out->mutable_tiny_tricks()->set_play(action);
  }

  void FillGameView(const State& state, int seat,
                    v1::Observation* out) const override {
    const TinyTricksState& s = AsTiny(state);
    v1::TinyTricksObservation* view = out->mutable_tiny_tricks();
    if (seat >= 0 && seat < s.num_seats()) {
      for (Card c : s.hand(seat)) view->add_hand(c);
    }
    for (const Trick& t : s.tricks()) {
      v1::TinyTricksTrick* trick = view->add_tricks();
      trick->set_leader(t.leader);
      for (Card c : t.cards) trick->add_cards(c);
      for (int p : t.seats) trick->add_seats(p);
      trick->set_winner(t.winner);
    }
    for (int p = 0; p < s.num_seats(); ++p) {
      view->add_hand_sizes(static_cast<int>(s.hand(p).size()));
      view->add_totals(s.total(p));
    }
  }

  void FillRoundResult(const State& state, int round,
                       v1::RoundResult* out) const override {
    const TinyTricksState& s = AsTiny(state);
    v1::TinyTricksRoundResult* result = out->mutable_tiny_tricks();
    for (int p = 0; p < s.num_seats(); ++p) {
      result->add_tricks_won(s.tricks_won(p, round));
    }
  }

  void FillFinalResult(const State& state,
                       v1::FinalResult* out) const override {
    const TinyTricksState& s = AsTiny(state);
    for (int p = 0; p < s.num_seats(); ++p) {
      out->mutable_tiny_tricks()->add_totals(s.total(p));
    }
  }
};

}  // namespace

const codec::GameCodec& Codec() {
  static const TinyTricksCodec* codec = new TinyTricksCodec;
  return *codec;
}

}  // namespace cardref::tiny_tricks
