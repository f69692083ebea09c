#include "analyzer/replay.h"

#include <array>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/proto_diff.h"
#include "referee/codec/codec.h"
#include "referee/codec/unknown_fields.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {
namespace {

// Engine and proto chance kinds share their numbers (log.proto).
v1::ChanceKind ToProto(ChanceKind kind) {
  return static_cast<v1::ChanceKind>(static_cast<int>(kind));
}

std::string ChanceName(int kind) {
  if (!v1::ChanceKind_IsValid(kind)) return absl::StrCat(kind);
  return v1::ChanceKind_Name(static_cast<v1::ChanceKind>(kind));
}

std::string Quoted(absl::string_view s) { return absl::StrCat("\"", s, "\""); }

}  // namespace

std::string Discrepancy::ToString() const {
  std::string out = absl::StrCat("record ", record_index, " at byte ",
                                 byte_offset, " (", record_kind, "): ");
  if (field.empty()) return absl::StrCat(out, explanation);
  absl::StrAppend(&out, field, ": recorded ", recorded, ", recomputed ",
                  recomputed);
  if (!explanation.empty()) absl::StrAppend(&out, " (", explanation, ")");
  return out;
}

std::string RecordKind(const v1::LogRecord& record) {
  if (record.record_case() == v1::LogRecord::RECORD_NOT_SET) return "empty";
  return std::string(
      v1::LogRecord::descriptor()
          ->FindFieldByNumber(static_cast<int>(record.record_case()))
          ->name());
}

absl::StatusOr<std::unique_ptr<LogReplay>> LogReplay::Create(
    const v1::LogHeader& header, const GameRegistry& registry) {
  if (header.format_version() == 0 ||
      header.format_version() > record::kLogFormatVersion) {
    return absl::UnimplementedError(
        absl::StrCat("header.format_version ", header.format_version(),
                     " is not a format this analyzer reads (it reads 1..",
                     record::kLogFormatVersion, ")"));
  }
  absl::StatusOr<const GameInfo*> info = registry.Find(header.game());
  if (!info.ok()) {
    return absl::NotFoundError(
        absl::StrCat("header.game: ", info.status().message()));
  }
  absl::StatusOr<std::unique_ptr<Game>> game =
      registry.Create(header.game(), codec::ParamsFromProto(header.params()));
  if (!game.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("header.params are not valid for ", header.game(), ": ",
                     game.status().message()));
  }
  if (static_cast<int64_t>(header.rules_version()) !=
      (*game)->rules_version()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "header.rules_version is ", header.rules_version(), " but this ",
        header.game(), " engine implements rules_version ",
        (*game)->rules_version(), "; refusing to audit across rule versions"));
  }
  const int seats = (*game)->num_seats();
  if (header.seats_size() != seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("header.seats lists ", header.seats_size(),
                     " seats but the game has ", seats));
  }
  for (int s = 0; s < seats; ++s) {
    if (header.seats(s).seat() != s) {
      return absl::InvalidArgumentError(
          absl::StrCat("header.seats[", s, "].seat is ", header.seats(s).seat(),
                       ", expected ", s));
    }
  }
  std::unique_ptr<State> state = (*game)->NewInitialState();
  return std::unique_ptr<LogReplay>(
      new LogReplay(std::move(*game), std::move(state)));
}

absl::Status LogReplay::Fail(std::string field, std::string recorded,
                             std::string recomputed, std::string explanation) {
  Discrepancy d;
  d.record_index = index_;
  d.byte_offset = offset_;
  d.record_kind = kind_;
  d.field = std::move(field);
  d.recorded = std::move(recorded);
  d.recomputed = std::move(recomputed);
  d.explanation = std::move(explanation);
  discrepancy_ = std::move(d);
  return absl::FailedPreconditionError(discrepancy_->ToString());
}

std::string LogReplay::Expecting() const {
  switch (state_->node_type()) {
    case NodeType::kChance:
      return absl::StrCat(
          "a ", ChanceName(static_cast<int>(ToProto(state_->chance_kind()))),
          " chance event");
    case NodeType::kDecision:
      return absl::StrCat("an action of seat ", state_->current_seat());
    case NodeType::kTerminal:
      return "nothing more: the game is over";
  }
  return "?";
}

