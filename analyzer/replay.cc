#include "analyzer/replay.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/proto_diff.h"
#include "google/protobuf/descriptor.h"
#include "referee/codec/codec.h"
#include "referee/codec/unknown_fields.h"
#include "referee/record/game_log.h"
#include "referee/service/fault_policy.h"

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

absl::string_view RecordKindName(const v1::LogRecord& record) {
  // The oneof's field names by number, looked up once (every record of an
  // audit asks, several times).
  static const std::vector<absl::string_view>* const names = [] {
    const google::protobuf::OneofDescriptor* oneof =
        v1::LogRecord::descriptor()->FindOneofByName("record");
    int highest = 0;
    for (int i = 0; i < oneof->field_count(); ++i) {
      highest = std::max(highest, oneof->field(i)->number());
    }
    auto* table = new std::vector<absl::string_view>(highest + 1, "empty");
    for (int i = 0; i < oneof->field_count(); ++i) {
      (*table)[oneof->field(i)->number()] = oneof->field(i)->name();
    }
    return table;
  }();
  const auto number = static_cast<size_t>(record.record_case());
  return number < names->size() ? (*names)[number] : "empty";
}

std::string RecordKind(const v1::LogRecord& record) {
  return std::string(RecordKindName(record));
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
      new LogReplay(header, std::move(*game), std::move(state)));
}

LogReplay::LogReplay(const v1::LogHeader& header, std::unique_ptr<Game> game,
                     std::unique_ptr<State> state)
    : game_(std::move(game)), state_(std::move(state)), header_(header) {
  const int n = game_->num_seats();
  fault_action_ = service::EffectiveAction(header.fault_policy());
  if (header.has_clock()) {
    limit_micros_ = header.clock().decision_limit_millis() * 1000;
  }
  bank_micros_.assign(
      n, limit_micros_ > 0 ? header.clock().bank_millis() * 1000 : 0);
  allowance_micros_.assign(n, 0);
  for (int s = 0; s < n && limit_micros_ > 0 &&
                  s < header.clock().latency_allowance_millis_size();
       ++s) {
    allowance_micros_[s] =
        std::max<int64_t>(0, header.clock().latency_allowance_millis(s)) * 1000;
  }
  consecutive_timeouts_.assign(n, 0);
  rejections_.assign(n, 0);
  absent_.assign(n, false);
  forfeited_.assign(n, false);
  never_joined_.assign(n, false);
  if (!has_policy()) return;
  // A seat with no player name never joined (the join deadline passed).
  int missing = 0;
  for (int s = 0; s < n; ++s) {
    if (!header.seats(s).player_name().empty()) continue;
    never_joined_[s] = true;
    ++missing;
    absent_[s] = fault_action_ == v1::FAULT_ACTION_SUBSTITUTE;
  }
  if (missing == n || (missing > 0 && fault_action_ == v1::FAULT_ACTION_ABORT)) {
    abort_due_ = true;
    abort_why_ = missing == n ? "no seat joined by the join deadline"
                              : "a seat did not join by the join deadline and "
                                "the fault policy is ABORT";
  }
}

