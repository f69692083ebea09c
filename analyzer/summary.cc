#include "analyzer/summary.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "games/all_games.h"
#include "referee/codec/codec.h"

namespace cardref::analyzer {
namespace {

// "TIMEOUT" for FAULT_KIND_TIMEOUT; the number for a kind this build does not
// know.
std::string FaultReason(v1::FaultKind kind) {
  if (!v1::FaultKind_IsValid(kind)) return absl::StrCat(static_cast<int>(kind));
  std::string name = v1::FaultKind_Name(kind);
  constexpr absl::string_view kPrefix = "FAULT_KIND_";
  if (absl::StartsWith(name, kPrefix)) name.erase(0, kPrefix.size());
  return name;
}

constexpr int kExactBelow = 16;  // 2^4
constexpr int kSubBuckets = 8;   // per doubling

// The first rule ID ("CR-16.2", "KK-7", "KR-14.3") in `text`, or "".
std::string FirstRule(const std::string& text) {
  for (size_t i = 0; i + 4 <= text.size(); ++i) {
    const std::string prefix = text.substr(i, 3);
    if (prefix != "CR-" && prefix != "KK-" && prefix != "KR-") continue;
    if (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1])))
      continue;
    size_t end = i + 3;
    while (end < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end])) ||
            (text[end] == '.' && end + 1 < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[end + 1]))))) {
      ++end;
    }
    if (end > i + 3) return text.substr(i, end - i);
  }
  return "";
}

v1::AuditFinding ToFinding(const Discrepancy& d) {
  v1::AuditFinding f;
  f.set_record_index(d.record_index);
  f.set_byte_offset(d.byte_offset);
  f.set_record_kind(d.record_kind);
  f.set_field(d.field);
  f.set_recorded(d.recorded);
  f.set_recomputed(d.recomputed);
  f.set_explanation(d.explanation);
  f.set_rule(FirstRule(d.explanation));
  return f;
}

// One length-prefixed piece of the game digest, so that no two sequences
// of pieces hash the same bytes.
void DigestPiece(crypto::Sha256Hasher& digest, absl::string_view tag,
                 absl::string_view bytes) {
  digest.Update(absl::StrCat(tag, bytes.size(), ":"));
  digest.Update(bytes);
}

void AddMetrics(const Metrics& metrics,
                google::protobuf::Map<std::string, v1::Moments>* out) {
  for (const auto& [name, stat] : metrics) {
    v1::Moments& m = (*out)[name];
    m.set_count(m.count() + stat.count());
    m.set_sum(m.sum() + stat.sum());
    m.set_sum_squares(m.sum_squares() + stat.sum_squares());
  }
}

}  // namespace

int DecisionBucket(int64_t micros) {
  if (micros < kExactBelow)
    return static_cast<int>(std::max<int64_t>(0, micros));
  int e = 63 - __builtin_clzll(static_cast<uint64_t>(micros));  // >= 4
  const int sub = static_cast<int>((micros >> (e - 3)) & (kSubBuckets - 1));
  return kExactBelow + (e - 4) * kSubBuckets + sub;
}

int64_t DecisionBucketLow(int bucket) {
  if (bucket < kExactBelow) return bucket;
  const int e = (bucket - kExactBelow) / kSubBuckets + 4;
  const int sub = (bucket - kExactBelow) % kSubBuckets;
  return (int64_t{1} << e) + (int64_t{sub} << (e - 3));
}

std::string EndingName(const AuditReport& report) {
  switch (report.verdict) {
    case Verdict::kOk:
      return "finished";
    case Verdict::kAborted:
      return "aborted";
    case Verdict::kIncomplete:
      return "interrupted";
    default:
      return "unknown";
  }
}

v1::FileAudit ToFileAudit(const AuditReport& report) {
  v1::FileAudit out;
  out.set_file(report.file);
  out.set_verdict(std::string(VerdictName(report.verdict)));
  out.set_message(report.message);
  out.set_game(report.game);
  out.set_rounds(report.rounds);
  out.set_records(report.records);
  out.set_consistent_records(report.consistent_records);
  out.set_salvage_mode(report.salvage_mode);
  out.set_ending(EndingName(report));
  out.set_integrity(report.integrity);
  if (report.header_problem.has_value()) {
    *out.add_findings() = ToFinding(*report.header_problem);
  }
  if (report.discrepancy.has_value()) {
    *out.add_findings() = ToFinding(*report.discrepancy);
  }
  if (report.integrity_finding.has_value()) {
    v1::AuditFinding* f = out.add_findings();
    f->set_record_index(report.integrity_finding->record_index);
    f->set_byte_offset(report.integrity_finding->byte_offset);
    f->set_record_kind(report.integrity_finding->record_kind);
    f->set_field("integrity");
    f->set_explanation(report.integrity_finding->message);
  }
  if (!report.damage.empty()) {
    v1::AuditFinding* f = out.add_findings();
    // The damaged record would be the next one; past damage the count of
    // records lost is unknown.
    f->set_record_index(report.salvage_mode ? -1 : report.records);
    f->set_byte_offset(report.damage_offset);
    f->set_record_kind("framing");
    f->set_explanation(report.damage);
  }
  return out;
}