absl::Status LogReplay::Apply(const v1::LogRecord& record, int64_t index,
                              uint64_t byte_offset) {
  index_ = index;
  offset_ = byte_offset;
  kind_ = RecordKind(record);
  if (finished_ || aborted_) {
    return Fail("", "", "",
                absl::StrCat("a record after the game's end (",
                             aborted_ ? "abort notice" : "final result", ")"));
  }
  // proto3 keeps unknown fields silently; a record holding data this
  // analyzer cannot read (a newer referee's schema) is not audited as if the
  // data were absent.
  if (std::optional<std::string> unknown = codec::FindUnknownField(record)) {
    return Fail(*unknown, "present", "unknown to this analyzer",
                "the record has a field this analyzer's schema does not know "
                "(written by a newer referee?)");
  }
  if (pending_fault_seat_ >= 0 && !record.has_action() &&
      !record.has_aborted()) {
    return Fail("", "", "",
                absl::StrCat("a fault of seat ", pending_fault_seat_,
                             " must be followed by the referee's action for "
                             "that seat, not a ",
                             kind_, " record"));
  }
  absl::Status st;
  switch (record.record_case()) {
    case v1::LogRecord::kChance:
      st = ApplyChance(record.chance());
      break;
    case v1::LogRecord::kAction:
      st = ApplyAction(record.action());
      break;
    case v1::LogRecord::kRejected:
      st = CheckRejected(record.rejected());
      break;
    case v1::LogRecord::kFault:
      st = CheckFault(record.fault());
      break;
    case v1::LogRecord::kRoundResult:
      st = CheckRoundResult(record.round_result());
      break;
    case v1::LogRecord::kFinalResult:
      st = CheckFinalResult(record.final_result());
      break;
    case v1::LogRecord::kAborted:
      aborted_ = true;
      abort_reason_ = record.aborted().reason();
      break;
    case v1::LogRecord::kSeedReveal:
      // The commitment is checked by the integrity checks (the seed's hash
      // against header.seed_commitment); the game's state does not change.
      if (seed_revealed_) {
        st = Fail("", "", "", "a second seed reveal");
        break;
      }
      seed_revealed_ = true;
      break;
    case v1::LogRecord::kHeader:
      st = Fail("", "", "", "a second header");
      break;
    case v1::LogRecord::RECORD_NOT_SET:
      st = Fail("", "", "", "a record with no event in it");
      break;
  }
  if (!st.ok()) return st;
  // A round completed by this record: its result is due (after any chance
  // events the same step draws).
  if (round_completed_at_ < 0 && state_->rounds_completed() > rounds_logged_) {
    round_completed_at_ = index;
  }
  return absl::OkStatus();
}

absl::Status LogReplay::CheckNoRoundPending() {
  if (rounds_logged_ >= state_->rounds_completed()) return absl::OkStatus();
  return Fail("", "", "",
              absl::StrCat("round ", rounds_logged_ + 1,
                           " was completed by "
                           "record ",
                           round_completed_at_,
                           " but its round_result is missing before this ",
                           kind_, " record"));
}

absl::Status LogReplay::ApplyChance(const v1::ChanceEvent& chance) {
  if (!state_->IsChance()) {
    return Fail(
        "", "", "",
        absl::StrCat("a chance event, but the engine expects ", Expecting()));
  }
  const int expected = static_cast<int>(ToProto(state_->chance_kind()));
  if (static_cast<int>(chance.kind()) != expected) {
    return Fail("chance.kind", ChanceName(chance.kind()), ChanceName(expected),
                "");
  }
  std::array<Card, 64> expected_cards;
  const int n = state_->ChanceCards(absl::MakeSpan(expected_cards));
  if (chance.cards_size() != n) {
    return Fail("chance.cards", absl::StrCat(chance.cards_size(), " cards"),
                absl::StrCat(n, " cards"),
                "a chance event orders every card the engine asks for");
  }
  std::vector<Card> order;
  order.reserve(chance.cards_size());
  for (int i = 0; i < chance.cards_size(); ++i) {
    if (chance.cards(i) > 255) {
      return Fail(absl::StrCat("chance.cards[", i, "]"),
                  absl::StrCat(chance.cards(i)), "", "not a card id");
    }
    order.push_back(static_cast<Card>(chance.cards(i)));
  }
  if (absl::Status st = state_->ApplyChance(state_->chance_kind(), order);
      !st.ok()) {
    return Fail(
        "", "", "",
        absl::StrCat("the engine refuses the chance event: ", st.message()));
  }
  return absl::OkStatus();
}

