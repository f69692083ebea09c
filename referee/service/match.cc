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
#include "referee/service/match_events.h"
#include "referee/service/text_limits.h"
#include "referee/service/token.h"

namespace cardref::service {

namespace {

// An action no game could accept: too large to log, or a notation with
// characters no notation has.
absl::Status CheckSubmittedAction(const v1::Action& action, size_t max_bytes) {
  const size_t bytes = action.ByteSizeLong();
  if (bytes > max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'action' is ", bytes, " bytes encoded; this referee accepts at most ",
        max_bytes, " (an action is a few dozen bytes: docs/limits.md)"));
  }
  return CheckText("action.notation", action.notation(), kMaxNotationChars);
}

// A rejection's message as logged: its start, cut at a UTF-8 boundary.
std::string CapMessage(absl::string_view message) {
  constexpr size_t kMaxLoggedMessageBytes = 256;
  if (message.size() <= kMaxLoggedMessageBytes) return std::string(message);
  size_t cut = kMaxLoggedMessageBytes;
  while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xc0) == 0x80) {
    --cut;
  }
  return absl::StrCat(message.substr(0, cut), "...");
}

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
      match->options_.listener->StatusChanged(match->seed_commitment_,
                                              v1::MATCH_STATUS_UNSPECIFIED,
                                              match->status_);
    }
    const int64_t join_ms = match->options_.fault_policy.join_deadline_millis();
    if (join_ms > 0) {
      match->SetDeadlineLocked(match->created_ + absl::Milliseconds(join_ms));
    }
  }
  if (!invited.empty()) {
    absl::MutexLock lock(&match->mu_);
    for (size_t s = 0; s < match->seats_.size(); ++s) {
      ASSIGN_OR_RETURN(match->seats_[s].ticket, NewSecretToken());
      match->seats_[s].invited_name = invited[s];
    }
  }
  return match;
}

Match::Match(std::unique_ptr<Game> game, MatchOptions options)
    : game_(std::move(game)),
      options_(std::move(options)),
      seed_commitment_(crypto::Sha256(options_.seed)),
      state_(game_->NewInitialState()),
      seats_(game_->num_seats()),
      created_(options_.clock->Now()),
      clock_(game_->num_seats(),
             absl::Milliseconds(options_.decision_time_limit_millis),
             absl::Milliseconds(options_.time_bank_millis)),
      reporter_(options_.match_id, std::string(game_->id()), options_.metrics,
                options_.ops_log) {}

Match::~Match() {
  absl::MutexLock lock(&mu_);
  if (status_ == v1::MATCH_STATUS_IN_PROGRESS) {
    AbortLocked("referee shut down during the match",  // closes the log
                v1::ABORT_CAUSE_REFEREE_SHUTDOWN);
  }
  if (log_ != nullptr) log_->Close().IgnoreError();  // best effort
  ReportStatusLocked();
}

absl::StatusOr<JoinResult> Match::Join(std::optional<int> seat,
                                       const std::string& player_name,
                                       const std::string& player_version,
                                       const std::string& ticket,
                                       const std::string& retry_key) {
  JoinResult result;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (status_ != v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", id(), " has no free seat: it ",
          status_ == v1::MATCH_STATUS_CANCELLED ? "was cancelled"
                                                : "has started"));
    }
    const int n = static_cast<int>(seats_.size());
    if (seat.has_value() && (*seat < 0 || *seat >= n)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat ", *seat, " does not exist: this match has seats 0..", n - 1));
    }
    const bool invited = !options_.invited_names.empty();
    if (invited) {
      if (ticket.empty()) {
        return absl::PermissionDeniedError(absl::StrCat(
            "match ", id(),
            " is by invitation: join with the ticket the organiser gave you "
            "(JoinMatchRequest.ticket)"));
      }
      int ticket_seat = -1;
      for (int s = 0; s < n; ++s) {  // compares every ticket, in constant time
        if (TokensEqual(seats_[s].ticket, ticket)) ticket_seat = s;
      }
      if (ticket_seat < 0) {
        return absl::PermissionDeniedError(absl::StrCat(
            "the ticket is not a ticket of match ", id()));
      }
      if (seat.has_value() && *seat != ticket_seat) {
        return absl::PermissionDeniedError(absl::StrCat(
            "this ticket is for seat ", ticket_seat, ", not seat ", *seat));
      }
      const Seat& wanted = seats_[ticket_seat];
      if (wanted.joined) {
        return absl::PermissionDeniedError(absl::StrCat(
            "this ticket was already used: seat ", ticket_seat,
            " is taken (tickets are single-use)"));
      }
      if (!player_name.empty() && player_name != wanted.invited_name) {
        return absl::PermissionDeniedError(absl::StrCat(
            "seat ", ticket_seat, " is invited as '",
            QuotePrefix(wanted.invited_name),
            "': leave player_name empty or send exactly that name"));
      }
      result.seat = ticket_seat;
    } else if (!ticket.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "match ", id(), " is open and takes no ticket; leave 'ticket' empty"));
    } else if (seat.has_value()) {
      if (seats_[*seat].joined) {
        return absl::AlreadyExistsError(
            absl::StrCat("seat ", *seat, " of match ", id(), " is taken"));
      }
      result.seat = *seat;
    } else {
      for (int s = 0; s < n && result.seat < 0; ++s) {
        if (!seats_[s].joined) result.seat = s;
      }
    }
    // Drawn first: if the generator fails, the seat stays free.
    absl::StatusOr<std::string> token = NewSecretToken();
    if (!token.ok()) return token.status();
    Seat& taken = seats_[result.seat];
    taken.joined = true;
    taken.token = *std::move(token);
    taken.player_name = invited ? taken.invited_name
                        : player_name.empty()
                            ? absl::StrCat("seat", result.seat)
                            : player_name;
    taken.player_version = player_version;
    taken.retry_key = retry_key;
    result.token = taken.token;
    ++version_;
    bool all_joined = true;
    for (const Seat& s : seats_) all_joined &= s.joined;
    if (all_joined) {
      if (absl::Status st = StartLocked(); !st.ok()) {
        AbortLocked(std::string(st.message()),
                    v1::ABORT_CAUSE_LOG_WRITE_FAILED);
      }
    }
  }
  NotifyWatchers();
  return result;
}

