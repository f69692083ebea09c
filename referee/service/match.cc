#include "referee/service/match.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "referee/base/deal_stream.h"
#include "referee/base/random_bytes.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"
#include "referee/codec/codec.h"
#include "referee/service/fault_policy.h"

namespace cardref::service {

namespace {

v1::ChanceKind ToProto(ChanceKind kind) {
  switch (kind) {
    case ChanceKind::kDeal:
      return v1::CHANCE_KIND_DEAL;
    case ChanceKind::kReshuffle:
      return v1::CHANCE_KIND_RESHUFFLE;
    case ChanceKind::kTrumpDeck:
      return v1::CHANCE_KIND_TRUMP_DECK;
  }
  return v1::CHANCE_KIND_UNSPECIFIED;
}

std::vector<absl::Duration> Durations(const std::vector<int64_t>& millis) {
  std::vector<absl::Duration> out;
  out.reserve(millis.size());
  for (int64_t ms : millis) out.push_back(absl::Milliseconds(ms));
  return out;
}

// The seats' latency allowances into `clock`: one entry per seat when any
// seat has one (and the match has a limit), none otherwise.
void SetAllowances(const MatchOptions& options, v1::ClockPolicy* clock) {
  if (options.decision_time_limit_millis <= 0) return;
  bool any = false;
  for (int64_t ms : options.latency_allowance_millis) any |= ms > 0;
  if (!any) return;
  for (int64_t ms : options.latency_allowance_millis) {
    clock->add_latency_allowance_millis(std::max<int64_t>(ms, 0));
  }
}

}  // namespace

std::string LegacySeed(uint64_t dealing_seed) {
  std::string seed(kDealSeedSize, '\0');
  for (int i = 0; i < 8; ++i) {
    seed[i] = static_cast<char>((dealing_seed >> (8 * i)) & 0xff);
  }
  return seed;
}

absl::StatusOr<std::unique_ptr<Match>> Match::Create(
    std::unique_ptr<Game> game, MatchOptions options) {
  if (options.seed.empty() && options.dealing_seed != 0) {
    options.seed = LegacySeed(options.dealing_seed);
  } else if (options.seed.empty()) {
    ASSIGN_OR_RETURN(options.seed, crypto::RandomBytes(kDealSeedSize));
  } else if (options.seed.size() != kDealSeedSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("the dealing seed must be ", kDealSeedSize,
                     " bytes, got ", options.seed.size()));
  }
  if (!options.log_path_created) {
    if (absl::Status st = record::CreateEmptyFile(options.log_path);
        !st.ok()) {
      return absl::UnavailableError(
          absl::StrCat("cannot create the match log: ", st.message()));
    }
  }
  std::unique_ptr<Match> match(new Match(std::move(game), std::move(options)));
  const std::vector<std::string>& invited = match->options_.invited_names;
  {
    absl::MutexLock lock(&match->mu_);
    if (match->options_.listener != nullptr) {
      match->options_.listener->StatusChanged(
          match->seed_commitment_, match->options_.deal_set_id,
          v1::MATCH_STATUS_UNSPECIFIED, match->status_);
    }
    const int64_t join_ms = match->options_.fault_policy.join_deadline_millis();
    if (join_ms > 0) {
      match->SetDeadlineLocked(match->created_ + absl::Milliseconds(join_ms));
    }
  }
  if (!invited.empty()) {
    absl::MutexLock lock(&match->mu_);
    RETURN_IF_ERROR(match->seats_.Invite(invited));
  }
  return match;
}

Match::Match(std::unique_ptr<Game> game, MatchOptions options)
    : game_(std::move(game)),
      options_(std::move(options)),
      seed_commitment_(crypto::Sha256(options_.seed)),
      state_(game_->NewInitialState()),
      reporter_(options_.match_id, std::string(game_->id()), options_.metrics,
                options_.ops_log),
      seats_(options_.match_id, game_->num_seats()),
      submissions_(game_->num_seats()),
      journal_(game_->num_seats(),
               JournalOptions{options_.log_path, options_.log_sync,
                              options_.open_log, options_.signing_key,
                              options_.max_rejections_logged_per_decision},
               &reporter_),
      faults_(game_->num_seats(), options_.fault_policy),
      created_(options_.clock->Now()),
      clock_(game_->num_seats(),
             absl::Milliseconds(options_.decision_time_limit_millis),
             absl::Milliseconds(options_.time_bank_millis),
             Durations(options_.latency_allowance_millis)) {
  absl::MutexLock lock(&mu_);
  published_.Publish(ProgressLocked());
}

