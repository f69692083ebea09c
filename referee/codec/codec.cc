#include "referee/codec/codec.h"

#include <cstdlib>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "referee/codec/all_codecs.h"

namespace cardref::codec {

const GameCodec* FindCodec(absl::string_view game_id) {
  for (const GameCodec* c : AllCodecs()) {
    if (c->game_id() == game_id) return c;
  }
  return nullptr;
}

const GameCodec& CodecFor(const Game& game) {
  const GameCodec* c = FindCodec(game.id());
  if (c == nullptr) {
    std::cerr << "no protobuf codec for game " << game.id() << "\n";
    std::abort();
  }
  return *c;
}

GameParams ParamsFromProto(const v1::GameParams& proto) {
  GameParams params;
  for (const auto& [name, value] : proto.values()) {
    switch (value.value_case()) {
      case v1::ParamValue::kBoolValue:
        params.Set(name, value.bool_value());
        break;
      case v1::ParamValue::kIntValue:
        params.Set(name, value.int_value());
        break;
      case v1::ParamValue::kEnumValue:
        params.Set(name, value.enum_value());
        break;
      case v1::ParamValue::VALUE_NOT_SET:
        // Left out: validation reports it as a wrong type for `name`.
        params.Set(name, std::string());
        break;
    }
  }
  return params;
}

v1::GameParams ParamsToProto(const GameParams& params) {
  v1::GameParams proto;
  for (const auto& [name, value] : params.values()) {
    v1::ParamValue& v = (*proto.mutable_values())[name];
    if (const bool* b = std::get_if<bool>(&value)) {
      v.set_bool_value(*b);
    } else if (const int64_t* i = std::get_if<int64_t>(&value)) {
      v.set_int_value(*i);
    } else {
      v.set_enum_value(std::get<std::string>(value));
    }
  }
  return proto;
}

absl::StatusOr<Action> DecodeAction(const State& state,
                                    const v1::Action& action) {
  const GameCodec& codec = CodecFor(state.game());
  const bool typed = codec.HasTypedAction(action);
  const bool text = !action.notation().empty();
  if (!typed && action.game_case() != v1::Action::GAME_NOT_SET) {
    return absl::InvalidArgumentError(absl::StrCat(
        "action carries another game's message; this match plays '",
        state.game().id(), "'"));
  }
  if (!typed && !text) {
    return absl::InvalidArgumentError(
        absl::StrCat("empty action: set the '", state.game().id(),
                     "' message or 'notation'"));
  }
  absl::StatusOr<Action> from_proto;
  if (typed) {
    from_proto = codec.ActionFromProto(action);
    if (!text) return from_proto;
    // Most bots send back a legal action as they were given it: its
    // notation is the typed action's own text, and parsing it again (a
    // thousand instructions, 1.3% of a decision on PlaySeat) would only
    // agree.
    if (from_proto.ok() &&
        state.ActionToString(*from_proto) == action.notation()) {
      return from_proto;
    }
  }
  // Here there is a notation. One that does not parse is named first, even
  // when the typed action is wrong too.
  absl::StatusOr<Action> from_text = state.ParseAction(action.notation());
  if (!from_text.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("notation '", action.notation(),
                     "': ", from_text.status().message()));
  }
  if (!typed) return from_text;
  if (!from_proto.ok()) return from_proto;
  if (*from_proto != *from_text) {
    return absl::InvalidArgumentError(
        absl::StrCat("typed action (", state.ActionToString(*from_proto),
                     ") and notation '", action.notation(), "' disagree"));
  }
  return from_proto;
}

v1::Action EncodeAction(const State& state, Action action) {
  v1::Action out;
  EncodeActionInto(state, action, &out);
  return out;
}

void EncodeActionInto(const State& state, Action action, v1::Action* out) {
  CodecFor(state.game()).ActionToProto(action, out);
  out->set_notation(state.ActionToString(action));
}

void FillObservation(const State& state, int seat, v1::Observation* out) {
  out->set_game(std::string(state.game().id()));
  out->set_seat(seat);
  out->set_seat_to_act(state.current_seat());
  out->set_round(state.round());
  out->set_rounds_completed(state.rounds_completed());
  out->clear_legal_actions();
  if (state.current_seat() == seat) {
    ActionList legal;
    state.LegalActions(legal);
    out->mutable_legal_actions()->Reserve(legal.size());
    for (Action a : legal) EncodeActionInto(state, a, out->add_legal_actions());
  }
  CodecFor(state.game()).FillGameView(state, seat, out);
  if (state.IsTerminal()) *out->mutable_result() = MakeFinalResult(state);
}

v1::RoundResult MakeRoundResult(const State& state, int round) {
  v1::RoundResult out;
  out.set_round(round);
  CodecFor(state.game()).FillRoundResult(state, round, &out);
  return out;
}

v1::FinalResult MakeFinalResult(const State& state) {
  v1::FinalResult out;
  GameOutcome outcome = state.Outcome();
  for (int64_t s : outcome.scores) out.add_scores(s);
  for (int r : outcome.ranks) out.add_ranks(r);
  for (int w : outcome.winners) out.add_winners(w);
  out.set_higher_score_is_better(outcome.higher_score_is_better);
  CodecFor(state.game()).FillFinalResult(state, &out);
  return out;
}

}  // namespace cardref::codec
