#include "analyzer/log_tools/playback.h"

#include <memory>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/log_tools/game_view.h"
#include "analyzer/log_tools/public_table.h"
#include "analyzer/render.h"
#include "analyzer/replay.h"
#include "referee/base/unicode/unicode_props.h"
#include "referee/base/status_macros.h"
#include "referee/codec/codec.h"

namespace cardref::log_tools {
namespace {

// A logged gRPC status code as people know it (INVALID_ARGUMENT); a number
// no code has (a hostile or newer log) stays a number.
std::string StatusCodeName(int code) {
  const std::string name =
      absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? absl::StrCat("status ", code) : name;
}

std::vector<v1::Observation> ObserveState(const State& state, int viewer) {
  const int n = state.game().num_seats();
  std::vector<v1::Observation> views(n);
  if (viewer >= 0) {
    // Only the viewer's observation exists; every slot holds it.
    v1::Observation own;
    codec::FillObservation(state, viewer, &own);
    for (v1::Observation& v : views) v = own;
    return views;
  }
  for (int s = 0; s < n; ++s) codec::FillObservation(state, s, &views[s]);
  return views;
}

// `round`: the round the event belongs to (after it is applied). The deck
// order only in the full view (viewer -1).
std::string ChanceText(const v1::ChanceEvent& chance, int round,
                       const GameView& view, int viewer) {
  std::vector<uint32_t> cards(chance.cards().begin(), chance.cards().end());
  const std::string order =
      viewer < 0 ? absl::StrCat(": ", view.CardsText(cards)) : "";
  switch (chance.kind()) {
    case v1::CHANCE_KIND_DEAL:
      return absl::StrCat("deal of round ", round,
                          viewer < 0 ? absl::StrCat(", deck", order) : "");
    case v1::CHANCE_KIND_RESHUFFLE:
      return absl::StrCat("the stock is reshuffled (", cards.size(), " cards",
                          viewer < 0 ? absl::StrCat(", top first", order) : "",
                          ")");
    case v1::CHANCE_KIND_TRUMP_DECK:
      return absl::StrCat("the trump deck is shuffled",
                          viewer < 0 ? absl::StrCat(order) : "");
    default:
      return absl::StrCat("chance event of kind ", chance.kind());
  }
}

std::string FinalText(const v1::FinalResult& result,
                      const std::vector<std::string>& names) {
  std::vector<std::string> parts;
  for (int s = 0;
       s < result.scores_size() && s < static_cast<int>(names.size()); ++s) {
    parts.push_back(absl::StrCat(
        names[s], " ", result.scores(s),
        s < result.ranks_size() ? absl::StrCat(" (rank ", result.ranks(s), ")")
                                : ""));
  }
  std::vector<int> winners(result.winners().begin(), result.winners().end());
  return absl::StrCat(
      "final result: ", absl::StrJoin(parts, ", "), "; ",
      winners.empty()
          ? "a draw"
          : absl::StrCat(winners.size() == 1 ? "winner " : "winners ",
                         SeatList(names, winners)),
      " (", result.higher_score_is_better() ? "higher" : "lower",
      " score is better)");
}

// "bob gets 5C 7H": cards that joined a hand the viewer sees (draws, a
// reserve taken, a drawn card placed), not at a deal (listed in full).
void AddCardsGained(const Table& before, const Table& after,
                    std::vector<std::string>* effects) {
  for (size_t s = 0; s < after.seats.size() && s < before.seats.size(); ++s) {
    const SeatTable& b = before.seats[s];
    const SeatTable& a = after.seats[s];
    if (!a.hand_visible || !b.hand_visible || b.hand.empty()) continue;
    std::multiset<std::string> held;
    for (const CardFace& c : b.hand) held.insert(c.Text());
    std::vector<std::string> gained;
    for (const CardFace& c : a.hand) {
      auto it = held.find(c.Text());
      if (it != held.end()) {
        held.erase(it);
      } else {
        gained.push_back(c.Text());
      }
    }
    if (!gained.empty()) {
      effects->push_back(
          absl::StrCat(a.name, " gets ", absl::StrJoin(gained, " ")));
    }
  }
}

}  // namespace

std::string DisplayName(absl::string_view name) {
  std::string clean = analyzer::Sanitize(name);
  if (!unicode::FindScriptFault(name).has_value()) return clean;
  // Sanitize leaves valid UTF-8 outside ASCII as it is.
  std::string out;
  for (size_t i = 0; i < clean.size();) {
    const size_t at = i;
    const int32_t cp = unicode::NextCodePoint(clean, &i);
    if (cp < 0x80) {
      out.push_back(clean[at]);
      if (cp < 0) ++i;  // not reached: Sanitize escaped such bytes
    } else {
      out += analyzer::CodePointEscape(cp);
    }
  }
  return out;
}

std::string SeatName(const v1::LogHeader& header, int seat) {
  if (seat < 0 || seat >= header.seats_size() ||
      header.seats(seat).player_name().empty()) {
    return absl::StrCat("seat ", seat);
  }
  return DisplayName(header.seats(seat).player_name());
}

PlaybackBuilder::PlaybackBuilder() = default;
PlaybackBuilder::~PlaybackBuilder() = default;

absl::StatusOr<std::unique_ptr<PlaybackBuilder>> PlaybackBuilder::Create(
    const v1::LogHeader& header, const GameRegistry& registry, int viewer) {
  std::unique_ptr<PlaybackBuilder> b(new PlaybackBuilder);
  b->header_ = header;
  b->viewer_ = viewer;
  absl::StatusOr<std::unique_ptr<analyzer::LogReplay>> replay =
      analyzer::LogReplay::Create(header, registry);
  if (!replay.ok()) return replay.status();
  b->replay_ = *std::move(replay);
  b->view_ = MakeGameView(header.game());
  if (b->view_ == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("no text view for game ", header.game()));
  }
  absl::StatusOr<const GameInfo*> info = registry.Find(header.game());
  b->game_name_ = info.ok() ? (*info)->display_name : header.game();
  const int n = b->replay_->game().num_seats();
  if (viewer != kPublicViewer && (viewer < -1 || viewer >= n)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--seat=", viewer, " is not a seat of this game (0..", n - 1, ")"));
  }
  for (int s = 0; s < n; ++s) b->names_.push_back(SeatName(header, s));
  b->score_columns_ = b->view_->ScoreColumns(b->names_);
  b->views_ = b->Observe();
  b->initial_table_ = b->MakeTable();
  b->previous_table_ = b->initial_table_;
  return b;
}