Match::~Match() {
  absl::MutexLock lock(&mu_);
  if (status_ == v1::MATCH_STATUS_IN_PROGRESS) {
    AbortLocked("referee shut down during the match",  // closes the log
                v1::ABORT_CAUSE_REFEREE_SHUTDOWN);
  }
  journal_.Close().IgnoreError();  // best effort
  ReportStatusLocked();
}

absl::StatusOr<JoinResult> Match::Join(std::optional<int> seat,
                                       const std::string& player_name,
                                       const std::string& player_version,
                                       const std::string& ticket,
                                       const std::string& retry_key,
                                       const NameCheck& check) {
  absl::StatusOr<JoinResult> result;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (status_ != v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", id(), " has no free seat: it ",
          status_ == v1::MATCH_STATUS_CANCELLED ? "was cancelled"
                                                : "has started"));
    }
    result = seats_.Take(seat, player_name, player_version, ticket, retry_key,
                         check);
    if (!result.ok()) return result;
    ++version_;
    if (seats_.AllJoined()) {
      if (absl::Status st = StartLocked(); !st.ok()) {
        AbortLocked(std::string(st.message()),
                    v1::ABORT_CAUSE_LOG_WRITE_FAILED);
      }
    }
  }
  NotifyWatchers();
  return result;
}

void Match::CloseSeat(int seat, const std::string& reason) {
  {
    absl::MutexLock lock(&mu_);
    seats_.Close(seat, reason);
  }
  NotifyWatchers();
}

absl::StatusOr<JoinResult> Match::Rejoin(const std::string& retry_key) const {
  absl::MutexLock lock(&mu_);
  return seats_.Rejoin(retry_key);
}

absl::Status Match::StartLocked() {
  RETURN_IF_ERROR(WriteHeaderLocked());
  SetStatusLocked(v1::MATCH_STATUS_IN_PROGRESS);
  // Seats not joined by the join deadline (JoinDeadlineLocked): the header
  // shows them with no player name.
  for (int s = 0; s < seats_.size(); ++s) {
    if (seats_[s].joined) continue;
    if (EffectiveAction(options_.fault_policy) == v1::FAULT_ACTION_FORFEIT) {
      RETURN_IF_ERROR(ForfeitLocked(s, v1::FORFEIT_REASON_NOT_JOINED,
                                    "not joined by the join deadline"));
    } else {
      faults_.MakeAbsent(s);
    }
  }
  return AdvanceLocked();
}

void Match::SetStatusLocked(v1::MatchStatus status) {
  const v1::MatchStatus from = status_;
  status_ = status;
  if (options_.listener != nullptr && from != status) {
    options_.listener->StatusChanged(seed_commitment_, options_.deal_set_id,
                                     from, status);
    if (from == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      options_.listener->JoinsClosed(options_.match_id);
    }
  }
}

void Match::SetDeadlineLocked(absl::Time deadline) {
  deadline_ = deadline;
  if (options_.listener == nullptr) return;
  if (OverLocked()) {
    options_.listener->Ended(options_.match_id);
  } else {
    options_.listener->DeadlineChanged(options_.match_id, deadline);
  }
}

absl::Status Match::WriteHeaderLocked() {
  RETURN_IF_ERROR(journal_.Open());
  v1::LogRecord record;
  v1::LogHeader* header = record.mutable_header();
  header->set_format_version(record::kLogFormatVersion);
  header->set_game(std::string(game_->id()));
  *header->mutable_params() = codec::ParamsToProto(game_->params());
  header->set_rules_version(game_->rules_version());
  for (int s = 0; s < seats_.size(); ++s) {
    v1::SeatInfo* info = header->add_seats();
    info->set_seat(s);
    info->set_player_name(seats_[s].player_name);
    info->set_player_version(seats_[s].player_version);
  }
  header->set_created_unix_micros(absl::ToUnixMicros(absl::Now()));
  header->set_match_id(options_.match_id);
  header->set_deal_set_id(options_.deal_set_id);
  header->set_referee_version(options_.referee_version);
  header->set_decision_time_limit_millis(options_.decision_time_limit_millis);
  header->set_seed_commitment(seed_commitment_);
  header->set_deal_algorithm(kDealAlgorithm);
  header->mutable_clock()->set_decision_limit_millis(
      options_.decision_time_limit_millis);
  header->mutable_clock()->set_bank_millis(
      options_.decision_time_limit_millis > 0 ? options_.time_bank_millis : 0);
  SetAllowances(options_, header->mutable_clock());
  *header->mutable_fault_policy() = options_.fault_policy;
  return journal_.Write(std::move(record));
}