absl::Status LogReplay::Fail(std::string field, std::string recorded,
                             std::string recomputed, std::string explanation) {
  Discrepancy d;
  d.record_index = index_;
  d.byte_offset = offset_;
  d.record_kind = std::string(kind_);
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
                              uint64_t byte_offset,
                              absl::string_view payload) {
  index_ = index;
  offset_ = byte_offset;
  kind_ = RecordKindName(record);
  if (finished_ || aborted_) {
    return Fail("", "", "",
                absl::StrCat("a record after the game's end (",
                             aborted_ ? "abort notice" : "final result", ")"));
  }
  // proto3 keeps unknown fields silently; a record holding data this
  // analyzer cannot read (a newer referee's schema) is not audited as if the
  // data were absent. Scanning the bytes is cheap; reflection decides.
  const bool clean =
      !payload.empty() &&
      known_fields_.OnlyKnownFields(payload, v1::LogRecord::descriptor());
  if (std::optional<std::string> unknown =
          clean ? std::nullopt : codec::FindUnknownField(record)) {
    return Fail(*unknown, "present", "unknown to this analyzer",
                "the record has a field this analyzer's schema does not know "
                "(written by a newer referee?)");
  }
  if (abort_due_ && !record.has_seed_reveal() && !record.has_aborted()) {
    return Fail("", "", "",
                absl::StrCat("the header's fault policy demands that the "
                             "match be aborted here (",
                             abort_why_, "), not a ", kind_, " record"));
  }
  if (forfeit_due_ >= 0 && !record.has_forfeit() && !record.has_aborted()) {
    return Fail("", "", "",
                absl::StrCat("the header's fault policy (FORFEIT) demands "
                             "that seat ",
                             forfeit_due_, " forfeit here, not a ", kind_,
                             " record"));
  }
  if (has_policy() && !game_records_seen_ && !record.has_forfeit()) {
    game_records_seen_ = true;
    for (int s = 0; s < game_->num_seats(); ++s) {
      if (never_joined_[s] && fault_action_ == v1::FAULT_ACTION_FORFEIT &&
          !forfeited_[s]) {
        return Fail("", "", "",
                    absl::StrCat("seat ", s,
                                 " never joined and the fault policy is "
                                 "FORFEIT: its forfeit must follow the header"));
      }
    }
  }
  if (pending_fault_seat_ >= 0 && !record.has_action() &&
      !record.has_aborted() && !record.has_forfeit()) {
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
    case v1::LogRecord::kForfeit:
      st = CheckForfeit(record.forfeit());
      break;
    case v1::LogRecord::kRejectionsNotLogged:
      st = CheckRejectionsNotLogged(record.rejections_not_logged());
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

absl::StatusOr<Action> LogReplay::LoggedAction(const v1::ActionEvent& event) {
  const bool compact = header_.format_version() >= 3;
  if (event.has_engine_action() != compact) {
    return Fail("action.engine_action",
                event.has_engine_action()
                    ? absl::StrCat(event.engine_action())
                    : "(absent)",
                compact ? "(present)" : "(absent)",
                compact ? "a format 3 log records an accepted action as the "
                          "engine's action"
                        : "a log before format 3 records the typed action "
                          "only");
  }
  if (compact) {
    const Action action = event.engine_action();
    // The referee stores no typed action; a reader that derived it
    // (codec::DeriveTypedActions) must have derived it right.
    if (event.has_action()) {
      if (!state_->IsLegalAction(action)) {
        return Fail(ActionField(event), ActionText(event), "(illegal)",
                    "the engine refuses it");
      }
      const v1::Action expected = codec::EncodeAction(*state_, action);
      if (std::optional<FieldDifference> diff =
              FirstDifference(event.action(), expected, "action.action")) {
        return Fail(diff->path, diff->recorded, diff->recomputed,
                    "the typed action must be the one engine_action encodes");
      }
    }
    return action;  // its legality is checked when applied
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
  return action;
}

std::string LogReplay::ActionField(const v1::ActionEvent& event) {
  return event.has_engine_action() ? "action.engine_action" : "action.action";
}

std::string LogReplay::ActionText(const v1::ActionEvent& event) const {
  if (!event.has_engine_action()) return Quoted(event.action().notation());
  // Only a legal action has a notation the engine can be trusted to write.
  if (!state_->IsLegalAction(event.engine_action())) {
    return absl::StrCat(event.engine_action());
  }
  return absl::StrCat(event.engine_action(), " ",
                      Quoted(state_->ActionToString(event.engine_action())));
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
  absl::StatusOr<Action> action = LoggedAction(event);
  if (!action.ok()) return action.status();
  if (has_policy()) {
    if (absl::Status st = CheckActionPolicy(event, *action); !st.ok()) {
      return st;
    }
  }
  if (absl::Status st = state_->ApplyAction(*action); !st.ok()) {
    return Fail(ActionField(event), ActionText(event), "(illegal)",
                absl::StrCat("the engine refuses it: ", st.message()));
  }
  if (!event.by_referee()) consecutive_timeouts_[event.seat()] = 0;
  std::fill(rejections_.begin(), rejections_.end(), 0);
  pending_fault_seat_ = -1;
  pending_fault_kind_ = v1::FAULT_KIND_UNSPECIFIED;
  return absl::OkStatus();
}

absl::Status LogReplay::CheckActionPolicy(const v1::ActionEvent& event,
                                          Action action) {
  const int seat = event.seat();
  if (!event.by_referee() && (absent_[seat] || forfeited_[seat])) {
    return Fail("action.by_referee", "false", "true",
                absl::StrCat("seat ", seat,
                             forfeited_[seat] ? " has forfeited" : " is absent",
                             ": the referee plays its decisions at once"));
  }
  if (event.by_referee()) {
    const Action neutral = service::NeutralAction(*state_);
    if (action != neutral) {
      return Fail(ActionField(event), ActionText(event),
                  Quoted(state_->ActionToString(neutral)),
                  "the referee plays the game's neutral action "
                  "(docs/fault_policy.md)");
    }
  }
  if (limit_micros_ > 0) {
    const int64_t taken = event.time_taken_micros();
    const int64_t seat_limit = limit_micros_ + allowance_micros_[seat];
    const int64_t allowance = seat_limit + bank_micros_[seat];
    if (!event.by_referee() && taken >= allowance) {
      return Fail("action.time_taken_micros", absl::StrCat(taken),
                  absl::StrCat("less than ", allowance),
                  "accepted after the seat's limit and bank ran out");
    }
    if (event.by_referee() && pending_fault_kind_ == v1::FAULT_KIND_TIMEOUT &&
        taken < allowance) {
      return Fail("action.time_taken_micros", absl::StrCat(taken),
                  absl::StrCat("at least ", allowance),
                  "a timeout before the seat's limit and bank ran out");
    }
    if (taken > seat_limit) {
      bank_micros_[seat] =
          std::max<int64_t>(0, bank_micros_[seat] - (taken - seat_limit));
    }
  }
  return absl::OkStatus();
}

absl::Status LogReplay::CheckForfeit(const v1::Forfeit& forfeit) {
  const int seat = forfeit.seat();
  if (seat < 0 || seat >= game_->num_seats()) {
    return Fail("forfeit.seat", absl::StrCat(seat),
                absl::StrCat("0..", game_->num_seats() - 1),
                "not a seat of this game");
  }
  if (!has_policy() || fault_action_ != v1::FAULT_ACTION_FORFEIT) {
    return Fail("forfeit", "a forfeit",
                absl::StrCat("none (fault policy ",
                             v1::FaultAction_Name(fault_action_), ")"),
                "the header's fault policy does not forfeit seats");
  }
  if (forfeited_[seat]) {
    return Fail("forfeit.seat", absl::StrCat(seat), "(not again)",
                "the seat has forfeited already");
  }
  if (forfeit.reason() == v1::FORFEIT_REASON_NOT_JOINED) {
    if (!never_joined_[seat] || game_records_seen_) {
      return Fail("forfeit.reason", "NOT_JOINED", "(none)",
                  absl::StrCat("seat ", seat,
                               " joined (the header names it), or the game "
                               "had begun"));
    }
  } else if (forfeit_due_ != seat || forfeit.reason() != forfeit_reason_) {
    return Fail("forfeit.reason", v1::ForfeitReason_Name(forfeit.reason()),
                forfeit_due_ == seat ? v1::ForfeitReason_Name(forfeit_reason_)
                                     : "(none)",
                absl::StrCat("no limit of the fault policy was reached by "
                             "seat ",
                             seat, " here"));
  }
  forfeited_[seat] = true;
  forfeit_due_ = -1;
  return absl::OkStatus();
}

// Rejections past the referee's logging limit, counted in one record: they
// count toward the fault policy's limit like logged ones.
absl::Status LogReplay::CheckRejectionsNotLogged(
    const v1::RejectionsNotLogged& dropped) {
  const int seats = game_->num_seats();
  if (dropped.seat() < 0 || dropped.seat() >= seats) {
    return Fail("rejections_not_logged.seat", absl::StrCat(dropped.seat()),
                absl::StrCat("0..", seats - 1), "not a seat of this game");
  }
  if (dropped.count() == 0) {
    return Fail("rejections_not_logged.count", "0", "at least 1",
                "a record of no rejections");
  }
  return CountRejections(dropped.seat(), dropped.count());
}

// As the referee counts: rejections of the seat to act, for its pending
// decision, settle it at the policy's limit (match.cc, SubmitLocked).
absl::Status LogReplay::CountRejections(int seat, uint32_t count) {
  if (!has_policy() || state_->node_type() != NodeType::kDecision ||
      state_->current_seat() != seat) {
    return absl::OkStatus();
  }
  const int limit = header_.fault_policy().max_rejections_per_decision();
  if (limit <= 0) return absl::OkStatus();
  const int64_t total = static_cast<int64_t>(rejections_[seat]) + count;
  if (pending_fault_seat_ < 0 && total > limit) {
    return Fail("", "", "",
                absl::StrCat("rejection ", total, " of seat ", seat,
                             " for one decision: the fault policy settles "
                             "the decision at ",
                             limit));
  }
  rejections_[seat] = static_cast<int>(std::min<int64_t>(total, limit));
  if (rejections_[seat] == limit && fault_action_ == v1::FAULT_ACTION_ABORT) {
    abort_due_ = true;
    abort_why_ = "the rejection limit was reached and the policy is ABORT";
  }
  return absl::OkStatus();
}

absl::Status LogReplay::CheckRejected(const v1::RejectedSubmission& rejected) {
  if (absl::Status st = CheckNoRoundPending(); !st.ok()) return st;
  const int seats = game_->num_seats();
  if (rejected.seat() < 0 || rejected.seat() >= seats) {
    return Fail("rejected.seat", absl::StrCat(rejected.seat()),
                absl::StrCat("0..", seats - 1), "not a seat of this game");
  }
  if (absl::Status st = CountRejections(rejected.seat(), 1); !st.ok()) {
    return st;
  }
  if (rejected.status_code() !=
          static_cast<int>(absl::StatusCode::kInvalidArgument) ||
      state_->current_seat() != rejected.seat()) {
    return absl::OkStatus();  // refused for reasons the engine cannot judge
  }
  absl::StatusOr<Action> action =
      codec::DecodeAction(*state_, rejected.action());
  if (!action.ok()) return absl::OkStatus();  // the engine refuses it too
  if (!state_->IsLegalAction(*action)) return absl::OkStatus();
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
  pending_fault_kind_ = fault.kind();
  if (!has_policy()) return absl::OkStatus();
  const int seat = fault.seat();
  const v1::FaultPolicy& policy = header_.fault_policy();
  const std::string kind = v1::FaultKind_IsValid(fault.kind())
                               ? v1::FaultKind_Name(fault.kind())
                               : absl::StrCat(fault.kind());
  std::string expected;  // the kind the policy demands, when it is another
  if (forfeited_[seat]) {
    expected = "FAULT_KIND_FORFEITED";
  } else if (absent_[seat]) {
    expected = "FAULT_KIND_ABSENT";
  }
  const bool settled_at_once = fault.kind() == v1::FAULT_KIND_FORFEITED ||
                               fault.kind() == v1::FAULT_KIND_ABSENT;
  if (!expected.empty() || settled_at_once) {
    if (kind != expected) {
      return Fail("fault.kind", kind,
                  expected.empty() ? "(the seat plays for itself)" : expected,
                  "absent and forfeited seats, and only they, are played for "
                  "at once");
    }
    return absl::OkStatus();
  }
  std::optional<v1::ForfeitReason> reached;
  switch (fault.kind()) {
    case v1::FAULT_KIND_TIMEOUT:
    case v1::FAULT_KIND_DISCONNECTED:
      if (fault.kind() == v1::FAULT_KIND_TIMEOUT && limit_micros_ == 0) {
        return Fail("fault.kind", kind, "(none)",
                    "the header's clock has no time limit");
      }
      if (fault.kind() == v1::FAULT_KIND_DISCONNECTED &&
          !policy.disconnect_is_timeout()) {
        return Fail("fault.kind", kind, "(none)",
                    "the fault policy does not treat disconnects as timeouts");
      }
      ++consecutive_timeouts_[seat];
      if (policy.max_consecutive_timeouts() > 0 &&
          consecutive_timeouts_[seat] >= policy.max_consecutive_timeouts()) {
        reached = v1::FORFEIT_REASON_TIMEOUT_LIMIT;
      }
      break;
    case v1::FAULT_KIND_REJECTION_LIMIT:
      if (policy.max_rejections_per_decision() == 0 ||
          rejections_[seat] != policy.max_rejections_per_decision()) {
        return Fail("fault.kind", kind,
                    absl::StrCat("(none: ", rejections_[seat],
                                 " rejections, limit ",
                                 policy.max_rejections_per_decision(), ")"),
                    "the rejection limit was not reached");
      }
      reached = v1::FORFEIT_REASON_REJECTION_LIMIT;
      break;
    case v1::FAULT_KIND_BOT_ENDED:
      // The organiser's report (ReportBotEnded): the policy's verdict at
      // once, as at the timeout limit.
      if (fault.cause().empty()) {
        return Fail("fault.cause", "(empty)", "the limit's name",
                    "the organiser names why a bot ended");
      }
      reached = v1::FORFEIT_REASON_BOT_ENDED;
      break;
    default:
      return Fail("fault.kind", kind, "a FaultKind of log.proto", "");
  }
  if (!reached.has_value()) return absl::OkStatus();
  switch (fault_action_) {
    case v1::FAULT_ACTION_ABORT:
      return Fail("", "", "",
                  absl::StrCat("seat ", seat,
                               " reached a limit of the fault policy, which "
                               "is ABORT: the match must end here"));
    case v1::FAULT_ACTION_FORFEIT:
      forfeit_due_ = seat;
      forfeit_reason_ = *reached;
      break;
    default:
      if (*reached == v1::FORFEIT_REASON_TIMEOUT_LIMIT ||
          *reached == v1::FORFEIT_REASON_BOT_ENDED) {
        absent_[seat] = true;
      }
      break;
  }
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
  v1::FinalResult expected = codec::MakeFinalResult(*state_);
  service::ApplyForfeits(*game_, forfeited_, &expected);
  if (std::optional<FieldDifference> diff =
          FirstDifference(result, expected, "final_result")) {
    return Fail(diff->path, diff->recorded, diff->recomputed, "");
  }
  finished_ = true;
  return absl::OkStatus();
}

}  // namespace cardref::analyzer