absl::StatusOr<JoinResult> Match::Rejoin(const std::string& retry_key) const {
  absl::MutexLock lock(&mu_);
  JoinResult result;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    // Every seat compared, in constant time: the key is a credential.
    if (!retry_key.empty() && TokensEqual(seats_[s].retry_key, retry_key)) {
      result.seat = s;
      result.token = seats_[s].token;
    }
  }
  if (result.seat < 0) {
    return absl::NotFoundError(absl::StrCat(
        "no seat of match ", id(), " was joined with this retry_key"));
  }
  return result;
}

absl::Status Match::StartLocked() {
  RETURN_IF_ERROR(WriteHeaderLocked());
  SetStatusLocked(v1::MATCH_STATUS_IN_PROGRESS);
  // Seats not joined by the join deadline (JoinDeadlineLocked): the header
  // shows them with no player name.
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (seats_[s].joined) continue;
    if (EffectiveAction(options_.fault_policy) == v1::FAULT_ACTION_FORFEIT) {
      RETURN_IF_ERROR(ForfeitLocked(s, v1::FORFEIT_REASON_NOT_JOINED,
                                    "not joined by the join deadline"));
    } else {
      seats_[s].absent = true;
    }
  }
  return AdvanceLocked();
}

absl::Status Match::OpenLogLocked() {
  if (log_ != nullptr) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<record::WritableSink>> sink =
      options_.open_log ? options_.open_log(options_.log_path)
                        : record::OpenAppendSink(options_.log_path);
  if (!sink.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot open the match log: ", sink.status().message()));
  }
  log_ = std::make_unique<record::GameLogWriter>(std::move(*sink),
                                                 options_.signing_key);
  log_->set_sync_policy(options_.log_sync);
  return absl::OkStatus();
}

void Match::SetStatusLocked(v1::MatchStatus status) {
  const v1::MatchStatus from = status_;
  status_ = status;
  if (options_.listener != nullptr && from != status) {
    options_.listener->StatusChanged(seed_commitment_, from, status);
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
  RETURN_IF_ERROR(OpenLogLocked());
  v1::LogRecord record;
  v1::LogHeader* header = record.mutable_header();
  header->set_format_version(record::kLogFormatVersion);
  header->set_game(std::string(game_->id()));
  *header->mutable_params() = codec::ParamsToProto(game_->params());
  header->set_rules_version(game_->rules_version());
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
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
  *header->mutable_fault_policy() = options_.fault_policy;
  return LogLocked(std::move(record));
}

void Match::JoinDeadlineLocked() {
  int joined = 0;
  for (const Seat& s : seats_) joined += s.joined ? 1 : 0;
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
      RETURN_IF_ERROR(LogLocked(std::move(record)));
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
    RETURN_IF_ERROR(LogLocked(std::move(record)));
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
      RETURN_IF_ERROR(LogLocked(SeedRevealRecord()));
      v1::LogRecord record;
      *record.mutable_final_result() = *result_;
      RETURN_IF_ERROR(LogLocked(std::move(record)));
      // Synced (file and directory) and closed before anyone is told.
      absl::Status closed = log_->Close();
      log_.reset();
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
    Seat& to_act = seats_[seat];
    const absl::Time now = options_.clock->Now();
    clock_.StartUnseen(seat, now, clock_.unseen_grace());
    RearmDeadlineLocked();
    to_act.rejections = 0;
    // Seats that cannot play now are played for at once, without waiting.
    v1::FaultKind kind = v1::FAULT_KIND_UNSPECIFIED;
    std::string detail;
    if (to_act.forfeited) {
      kind = v1::FAULT_KIND_FORFEITED;
      detail = "the seat has forfeited";
    } else if (to_act.absent) {
      kind = v1::FAULT_KIND_ABSENT;
      detail = to_act.joined ? "the seat is absent: it timed out too often"
                             : "the seat never joined";
    } else if (now >= DisconnectDeadlineLocked()) {
      kind = v1::FAULT_KIND_DISCONNECTED;
      detail = "the seat's observation stream is closed";
    }
    if (kind == v1::FAULT_KIND_UNSPECIFIED) return absl::OkStatus();
    ASSIGN_OR_RETURN(bool goes_on, SettleFaultLocked(kind, detail, now));
    if (!goes_on) return absl::OkStatus();  // aborted by the policy
  }
}