std::vector<v1::Observation> PlaybackBuilder::Observe() const {
  // The public view is drawn from every seat's own observation.
  return ObserveState(replay_->state(), viewer_ == kPublicViewer ? -1 : viewer_);
}

Table PlaybackBuilder::MakeTable() const {
  if (viewer_ == kPublicViewer) return PublicTable(*view_, views_, names_);
  return view_->MakeTable(views_, viewer_, names_);
}

std::vector<std::string> PlaybackBuilder::Effects(
    const std::vector<v1::Observation>& after,
    const v1::LogRecord& record) const {
  const v1::Action* action =
      record.has_action() ? &record.action().action() : nullptr;
  if (viewer_ == kPublicViewer) {
    return PublicEffects(*view_, views_, after, action, names_);
  }
  // The observing seat: the viewer, or seat 0 (public parts only).
  const int seat = viewer_ >= 0 ? viewer_ : 0;
  return view_->Effects(views_[seat], after[seat], action, names_);
}

absl::StatusOr<Step> PlaybackBuilder::Add(const v1::LogRecord& record,
                                          int64_t index,
                                          uint64_t byte_offset) {
  const std::vector<std::string>& names = names_;
  const int n = static_cast<int>(names.size());
  // The chance and seed texts of a seat's view hide what the public one does.
  const int text_viewer = viewer_ == kPublicViewer ? n : viewer_;
  const State& before = replay_->state();
  Step step;
  step.record_index = index;
  step.byte_offset = byte_offset;
  step.kind = analyzer::RecordKind(record);
  step.round = std::max(before.round(), 1);
  switch (record.record_case()) {
    case v1::LogRecord::kChance:
      break;  // worded once applied: a deal starts the next round
    case v1::LogRecord::kAction: {
      const v1::ActionEvent& a = record.action();
      step.seat = a.seat();
      step.text =
          absl::StrCat(names.at(a.seat() >= 0 && a.seat() < n ? a.seat() : 0),
                       a.by_referee() ? " (played by the referee)" : "", ": ",
                       a.action().notation());
      break;
    }
    case v1::LogRecord::kRejected: {
      const v1::RejectedSubmission& r = record.rejected();
      step.seat = r.seat();
      const std::string who = r.seat() >= 0 && r.seat() < n
                                  ? names[r.seat()]
                                  : absl::StrCat("seat ", r.seat());
      // Another seat's refused submission may name its cards: hidden.
      if (viewer_ == -1 || viewer_ == r.seat()) {
        // The action as received: its notation, else its typed form.
        v1::Action typed = r.action();
        typed.clear_notation();
        const std::string submitted =
            r.oversized_bytes() > 0
                ? absl::StrCat("an action of ", r.oversized_bytes(),
                               " bytes (too large to log)")
            : r.action().notation().empty()
                ? absl::StrCat("{", typed.ShortDebugString(), "}")
                : absl::StrCat("\"", absl::CHexEscape(r.action().notation()),
                               "\"");
        step.text = absl::StrCat("refused ", who, ": ", submitted, " (",
                                 StatusCodeName(r.status_code()), ": ",
                                 analyzer::Sanitize(r.message()), ")");
      } else {
        step.text = absl::StrCat("refused a submission of ", who);
      }
      break;
    }
    case v1::LogRecord::kRejectionsNotLogged: {
      const v1::RejectionsNotLogged& r = record.rejections_not_logged();
      step.seat = r.seat();
      step.text = absl::StrCat(
          "refused ", r.count(), " more submission", r.count() == 1 ? "" : "s",
          " of ",
          r.seat() >= 0 && r.seat() < n ? names[r.seat()]
                                        : absl::StrCat("seat ", r.seat()),
          " at version ", r.decision_version(),
          " (counted, not logged: the referee's per-decision limit)");
      break;
    }
    case v1::LogRecord::kFault:
      step.seat = record.fault().seat();
      step.text = absl::StrCat(
          "fault: ",
          record.fault().seat() >= 0 && record.fault().seat() < n
              ? names[record.fault().seat()]
              : absl::StrCat("seat ", record.fault().seat()),
          " ",
          record.fault().kind() == v1::FAULT_KIND_TIMEOUT ? "timed out"
                                                          : "faulted",
          record.fault().detail().empty()
              ? ""
              : absl::StrCat(" (", record.fault().detail(), ")"));
      break;
    case v1::LogRecord::kRoundResult:
      step.round = record.round_result().round();
      step.text =
          absl::StrCat("round ", record.round_result().round(), " result");
      step.details = view_->RoundResultLines(record.round_result(), names);
      step.score_row = view_->ScoreRow(record.round_result());
      break;
    case v1::LogRecord::kFinalResult:
      step.text = FinalText(record.final_result(), names);
      step.details = view_->FinalResultLines(record.final_result(), names);
      break;
    case v1::LogRecord::kAborted:
      step.text = absl::StrCat("match aborted: ",
                               analyzer::Sanitize(record.aborted().reason()));
      break;
    case v1::LogRecord::kSeedReveal:
      // The public view does not show the seed: another match dealt from it
      // may still be played (service/match_events.h).
      step.text = viewer_ == kPublicViewer
                      ? std::string("dealing seed revealed")
                      : absl::StrCat("dealing seed revealed: ",
                                     absl::BytesToHexString(
                                         record.seed_reveal().seed()));
      break;
    default:
      step.text = absl::StrCat("record of kind ", step.kind);
      break;
  }
  RETURN_IF_ERROR(replay_->Apply(record, index, byte_offset));
  const State& now = replay_->state();
  std::vector<v1::Observation> after = Observe();
  if (record.has_chance()) {
    step.round = std::max(now.round(), 1);
    step.text = ChanceText(record.chance(), step.round, *view_, text_viewer);
  }
  if (record.has_action() || record.has_chance()) {
    step.effects = Effects(after, record);
  }
  views_ = std::move(after);
  step.table = MakeTable();
  if (record.has_action() ||
      (record.has_chance() && record.chance().kind() != v1::CHANCE_KIND_DEAL)) {
    AddCardsGained(previous_table_, step.table, &step.effects);
  }
  previous_table_ = step.table;
  if (record.has_chance() && record.chance().kind() == v1::CHANCE_KIND_DEAL) {
    for (const SeatTable& seat : step.table.seats) {
      if (!seat.hand_visible) continue;
      std::vector<std::string> cards;
      for (const CardFace& c : seat.hand) cards.push_back(c.Text());
      step.details.push_back(
          absl::StrCat(seat.name, ": ", absl::StrJoin(cards, " ")));
    }
  }
  return step;
}