std::string PlayerKey(const v1::SeatSummary& seat) {
  std::string key = seat.player_name().empty()
                        ? absl::StrCat("seat", seat.seat())
                        : seat.player_name();
  if (!seat.player_version().empty()) {
    absl::StrAppend(&key, "@", seat.player_version());
  }
  return key;
}

SummaryBuilder::SummaryBuilder()
    : digest_(std::make_unique<crypto::Sha256Hasher>()) {}

void SummaryBuilder::Add(const v1::LogRecord& record) {
  const int seats = summary_.seats_size();
  auto seat_of = [&](int s) -> v1::SeatSummary* {
    return s >= 0 && s < seats ? summary_.mutable_seats(s) : nullptr;
  };
  switch (record.record_case()) {
    case v1::LogRecord::kHeader: {
      const v1::LogHeader& h = record.header();
      summary_.set_game(h.game());
      summary_.set_match_id(h.match_id());
      summary_.set_deal_set_id(h.deal_set_id());
      summary_.set_winner_team(-1);
      DigestPiece(*digest_, "game", h.game());
      // The parameters by name: a map's serialisation order is unspecified.
      std::map<std::string, std::string> params;
      for (const auto& [name, value] : h.params().values()) {
        params[name] = value.SerializeAsString();
      }
      for (const auto& [name, value] : params) {
        DigestPiece(*digest_, "param", name);
        DigestPiece(*digest_, "value", value);
      }
      for (const v1::SeatInfo& info : h.seats()) {
        v1::SeatSummary* s = summary_.add_seats();
        s->set_seat(info.seat());
        s->set_player_name(info.player_name());
        s->set_player_version(info.player_version());
        DigestPiece(*digest_, "seat", PlayerKey(*s));
      }
      hook_ = FindStatsHook(h.game());
      if (hook_ != nullptr) log_state_ = hook_->NewLogState();
      results_.records.push_back(record);
      results_.offsets.push_back(0);
      break;
    }
    case v1::LogRecord::kChance:
      DigestPiece(*digest_, "chance", record.chance().SerializeAsString());
      break;
    case v1::LogRecord::kAction: {
      const v1::ActionEvent& a = record.action();
      DigestPiece(*digest_, "action", absl::StrCat(a.seat()));
      if (a.has_engine_action()) {
        DigestPiece(*digest_, "engine", absl::StrCat(a.engine_action()));
      } else {
        DigestPiece(*digest_, "typed", a.action().SerializeAsString());
      }
      v1::SeatSummary* s = seat_of(record.action().seat());
      if (s == nullptr) break;
      s->set_decisions(s->decisions() + 1);
      if (record.action().by_referee()) {
        s->set_substitutions(s->substitutions() + 1);
        break;
      }
      const int64_t micros = record.action().time_taken_micros();
      s->set_own_decisions(s->own_decisions() + 1);
      s->set_decision_micros(s->decision_micros() + micros);
      s->set_max_decision_micros(std::max(s->max_decision_micros(), micros));
      ++(*s->mutable_decision_histogram())[DecisionBucket(micros)];
      break;
    }
    case v1::LogRecord::kRejected:
      if (v1::SeatSummary* s = seat_of(record.rejected().seat())) {
        s->set_rejected(s->rejected() + 1);
      }
      break;
    case v1::LogRecord::kRejectionsNotLogged:
      if (v1::SeatSummary* s = seat_of(record.rejections_not_logged().seat())) {
        s->set_rejected(s->rejected() + record.rejections_not_logged().count());
      }
      break;
    case v1::LogRecord::kFault:
      if (v1::SeatSummary* s = seat_of(record.fault().seat())) {
        if (record.fault().kind() == v1::FAULT_KIND_TIMEOUT) {
          s->set_timeouts(s->timeouts() + 1);
        }
        ++(*s->mutable_faults())[FaultReason(record.fault().kind())];
      }
      break;
    case v1::LogRecord::kForfeit:
      if (v1::SeatSummary* s = seat_of(record.forfeit().seat())) {
        s->set_forfeits(s->forfeits() + 1);
      }
      break;
    case v1::LogRecord::kRoundResult:
      if (hook_ != nullptr) {
        for (int i = 0; i < seats; ++i) {
          Metrics m;
          hook_->OnRoundResult(record.round_result(), i, m);
          AddMetrics(m, summary_.mutable_seats(i)->mutable_metrics());
        }
      }
      results_.records.push_back(record);
      results_.offsets.push_back(0);
      break;
    case v1::LogRecord::kFinalResult: {
      const v1::FinalResult& f = record.final_result();
      summary_.set_higher_score_is_better(f.higher_score_is_better());
      for (int i = 0; i < seats; ++i) {
        v1::SeatSummary* s = summary_.mutable_seats(i);
        if (i < f.scores_size()) s->set_score(f.scores(i));
        if (i < f.ranks_size()) s->set_rank(f.ranks(i));
        s->set_winner(std::find(f.winners().begin(), f.winners().end(), i) !=
                      f.winners().end());
        if (hook_ != nullptr) {
          Metrics m;
          hook_->OnFinalResult(f, i, m);
          AddMetrics(m, s->mutable_metrics());
        }
      }
      // In a partnership game the winners are one team (none on a draw).
      const GameTraits& traits = ::cardref::TraitsOf(summary_.game());
      if (traits.teams && f.winners_size() > 0 && seats > 0) {
        const std::vector<int> teams = traits.teams(seats);
        if (f.winners(0) < seats) {
          summary_.set_winner_team(teams[f.winners(0)]);
        }
      }
      results_.records.push_back(record);
      results_.offsets.push_back(0);
      break;
    }
    default:
      break;
  }
}