absl::Status Match::LogLocked(v1::LogRecord record) {
  if (log_ == nullptr) {
    return absl::FailedPreconditionError("the match log is closed");
  }
  absl::Status st = WriteAndJournalLocked(std::move(record));
  if (!st.ok()) {
    log_failed_ = true;
    return absl::UnavailableError(
        absl::StrCat("cannot write the match log: ", st.message()));
  }
  return absl::OkStatus();
}

absl::Status Match::WriteAndJournalLocked(v1::LogRecord record) {
  if (!record.has_rejected()) RETURN_IF_ERROR(FlushUnloggedRejectionsLocked());
  return WriteOneLocked(std::move(record));
}

absl::Status Match::FlushUnloggedRejectionsLocked() {
  for (size_t s = 0; s < seats_.size(); ++s) {
    Seat& seat = seats_[s];
    seat.rejections_logged = 0;
    if (seat.rejections_unlogged == 0) continue;
    v1::LogRecord record;
    v1::RejectionsNotLogged* dropped = record.mutable_rejections_not_logged();
    dropped->set_seat(static_cast<int>(s));
    dropped->set_decision_version(seat.unlogged_version);
    dropped->set_count(seat.rejections_unlogged);
    seat.rejections_unlogged = 0;
    RETURN_IF_ERROR(WriteOneLocked(std::move(record)));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::SubmitActionResponse> Match::SequenceReusedLocked(
    const Seat& me, const v1::SubmitActionRequest& request,
    const Seat::SequenceUse& first) const {
  const bool same_submission =
      first.decision_version == request.decision_version() &&
      first.action == request.action().SerializeAsString();
  if (same_submission && request.sequence() == me.last_sequence) {
    return me.last_response;  // an idempotent retry
  }
  return absl::AlreadyExistsError(absl::StrCat(
      "sequence ", request.sequence(), " was first used for '",
      QuotePrefix(first.notation), "', accepted for the decision at version ",
      first.version,
      same_submission
          ? "; only the answer to the seat's last submission is kept"
          : "; give every new submission a new sequence number (0 for none)"));
}

absl::Status Match::WriteOneLocked(v1::LogRecord record) {
  v1::LogRecord written;  // as the log holds it: chained, maybe signed
  const uint64_t bytes_before = log_->bytes_written();
  RETURN_IF_ERROR(log_->Write(std::move(record), &written));
  reporter_.Written(written, log_->bytes_written() - bytes_before);
  const uint32_t actions_before =
      actions_through_.empty() ? 0 : actions_through_.back();
  actions_through_.push_back(actions_before + (written.has_action() ? 1 : 0));
  journal_.push_back(std::move(written));
  return absl::OkStatus();
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
  if (log_failed_) cause = v1::ABORT_CAUSE_LOG_WRITE_FAILED;
  SetStatusLocked(v1::MATCH_STATUS_ABORTED);
  end_reason_ = reason;
  abort_cause_ = cause;
  ++version_;
  if (log_ != nullptr) {
    // Best effort: the log may be the cause. Without the torn record a
    // full disk may still take the short closing records; if not, the
    // file at least ends cleanly after its last whole record.
    log_->DropTornTail().IgnoreError();
    absl::Status st = WriteAndJournalLocked(SeedRevealRecord());
    v1::LogRecord record;
    record.mutable_aborted()->set_reason(reason);
    record.mutable_aborted()->set_cause(cause);
    if (st.ok()) st = WriteAndJournalLocked(std::move(record));
    if (!st.ok()) log_->DropTornTail().IgnoreError();
    log_->Close().IgnoreError();
    log_.reset();
  }
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
  for (const Seat& s : seats_) now.players.push_back(s.player_name);
  now.end_reason = end_reason_;
  now.cause = abort_cause_;
  if (result_.has_value()) now.result = &*result_;
  reporter_.Status(now);
}

std::vector<v1::SeatTicket> Match::Tickets() const {
  absl::MutexLock lock(&mu_);
  std::vector<v1::SeatTicket> tickets;
  for (size_t s = 0; s < seats_.size(); ++s) {
    if (seats_[s].ticket.empty()) continue;
    v1::SeatTicket& t = tickets.emplace_back();
    t.set_seat(static_cast<int>(s));
    t.set_player_name(seats_[s].invited_name);
    t.set_ticket(seats_[s].ticket);
  }
  return tickets;
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
    if (log_ != nullptr) {
      log_->Close().IgnoreError();
      log_.reset();
    }
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
  EventBatch batch;
  const bool over = OverLocked();
  const uint32_t actions = actions_through_.empty() ? 0 : actions_through_.back();
  size_t i = std::min<uint64_t>(after_index, journal_.size());
  for (; i < journal_.size() && batch.events.size() < max_events; ++i) {
    if (audience == Audience::kSpectator && !over &&
        actions - actions_through_[i] < delay_decisions) {
      break;  // not yet: too few decisions since
    }
    std::optional<v1::MatchEvent> event =
        MakeMatchEvent(i + 1, journal_[i], audience);
    if (event.has_value()) batch.events.push_back(*std::move(event));
  }
  batch.complete = over && i == journal_.size();
  return batch;
}

absl::Status Match::Authenticate(int seat, const std::string& token) const {
  absl::ReaderMutexLock lock(&mu_);
  return CheckSeat(seat, token);
}

absl::Status Match::CheckSeat(int seat, const std::string& token) const {
  const int n = static_cast<int>(seats_.size());
  if (seat < 0 || seat >= n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "seat ", seat, " does not exist: this match has seats 0..", n - 1));
  }
  if (token.empty()) {
    return absl::UnauthenticatedError(
        "no token: send the token JoinMatch returned for this seat");
  }
  if (token.size() > kMaxSecretChars) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the token has ", token.size(), " bytes; seat tokens have 32"));
  }
  if (!seats_[seat].joined || !TokensEqual(seats_[seat].token, token)) {
    return absl::PermissionDeniedError(absl::StrCat(
        "the token is not seat ", seat, "'s token in match ", id()));
  }
  return absl::OkStatus();
}