void Match::JoinDeadlineLocked() {
  const int joined = seats_.joined();
  const v1::FaultAction action = EffectiveAction(options_.fault_policy);
  const std::string deadline = absl::StrCat(
      "the join deadline (", options_.fault_policy.join_deadline_millis(),
      " ms) passed with ", joined, " of ", seats_.size(), " seats joined");
  if (joined == 0 || action == v1::FAULT_ACTION_ABORT) {
    // The header, then the abort notice: the log shows who had joined.
    absl::Status st = WriteHeaderLocked();
    if (st.ok()) {
      AbortLocked(absl::StrCat(deadline,
                               joined == 0 ? "" : " (fault policy: abort)"),
                  v1::ABORT_CAUSE_NOT_JOINED);
    } else {
      AbortLocked(std::string(st.message()), v1::ABORT_CAUSE_LOG_WRITE_FAILED);
    }
    return;
  }
  ++version_;
  if (absl::Status st = StartLocked(); !st.ok()) {
    AbortLocked(std::string(st.message()), v1::ABORT_CAUSE_LOG_WRITE_FAILED);
  }
}

absl::Status Match::DrawChanceLocked() {
  std::array<Card, 64> cards;
  for (;;) {
    // A round's result is logged right after the event that completed it,
    // before the next round's deal.
    while (rounds_logged_ < state_->rounds_completed()) {
      ++rounds_logged_;
      v1::LogRecord record;
      *record.mutable_round_result() =
          codec::MakeRoundResult(*state_, rounds_logged_);
      RETURN_IF_ERROR(journal_.Write(std::move(record)));
    }
    if (!state_->IsChance()) break;
    ChanceKind kind = state_->chance_kind();
    int n = state_->ChanceCards(absl::MakeSpan(cards));
    absl::Span<Card> order(cards.data(), n);
    // The label counts rounds by their logged results, as an auditor
    // reading the log does (deal_stream.h).
    if (chance_round_ != rounds_logged_) {
      chance_round_ = rounds_logged_;
      chance_ordinals_.clear();
    }
    ChanceLabel label;
    label.kind = static_cast<uint32_t>(ToProto(kind));
    label.round = static_cast<uint32_t>(chance_round_);
    label.ordinal = chance_ordinals_[label.kind]++;
    DeriveDealOrder(options_.seed, label, order);
    v1::LogRecord record;
    record.mutable_chance()->set_kind(ToProto(kind));
    for (Card c : order) record.mutable_chance()->add_cards(c);
    // Logged before it takes effect: the log must be able to explain
    // everything that follows.
    RETURN_IF_ERROR(journal_.Write(std::move(record)));
    if (absl::Status st = state_->ApplyChance(kind, order); !st.ok()) {
      return absl::InternalError(
          absl::StrCat("engine refused its own chance event: ", st.message()));
    }
    ++version_;
  }
  return absl::OkStatus();
}