bool SummaryBuilder::wants_actions() const {
  return hook_ != nullptr && hook_->wants_actions();
}

void SummaryBuilder::AddActionContext(const v1::Observation& before,
                                      const v1::ActionEvent& action) {
  if (!wants_actions() || action.seat() < 0 ||
      action.seat() >= summary_.seats_size()) {
    return;
  }
  Metrics m;
  hook_->OnAction(before, action, m);
  AddMetrics(m, summary_.mutable_seats(action.seat())->mutable_metrics());
}

void SummaryBuilder::AddView(const v1::Observation& view,
                             const v1::LogRecord& record) {
  if (!wants_views()) return;
  std::vector<Metrics> seats(static_cast<size_t>(summary_.seats_size()));
  hook_->OnView(view, record, *log_state_, seats);
  for (size_t s = 0; s < seats.size(); ++s) {
    AddMetrics(seats[s],
               summary_.mutable_seats(static_cast<int>(s))->mutable_metrics());
  }
}

v1::GameSummary SummaryBuilder::Finish(const AuditReport& report) {
  v1::GameSummary out = std::move(summary_);
  *out.mutable_audit() = ToFileAudit(report);
  if (!report.ok()) {
    out.clear_seats();
    out.clear_extra_rows();
    return out;
  }
  out.set_game_digest(digest_->Finish());
  if (hook_ != nullptr) {
    ExtraRows extra;
    hook_->OnLog(results_, extra);
    for (const auto& [table, rows] : extra) {
      for (const auto& [label, metrics] : rows) {
        v1::ExtraRowSummary* row = out.add_extra_rows();
        row->set_table(table);
        row->set_label(label);
        AddMetrics(metrics, row->mutable_metrics());
      }
    }
  }
  return out;
}

v1::GameSummary SummarizeFile(const std::string& path,
                              const AuditOptions& options,
                              const GameRegistry& registry, bool statistics) {
  SummaryBuilder builder;
  const AuditReport report = AuditFile(
      path, options, registry,
      [&builder, statistics](absl::string_view, const v1::LogRecord& record,
                             uint64_t, bool salvaged, const LogAudit& audit) {
        // Statistics only from records that replayed so far; the summary
        // keeps them only if the whole log audits OK.
        if (salvaged || !(audit.records() == 0 || audit.consistent())) return;
        const bool action =
            record.has_action() && audit.state() != nullptr &&
            audit.state()->current_seat() == record.action().seat();
        const bool round_end =
            record.has_round_result() && audit.state() != nullptr;
        if (statistics &&
            ((action && (builder.wants_actions() || builder.wants_views())) ||
             (round_end && builder.wants_views()))) {
          v1::Observation view;
          codec::FillObservation(*audit.state(),
                                 action ? record.action().seat() : 0, &view);
          // Format 3 stores the engine action only; the hooks read the
          // typed form.
          v1::LogRecord derived;
          const v1::LogRecord* shown = &record;
          if (action && record.action().has_engine_action() &&
              !record.action().has_action()) {
            if (audit.state()->IsLegalAction(
                    record.action().engine_action())) {
              derived = record;
              *derived.mutable_action()->mutable_action() = codec::EncodeAction(
                  *audit.state(), record.action().engine_action());
              shown = &derived;
            }
          }
          if (action) builder.AddActionContext(view, shown->action());
          builder.AddView(view, *shown);
        }
        builder.Add(record);
      });
  v1::GameSummary summary = builder.Finish(report);
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec) summary.mutable_audit()->set_file_size(size);
  return summary;
}

}  // namespace cardref::analyzer