v1::Observation Match::ObserveLocked(int seat, uint64_t since_version) const {
  v1::Observation obs;
  ObserveIntoLocked(seat, since_version, &obs);
  return obs;
}

void Match::ObserveIntoLocked(int seat, uint64_t since_version,
                              v1::Observation* out) const {
  out->Clear();
  v1::Observation& obs = *out;
  obs.set_match_id(options_.match_id);
  obs.set_status(status_);
  obs.set_version(version_);
  if (status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
    obs.set_game(std::string(game_->id()));
    obs.set_seat(seat);
    obs.set_seat_to_act(-1);
    return;
  }
  codec::FillObservation(*state_, seat, &obs);
  auto first = std::upper_bound(
      history_.begin(), history_.end(), since_version,
      [](uint64_t v, const v1::ActionRecord& r) { return v < r.version(); });
  if (since_version == 0) {  // the current round only (referee.proto)
    const int round = state_->round();
    first = std::lower_bound(
        history_.begin(), history_.end(), round,
        [](const v1::ActionRecord& r, int n) { return r.round() < n; });
  }
  for (auto it = first; it != history_.end(); ++it) {
    *obs.add_recent_actions() = *it;
  }
  if (status_ == v1::MATCH_STATUS_ABORTED) {
    obs.set_seat_to_act(-1);
    obs.clear_legal_actions();
  }
  const absl::Time now = options_.clock->Now();
  if (obs.seat_to_act() == seat) {
    absl::Time deadline = deadline_;
    // A stream's observation starts the clock only once written: the seat
    // is told the deadline as of now, a little earlier than the real one.
    if (clock_.pending_seat() == seat) {
      deadline = std::min(deadline, clock_.DeadlineIfSeen(now));
    }
    if (deadline != absl::InfiniteFuture()) {
      obs.set_deadline_unix_millis(absl::ToUnixMillis(deadline));
    }
  }
  obs.set_bank_remaining_millis(
      absl::ToInt64Milliseconds(clock_.BankRemaining(seat, now)));
  for (int s : ForfeitedSeatsLocked()) obs.add_forfeited_seats(s);
}

absl::StatusOr<v1::Observation> Match::Observe(int seat,
                                               const std::string& token,
                                               uint64_t since_version) {
  v1::Observation obs;
  RETURN_IF_ERROR(ObserveInto(seat, token, since_version, &obs));
  return obs;
}

absl::Status Match::ObserveInto(int seat, const std::string& token,
                                uint64_t since_version, v1::Observation* out,
                                Shown shown) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  RETURN_IF_ERROR(CheckSeat(seat, token));
  if (shown == Shown::kNow) SeenLocked(seat);
  ObserveIntoLocked(seat, since_version, out);
  return absl::OkStatus();
}

void Match::Delivered(int seat, uint64_t version) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  // An older observation's write finishing late shows nothing pending now.
  if (version == version_) SeenLocked(seat);
}

void Match::SeenLocked(int seat) {
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS ||
      clock_.pending_seat() != seat) {
    return;
  }
  clock_.Seen(options_.clock->Now());
  // Seen moves the deadline once; later looks change nothing, so the
  // manager's deadline queue is told only then.
  RearmDeadlineLocked();
}

absl::Time Match::DisconnectDeadlineLocked() const {
  const v1::FaultPolicy& policy = options_.fault_policy;
  if (!policy.disconnect_is_timeout() ||
      status_ != v1::MATCH_STATUS_IN_PROGRESS) {
    return absl::InfiniteFuture();
  }
  const int seat = state_->current_seat();
  if (seat < 0 || seat >= static_cast<int>(seats_.size()) ||
      !seats_[seat].disconnected) {
    return absl::InfiniteFuture();  // no seat to act, or it has a stream
  }
  const Seat& to_act = seats_[seat];
  return to_act.disconnected_at +
         absl::Milliseconds(policy.disconnect_grace_millis());
}