absl::Status Match::AdvanceLocked() {
  for (;;) {
    RETURN_IF_ERROR(DrawChanceLocked());
    if (state_->IsTerminal()) {
      result_ = FinalResultLocked();
      RETURN_IF_ERROR(journal_.Write(SeedRevealRecord()));
      v1::LogRecord record;
      *record.mutable_final_result() = *result_;
      RETURN_IF_ERROR(journal_.Write(std::move(record)));
      // Synced (file and directory) and closed before anyone is told.
      absl::Status closed = journal_.Close();
      // The final record reached the OS: the game is over and its log whole,
      // so a failed sync is reported, not turned into an abort.
      if (!closed.ok()) {
        reporter_.Problem("log_sync_failed", std::string(closed.message()));
      }
      SetStatusLocked(v1::MATCH_STATUS_FINISHED);
      SetDeadlineLocked(absl::InfiniteFuture());
      return absl::OkStatus();
    }
    // A decision is pending from now on; its clock starts when the seat is
    // shown it (SeenLocked: a unary answer built, a stream's message
    // written), or after a grace if it never looks.
    const int seat = state_->current_seat();
    const absl::Time now = options_.clock->Now();
    clock_.StartUnseen(seat, now, clock_.unseen_grace());
    RearmDeadlineLocked();
    faults_.NewDecision(seat);
    // Seats that cannot play now are played for at once, without waiting.
    const auto [kind, detail] =
        faults_.CannotPlay(seat, seats_[seat].joined, now);
    if (kind == v1::FAULT_KIND_UNSPECIFIED) return absl::OkStatus();
    ASSIGN_OR_RETURN(bool goes_on, SettleFaultLocked(kind, detail, now));
    if (!goes_on) return absl::OkStatus();  // aborted by the policy
  }
}

bool Match::OverLocked() const {
  return status_ == v1::MATCH_STATUS_FINISHED ||
         status_ == v1::MATCH_STATUS_ABORTED ||
         status_ == v1::MATCH_STATUS_CANCELLED;
}

v1::LogRecord Match::SeedRevealRecord() const {
  v1::LogRecord record;
  record.mutable_seed_reveal()->set_seed(options_.seed);
  return record;
}

void Match::AbortLocked(const std::string& reason, v1::AbortCause cause) {
  if (journal_.failed()) cause = v1::ABORT_CAUSE_LOG_WRITE_FAILED;
  SetStatusLocked(v1::MATCH_STATUS_ABORTED);
  end_reason_ = reason;
  abort_cause_ = cause;
  ++version_;
  v1::LogRecord aborted;
  aborted.mutable_aborted()->set_reason(reason);
  aborted.mutable_aborted()->set_cause(cause);
  std::vector<v1::LogRecord> closing;
  closing.push_back(SeedRevealRecord());
  closing.push_back(std::move(aborted));
  journal_.CloseAbandoned(std::move(closing));
  SetDeadlineLocked(absl::InfiniteFuture());
}

void Match::ShutDown(const std::string& reason) {
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      // The header first, as at a join deadline: the log shows who joined.
      if (absl::Status st = WriteHeaderLocked(); !st.ok()) {
        AbortLocked(std::string(st.message()));
      } else {
        AbortLocked(reason, v1::ABORT_CAUSE_REFEREE_SHUTDOWN);
      }
    } else if (status_ == v1::MATCH_STATUS_IN_PROGRESS) {
      AbortLocked(reason, v1::ABORT_CAUSE_REFEREE_SHUTDOWN);
    } else {
      return;
    }
  }
  NotifyWatchers();
}

void Match::ReportStatusLocked() {
  if (!reporter_.Changes(status_)) return;
  MatchReporter::Snapshot now;
  now.status = status_;
  for (int s = 0; s < seats_.size(); ++s) {
    now.players.push_back(seats_[s].player_name);
  }
  now.end_reason = end_reason_;
  now.cause = abort_cause_;
  if (result_.has_value()) now.result = &*result_;
  reporter_.Status(now);
}

std::vector<v1::SeatTicket> Match::Tickets() const {
  absl::MutexLock lock(&mu_);
  return seats_.Tickets();
}

absl::Status Match::Cancel(const std::string& reason) {
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (status_ != v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", id(), " is ", v1::MatchStatus_Name(status_),
          ": only a match waiting for players can be cancelled",
          status_ == v1::MATCH_STATUS_IN_PROGRESS ? " (use AbortMatch)" : ""));
    }
    SetStatusLocked(v1::MATCH_STATUS_CANCELLED);
    end_reason_ = absl::StrCat("cancelled by the organiser",
                               reason.empty() ? "" : ": ", reason);
    ++version_;
    // Nothing was played or written: the log file is empty. Remove it, so
    // the log directory holds only real games.
    journal_.Close().IgnoreError();
    std::error_code ignored;
    std::filesystem::remove(options_.log_path, ignored);
    SetDeadlineLocked(absl::InfiniteFuture());
  }
  NotifyWatchers();
  return absl::OkStatus();
}