absl::Status LogReplay::ApplyAction(const v1::ActionEvent& event) {
  if (absl::Status st = CheckNoRoundPending(); !st.ok()) return st;
  if (state_->node_type() != NodeType::kDecision) {
    return Fail("", "", "",
                absl::StrCat("an action of seat ", event.seat(),
                             ", but the engine expects ", Expecting()));
  }
  if (event.seat() != state_->current_seat()) {
    return Fail("action.seat", absl::StrCat(event.seat()),
                absl::StrCat(state_->current_seat()), "");
  }
  if (event.by_referee() != (pending_fault_seat_ >= 0)) {
    return Fail("action.by_referee", event.by_referee() ? "true" : "false",
                pending_fault_seat_ >= 0 ? "true" : "false",
                event.by_referee()
                    ? "the referee plays for a seat only after a fault"
                    : "a fault must be followed by the referee's action");
  }
  absl::StatusOr<Action> action = codec::DecodeAction(*state_, event.action());
  if (!action.ok()) {
    return Fail("action.action",
                absl::StrCat("{", event.action().ShortDebugString(), "}"),
                "(no action)",
                absl::StrCat("does not decode: ", action.status().message()));
  }
  const v1::Action expected = codec::EncodeAction(*state_, *action);
  if (std::optional<FieldDifference> diff =
          FirstDifference(event.action(), expected, "action.action")) {
    return Fail(diff->path, diff->recorded, diff->recomputed,
                "an action is logged exactly as the referee encodes it");
  }
  if (absl::Status st = state_->ApplyAction(*action); !st.ok()) {
    return Fail("action.action", Quoted(event.action().notation()), "(illegal)",
                absl::StrCat("the engine refuses it: ", st.message()));
  }
  pending_fault_seat_ = -1;
  return absl::OkStatus();
}

absl::Status LogReplay::CheckRejected(const v1::RejectedSubmission& rejected) {
  if (absl::Status st = CheckNoRoundPending(); !st.ok()) return st;
  const int seats = game_->num_seats();
  if (rejected.seat() < 0 || rejected.seat() >= seats) {
    return Fail("rejected.seat", absl::StrCat(rejected.seat()),
                absl::StrCat("0..", seats - 1), "not a seat of this game");
  }
  if (rejected.status_code() !=
          static_cast<int>(absl::StatusCode::kInvalidArgument) ||
      state_->current_seat() != rejected.seat()) {
    return absl::OkStatus();  // refused for reasons the engine cannot judge
  }
  absl::StatusOr<Action> action =
      codec::DecodeAction(*state_, rejected.action());
  if (!action.ok()) return absl::OkStatus();  // the engine refuses it too
  ActionList legal;
  state_->LegalActions(legal);
  if (!legal.contains(*action)) return absl::OkStatus();
  return Fail(
      "rejected.action",
      absl::StrCat("refused (INVALID_ARGUMENT: ", rejected.message(), ")"),
      absl::StrCat("legal ", Quoted(state_->ActionToString(*action))),
      absl::StrCat("seat ", rejected.seat(),
                   " was to act and the engine accepts this action"));
}

absl::Status LogReplay::CheckFault(const v1::FaultEvent& fault) {
  if (absl::Status st = CheckNoRoundPending(); !st.ok()) return st;
  if (state_->node_type() != NodeType::kDecision) {
    return Fail("", "", "",
                absl::StrCat("a fault of seat ", fault.seat(),
                             ", but the engine expects ", Expecting()));
  }
  if (fault.seat() != state_->current_seat()) {
    return Fail("fault.seat", absl::StrCat(fault.seat()),
                absl::StrCat(state_->current_seat()),
                "only the seat to act can time out");
  }
  pending_fault_seat_ = fault.seat();
  return absl::OkStatus();
}

absl::Status LogReplay::CheckRoundResult(const v1::RoundResult& result) {
  const int completed = state_->rounds_completed();
  if (rounds_logged_ >= completed) {
    return Fail("round_result.round", absl::StrCat(result.round()),
                "(none due)",
                absl::StrCat("the engine has completed ", completed,
                             " rounds and each has its result already"));
  }
  if (result.round() != rounds_logged_ + 1) {
    return Fail("round_result.round", absl::StrCat(result.round()),
                absl::StrCat(rounds_logged_ + 1),
                "round results come once each, in order");
  }
  const v1::RoundResult expected =
      codec::MakeRoundResult(*state_, result.round());
  if (std::optional<FieldDifference> diff =
          FirstDifference(result, expected, "round_result")) {
    return Fail(diff->path, diff->recorded, diff->recomputed, "");
  }
  ++rounds_logged_;
  if (rounds_logged_ >= completed) round_completed_at_ = -1;
  return absl::OkStatus();
}

absl::Status LogReplay::CheckFinalResult(const v1::FinalResult& result) {
  if (absl::Status st = CheckNoRoundPending(); !st.ok()) return st;
  if (!state_->IsTerminal()) {
    return Fail("", "", "",
                absl::StrCat("a final result, but the game is not over: the "
                             "engine expects ",
                             Expecting()));
  }
  const v1::FinalResult expected = codec::MakeFinalResult(*state_);
  if (std::optional<FieldDifference> diff =
          FirstDifference(result, expected, "final_result")) {
    return Fail(diff->path, diff->recorded, diff->recomputed, "");
  }
  finished_ = true;
  return absl::OkStatus();
}

}  // namespace cardref::analyzer