void Match::RearmDeadlineLocked() {
  const absl::Time deadline =
      std::min(clock_.deadline(), DisconnectDeadlineLocked());
  if (deadline != deadline_) SetDeadlineLocked(deadline);
}

absl::StatusOr<v1::SubmitActionResponse> Match::Submit(
    const v1::SubmitActionRequest& request) {
  absl::StatusOr<v1::SubmitActionResponse> result;
  bool changed;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    const uint64_t version_before = version_;
    result = SubmitLocked(request);
    // Also when the submission is refused: it may have settled a timeout.
    changed = version_ != version_before;
  }
  if (changed) NotifyWatchers();
  return result;
}

void Match::SubmitThen(const std::shared_ptr<Match>& match,
                       const v1::SubmitActionRequest& request,
                       const SubmitDone& done) {
  Match& m = *match;
  absl::StatusOr<v1::SubmitActionResponse> result;
  bool changed;
  {
    absl::MutexLock lock(&m.mu_);
    m.AwaitSyncLocked();
    const uint64_t version_before = m.version_;
    // Only a round's sync: `event` keeps its sync per record.
    const bool defer = m.options_.log_syncer != nullptr && m.log_ != nullptr &&
                       m.options_.log_sync == record::SyncPolicy::kRound;
    if (defer) m.log_->set_defer_syncs(true);
    std::optional<uint64_t> answer_later;
    result = m.SubmitLocked(request, &answer_later);
    // The last record's seal is never deferred: an ended match's log is
    // closed (and null) here.
    if (m.log_ != nullptr) m.log_->set_defer_syncs(false);
    changed = m.version_ != version_before;
    if (m.log_ != nullptr && m.log_->sync_due()) {
      std::function<void()> task = [match, request, result, answer_later,
                                    done] {
        match->FinishDeferredSubmit(request, result, answer_later, done);
      };
      if (m.options_.log_syncer->TryRun(task)) {
        m.syncing_ = true;  // before the lock is let go
        return;
      }
      m.SyncDueLocked();  // no idle syncer thread: here, as without one
    }
    if (result.ok() && answer_later.has_value()) {
      result = m.AnswerLocked(request, *answer_later);
    }
  }
  if (changed) m.NotifyWatchers();
  done(std::move(result));
}

void Match::FinishDeferredSubmit(
    const v1::SubmitActionRequest& request,
    absl::StatusOr<v1::SubmitActionResponse> result,
    std::optional<uint64_t> answer_later, const SubmitDone& done) {
  {
    absl::MutexLock lock(&mu_);  // not AwaitSyncLocked: this is the sync
    SyncDueLocked();
    syncing_ = false;
    synced_.SignalAll();
    if (result.ok() && answer_later.has_value()) {
      // Built now, so that the seat's clock starts after the sync.
      result = AnswerLocked(request, *answer_later);
    }
  }
  NotifyWatchers();
  done(std::move(result));
}

void Match::SyncDueLocked() {
  if (log_ == nullptr) return;
  absl::Status st = log_->SyncDue();
  if (st.ok()) return;
  log_failed_ = true;
  AbortLocked(absl::StrCat("cannot write the match log: ", st.message()));
}