absl::StatusOr<Playback> BuildPlayback(const record::GameLog& log,
                                       const GameRegistry& registry,
                                       int viewer) {
  if (!log.has_header()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the log has no header record (", record::DescribeEnd(log), ")"));
  }
  absl::StatusOr<std::unique_ptr<PlaybackBuilder>> builder =
      PlaybackBuilder::Create(log.header(), registry, viewer);
  if (!builder.ok()) return builder.status();
  PlaybackBuilder& b = **builder;
  Playback t;
  t.header = log.header();
  t.viewer = viewer;
  t.end_text = record::DescribeEnd(log);
  t.game_name = b.game_name();
  t.seat_names = b.seat_names();
  t.score_columns = b.score_columns();
  for (size_t i = 1; i < log.records.size(); ++i) {
    absl::StatusOr<Step> step =
        b.Add(log.records[i], static_cast<int64_t>(i), log.offsets[i]);
    if (!step.ok()) {
      t.problem = std::string(step.status().message());
      break;
    }
    if (step->kind == "round_result") t.score_rows.push_back(step->score_row);
    if (step->kind == "final_result") t.final_text = step->text;
    t.steps.push_back(*std::move(step));
  }
  if (t.problem.empty() && log.end != record::FileEnd::kComplete) {
    t.problem = t.end_text;
  }
  return t;
}

}  // namespace cardref::log_tools