absl::Status Match::Abort(const std::string& reason) {
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (status_ != v1::MATCH_STATUS_IN_PROGRESS) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", id(), " is ", v1::MatchStatus_Name(status_),
          ": only a match in progress can be aborted",
          status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS
              ? " (use CancelMatch)"
              : ""));
    }
    AbortLocked(absl::StrCat("aborted by the organiser",
                             reason.empty() ? "" : ": ", reason),
                v1::ABORT_CAUSE_ORGANISER);
  }
  NotifyWatchers();
  return absl::OkStatus();
}

EventBatch Match::EventsAfter(uint64_t after_index, Audience audience,
                              uint32_t delay_decisions,
                              size_t max_events) const {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  return journal_.EventsAfter(after_index, audience, delay_decisions,
                              max_events, OverLocked());
}

absl::Time Match::deadline() const {
  absl::MutexLock lock(&mu_);
  return deadline_;
}

Match::Progress Match::progress() const {
  absl::MutexLock lock(&mu_);
  return ProgressLocked();
}

Match::Progress Match::ProgressLocked() const {
  Progress p;
  p.version = version_;
  p.status = status_;
  p.seat_to_act = status_ == v1::MATCH_STATUS_IN_PROGRESS
                      ? state_->current_seat()
                      : -1;
  p.absent_seats = faults_.AbsentMask();
  return p;
}

v1::MatchStatus Match::status() const {
  absl::MutexLock lock(&mu_);
  return status_;
}

bool Match::HasFreeSeat() const {
  absl::MutexLock lock(&mu_);
  return status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS &&
         !seats_.AllJoined();
}

v1::MatchInfo Match::Info(bool for_organiser, bool withhold_seed) const {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  v1::MatchInfo info;
  info.set_match_id(options_.match_id);
  info.set_game(std::string(game_->id()));
  *info.mutable_params() = codec::ParamsToProto(game_->params());
  info.set_status(status_);
  info.set_num_seats(seats_.size());
  for (int s = 0; s < seats_.size(); ++s) {
    if (!seats_[s].joined) continue;
    v1::SeatInfo* seat = info.add_seats();
    seat->set_seat(s);
    seat->set_player_name(seats_[s].player_name);
    seat->set_player_version(seats_[s].player_version);
  }
  if (result_.has_value()) *info.mutable_result() = *result_;
  if (for_organiser) info.set_log_path(options_.log_path);
  info.set_decision_time_limit_millis(options_.decision_time_limit_millis);
  info.set_end_reason(end_reason_);
  info.set_open(options_.open);
  info.set_deal_set_id(options_.deal_set_id);
  info.set_seed_commitment(seed_commitment_);
  info.mutable_clock()->set_decision_limit_millis(
      options_.decision_time_limit_millis);
  info.mutable_clock()->set_bank_millis(
      options_.decision_time_limit_millis > 0 ? options_.time_bank_millis : 0);
  SetAllowances(options_, info.mutable_clock());
  *info.mutable_fault_policy() = options_.fault_policy;
  for (int s : faults_.ForfeitedSeats()) info.add_forfeited_seats(s);
  for (int s = 0; s < seats_.size(); ++s) {
    *info.add_seat_faults() = faults_.Tally(s);
  }
  if (OverLocked() && !withhold_seed) info.set_seed(options_.seed);
  return info;
}

int Match::AddWatcher(std::function<void()> on_change) {
  {
    // The watcher's first read is of now; later ones follow its calls.
    absl::MutexLock lock(&mu_);
    published_.Publish(ProgressLocked());
  }
  absl::MutexLock lock(&watch_mu_);
  int id = next_watcher_++;
  watchers_[id] = std::move(on_change);
  return id;
}

void Match::RemoveWatcher(int id) {
  absl::MutexLock lock(&watch_mu_);
  watchers_.erase(id);
}

void Match::NotifyWatchers() {
  {
    // Every change ends here, so every status change is reported, and
    // the watchers read the progress after it.
    absl::MutexLock lock(&mu_);
    ReportStatusLocked();
    published_.Publish(ProgressLocked());
  }
  absl::MutexLock lock(&watch_mu_);
  for (auto& [id, on_change] : watchers_) on_change();
}

}  // namespace cardref::service