absl::StatusOr<v1::SubmitActionResponse> Match::SubmitLocked(
    const v1::SubmitActionRequest& request,
    std::optional<uint64_t>* answer_later) {
  const int seat = request.seat();
  RETURN_IF_ERROR(CheckSeat(seat, request.token()));
  Seat& me = seats_[seat];
  if (request.sequence() != 0) {
    auto used = me.sequences.find(request.sequence());
    if (used != me.sequences.end()) {
      return SequenceReusedLocked(me, request, used->second);
    }
  }
  switch (status_) {
    case v1::MATCH_STATUS_WAITING_FOR_PLAYERS:
      return absl::FailedPreconditionError(
          "the match has not started: it waits for every seat to join");
    case v1::MATCH_STATUS_FINISHED:
      return absl::FailedPreconditionError("the match is over");
    case v1::MATCH_STATUS_ABORTED:
      return absl::FailedPreconditionError(
          absl::StrCat("the match was aborted: ", end_reason_));
    case v1::MATCH_STATUS_CANCELLED:
      return absl::FailedPreconditionError(
          absl::StrCat("the match was ", end_reason_));
    default:
      break;
  }
  const absl::Time now = options_.clock->Now();
  const uint64_t version_before = version_;
  // A decision whose deadline passed is settled before anything else, so
  // the answer does not depend on whether the timer thread was first.
  TimeoutLocked(now);
  // Oversized actions are refused first, and logged without the action.
  absl::Status refused = CheckSubmittedAction(request.action(),
                                              options_.max_action_bytes);
  const std::pair<uint64_t, std::string>* timed_out = nullptr;
  for (const auto& t : me.timeouts) {
    if (t.first == request.decision_version()) timed_out = &t;
  }
  if (timed_out == nullptr && request.decision_version() == 0 &&
      !me.timeouts.empty() && state_->current_seat() != seat) {
    timed_out = &me.timeouts.back();
  }
  if (!refused.ok()) {
    // Refused already: too large, or a notation no game could have.
  } else if (timed_out != nullptr) {
    refused = absl::DeadlineExceededError(absl::StrCat(
        "too late: your decision (version ", timed_out->first,
        ") timed out and the referee played '", timed_out->second,
        "' for you"));
  } else if (status_ != v1::MATCH_STATUS_IN_PROGRESS) {
    refused = absl::FailedPreconditionError(
        absl::StrCat("the match is over: ", end_reason_));
  } else if (me.forfeited || me.absent) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "seat ", seat, me.forfeited ? " has forfeited" : " is absent",
        " (docs/fault_policy.md): the referee plays its decisions"));
  } else if (request.decision_version() > version_) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "decision_version ", request.decision_version(),
        " is from the future: the match is at version ", version_,
        "; answer the version of an observation you received"));
  } else if (request.decision_version() != 0 &&
             request.decision_version() != version_) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "stale submission: it answers version ", request.decision_version(),
        " but the match is at version ", version_));
  } else if (state_->current_seat() != seat) {
    refused = absl::FailedPreconditionError(absl::StrCat(
        "not your turn: seat ", state_->current_seat(), " is to act"));
  }
  if (refused.ok()) {
    const int round = state_->round();  // before the action may end it
    absl::StatusOr<Action> action =
        codec::DecodeAction(*state_, request.action());
    if (!action.ok()) {
      refused = action.status();
    } else if (absl::Status legal = state_->ApplyAction(*action);
               !legal.ok()) {
      refused = legal;
    } else {
      // Accepted: the engine has applied it. Log, then run forward.
      me.timeouts.clear();
      me.consecutive_timeouts = 0;
      const absl::Duration taken = clock_.Stop(now);
      absl::Status st = RecordActionLocked(
          seat, *action, round, absl::ToInt64Microseconds(taken),
          request.sequence(), /*by_referee=*/false);
      if (request.sequence() != 0) {
        Seat::SequenceUse& use = me.sequences[request.sequence()];
        use.decision_version = request.decision_version();
        use.version = version_before;
        use.action = request.action().SerializeAsString();
        use.notation = history_.back().action().notation();
      }
      if (st.ok()) st = AdvanceLocked();
      if (!st.ok()) AbortLocked(std::string(st.message()));
    }
  }
  if (!refused.ok()) {
    const bool counts = status_ == v1::MATCH_STATUS_IN_PROGRESS &&
                        state_->current_seat() == seat;
    LogRejectedLocked(seat, request.action(), refused);
    const int limit = options_.fault_policy.max_rejections_per_decision();
    if (counts && limit > 0 && status_ == v1::MATCH_STATUS_IN_PROGRESS &&
        ++me.rejections >= limit) {
      const std::string played = FaultLocked(
          v1::FAULT_KIND_REJECTION_LIMIT,
          absl::StrCat(limit, " rejected submissions for one decision"), now);
      return absl::Status(
          refused.code(),
          absl::StrCat(refused.message(), "; that was rejection ", limit,
                       " of ", limit, " for this decision: ",
                       played.empty() ? "the match is aborted"
                                      : absl::StrCat("the referee played '",
                                                     played, "' for you")));
    }
    return refused;
  }
  if (answer_later != nullptr) {
    *answer_later = version_before;
    return v1::SubmitActionResponse();
  }
  return AnswerLocked(request, version_before);
}

v1::SubmitActionResponse Match::AnswerLocked(
    const v1::SubmitActionRequest& request, uint64_t version_before) {
  const int seat = request.seat();
  Seat& me = seats_[seat];
  v1::SubmitActionResponse response;
  if (!request.omit_observation()) {
    // The answer shows the seat its next decision if it is its own again.
    SeenLocked(seat);
    *response.mutable_observation() = ObserveLocked(
        seat, request.decision_version() != 0 ? request.decision_version()
                                              : version_before);
  }
  me.last_sequence = request.sequence();
  // Kept only for a retry, which needs a sequence number: copying every
  // response cost each decision an observation's worth (issue 12).
  if (request.sequence() != 0) {
    me.last_response = response;
  } else {
    me.last_response.Clear();
  }
  return response;
}

absl::Status Match::RecordActionLocked(int seat, Action action, int round,
                                       int64_t time_taken_micros,
                                       uint64_t sequence, bool by_referee) {
  ++version_;
  v1::ActionRecord public_record;
  public_record.set_version(version_);
  public_record.set_seat(seat);
  *public_record.mutable_action() = codec::EncodeAction(*state_, action);
  public_record.set_by_referee(by_referee);
  public_record.set_round(round);
  v1::LogRecord record;
  v1::ActionEvent* event = record.mutable_action();
  event->set_seat(seat);
  *event->mutable_action() = public_record.action();
  event->set_engine_action(action);  // format 3 logs store only this
  event->set_time_taken_micros(time_taken_micros);
  event->set_sequence(sequence);
  event->set_by_referee(by_referee);
  history_.push_back(std::move(public_record));
  return LogLocked(std::move(record));
}

void Match::LogRejectedLocked(int seat, const v1::Action& action,
                              const absl::Status& status) {
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS) return;
  Seat& me = seats_[seat];
  const int cap = options_.max_rejections_logged_per_decision;
  if (cap >= 0 && me.rejections_logged >= cap) {
    // Counted only; written as one record before the next other record.
    ++me.rejections_unlogged;
    me.unlogged_version = version_;
    return;
  }
  ++me.rejections_logged;
  v1::LogRecord record;
  v1::RejectedSubmission* rejected = record.mutable_rejected();
  rejected->set_seat(seat);
  const size_t bytes = action.ByteSizeLong();
  if (bytes > options_.max_action_bytes) {
    rejected->set_oversized_bytes(static_cast<uint32_t>(
        std::min<size_t>(bytes, std::numeric_limits<uint32_t>::max())));
  } else {
    *rejected->mutable_action() = action;
    // Evidence, but escaped if hostile (text_limits.h).
    rejected->mutable_action()->set_notation(
        LoggableText(action.notation(), kMaxNotationChars));
  }
  rejected->set_status_code(static_cast<int>(status.code()));
  rejected->set_message(CapMessage(status.message()));
  if (absl::Status st = LogLocked(std::move(record)); !st.ok()) {
    AbortLocked(std::string(st.message()));
  }
}

bool Match::TimeoutLocked(absl::Time now) {
  if (now < deadline_) return false;
  if (status_ == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
    JoinDeadlineLocked();
    return true;
  }
  if (status_ != v1::MATCH_STATUS_IN_PROGRESS) return false;
  if (now < clock_.deadline()) {
    if (now < DisconnectDeadlineLocked()) {
      RearmDeadlineLocked();  // the seat opened a stream again in time
      return false;
    }
    FaultLocked(v1::FAULT_KIND_DISCONNECTED,
                absl::StrCat("the seat had no observation stream for ",
                             options_.fault_policy.disconnect_grace_millis(),
                             " ms while its decision was pending"),
                now);
    return true;
  }
  FaultLocked(v1::FAULT_KIND_TIMEOUT,
              absl::StrCat("no legal action within ",
                           options_.decision_time_limit_millis,
                           " ms plus the seat's time bank"),
              now);
  return true;
}

std::string Match::FaultLocked(v1::FaultKind kind, const std::string& detail,
                               absl::Time now) {
  absl::StatusOr<bool> goes_on = SettleFaultLocked(kind, detail, now);
  absl::Status st = goes_on.status();
  // Saved before the game runs on: it may play for other seats.
  std::string played = st.ok() && *goes_on ? last_substitute_ : "";
  if (st.ok() && *goes_on) st = AdvanceLocked();
  if (!st.ok()) AbortLocked(std::string(st.message()));
  return played;
}

absl::StatusOr<bool> Match::SettleFaultLocked(v1::FaultKind kind,
                                              const std::string& detail,
                                              absl::Time now) {
  const int seat = state_->current_seat();
  Seat& me = seats_[seat];
  const absl::Duration taken = clock_.Stop(now);
  SetDeadlineLocked(absl::InfiniteFuture());
  const v1::FaultPolicy& policy = options_.fault_policy;
  const v1::FaultAction action = EffectiveAction(policy);
  // Has this fault reached a limit of the policy?
  std::optional<v1::ForfeitReason> reached;
  std::string why;
  if (kind == v1::FAULT_KIND_TIMEOUT || kind == v1::FAULT_KIND_DISCONNECTED) {
    ++me.consecutive_timeouts;
    if (policy.max_consecutive_timeouts() > 0 &&
        me.consecutive_timeouts >= policy.max_consecutive_timeouts()) {
      reached = v1::FORFEIT_REASON_TIMEOUT_LIMIT;
      why = absl::StrCat("seat ", seat, " timed out ", me.consecutive_timeouts,
                         " times in a row");
    }
  } else if (kind == v1::FAULT_KIND_REJECTION_LIMIT) {
    reached = v1::FORFEIT_REASON_REJECTION_LIMIT;
    why = absl::StrCat("seat ", seat, " had ", me.rejections,
                       " submissions rejected for one decision");
  }
  if (reached.has_value() && action == v1::FAULT_ACTION_ABORT) {
    AbortLocked(absl::StrCat(why, " (fault policy: abort)"));
    return false;
  }
  v1::LogRecord fault;
  fault.mutable_fault()->set_seat(seat);
  fault.mutable_fault()->set_kind(kind);
  fault.mutable_fault()->set_detail(detail);
  RETURN_IF_ERROR(LogLocked(std::move(fault)));
  if (reached.has_value() && action == v1::FAULT_ACTION_FORFEIT) {
    RETURN_IF_ERROR(ForfeitLocked(seat, *reached, why));
  } else if (reached == v1::FORFEIT_REASON_TIMEOUT_LIMIT) {
    me.absent = true;  // substitute: every later decision at once
  }
  const Action neutral = NeutralAction(*state_);
  const int round = state_->round();  // before the action may end it
  last_substitute_ = state_->ActionToString(neutral);
  state_->ApplyLegalAction(neutral);
  if (kind == v1::FAULT_KIND_TIMEOUT || kind == v1::FAULT_KIND_DISCONNECTED) {
    me.timeouts.emplace_back(version_, last_substitute_);
  }
  RETURN_IF_ERROR(RecordActionLocked(seat, neutral, round,
                                     absl::ToInt64Microseconds(taken),
                                     /*sequence=*/0, /*by_referee=*/true));
  return true;
}

absl::Status Match::ForfeitLocked(int seat, v1::ForfeitReason reason,
                                  const std::string& detail) {
  seats_[seat].forfeited = true;
  v1::LogRecord record;
  record.mutable_forfeit()->set_seat(seat);
  record.mutable_forfeit()->set_reason(reason);
  record.mutable_forfeit()->set_detail(detail);
  return LogLocked(std::move(record));
}

std::vector<int> Match::ForfeitedSeatsLocked() const {
  std::vector<int> out;
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
    if (seats_[s].forfeited) out.push_back(s);
  }
  return out;
}

v1::FinalResult Match::FinalResultLocked() const {
  v1::FinalResult result = codec::MakeFinalResult(*state_);
  std::vector<bool> forfeited;
  for (const Seat& s : seats_) forfeited.push_back(s.forfeited);
  ApplyForfeits(*game_, forfeited, &result);
  return result;
}

void Match::StreamOpened(int seat) {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  if (seat < 0 || seat >= static_cast<int>(seats_.size())) return;
  ++seats_[seat].streams;
  seats_[seat].disconnected = false;
  // Back within the grace: its decision keeps its clock's deadline alone.
  if (status_ == v1::MATCH_STATUS_IN_PROGRESS) RearmDeadlineLocked();
  options_.metrics->StreamOpened("observation");
}

void Match::StreamClosed(int seat) {
  bool fired = false;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    if (seat < 0 || seat >= static_cast<int>(seats_.size())) return;
    Seat& me = seats_[seat];
    if (me.streams > 0) options_.metrics->StreamClosed("observation");
    const absl::Time now = options_.clock->Now();
    if (me.streams > 0 && --me.streams == 0) {
      me.disconnected = true;
      me.disconnected_at = now;
    }
    if (me.disconnected && status_ == v1::MATCH_STATUS_IN_PROGRESS &&
        state_->current_seat() == seat && !me.absent && !me.forfeited) {
      if (now >= DisconnectDeadlineLocked()) {  // no grace
        FaultLocked(v1::FAULT_KIND_DISCONNECTED,
                    "the seat's last observation stream closed while its "
                    "decision was pending",
                    now);
        fired = true;
      } else {
        RearmDeadlineLocked();  // the grace's end, if before the clock's
      }
    }
  }
  if (fired) NotifyWatchers();
}

bool Match::EnforceDeadline(absl::Time now) {
  bool fired;
  {
    absl::MutexLock lock(&mu_);
    AwaitSyncLocked();
    fired = TimeoutLocked(now);
  }
  if (fired) NotifyWatchers();
  return fired;
}

absl::Time Match::deadline() const {
  absl::MutexLock lock(&mu_);
  return deadline_;
}

Match::Progress Match::progress() const {
  absl::MutexLock lock(&mu_);
  Progress p;
  p.version = version_;
  p.status = status_;
  p.seat_to_act = status_ == v1::MATCH_STATUS_IN_PROGRESS
                      ? state_->current_seat()
                      : -1;
  return p;
}

v1::MatchStatus Match::status() const {
  absl::MutexLock lock(&mu_);
  return status_;
}

bool Match::HasFreeSeat() const {
  absl::MutexLock lock(&mu_);
  if (status_ != v1::MATCH_STATUS_WAITING_FOR_PLAYERS) return false;
  for (const Seat& s : seats_) {
    if (!s.joined) return true;
  }
  return false;
}

v1::MatchInfo Match::Info(bool for_organiser, bool withhold_seed) const {
  absl::MutexLock lock(&mu_);
  AwaitSyncLocked();
  v1::MatchInfo info;
  info.set_match_id(options_.match_id);
  info.set_game(std::string(game_->id()));
  *info.mutable_params() = codec::ParamsToProto(game_->params());
  info.set_status(status_);
  info.set_num_seats(static_cast<int>(seats_.size()));
  for (int s = 0; s < static_cast<int>(seats_.size()); ++s) {
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
  *info.mutable_fault_policy() = options_.fault_policy;
  for (int s : ForfeitedSeatsLocked()) info.add_forfeited_seats(s);
  if (OverLocked() && !withhold_seed) info.set_seed(options_.seed);
  return info;
}

int Match::AddWatcher(std::function<void()> on_change) {
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
    // Every change ends here, so every status change is reported.
    absl::MutexLock lock(&mu_);
    ReportStatusLocked();
  }
  absl::MutexLock lock(&watch_mu_);
  for (auto& [id, on_change] : watchers_) on_change();
}

}  // namespace cardref::service
