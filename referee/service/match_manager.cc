#include "referee/service/match_manager.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "referee/base/random_bytes.h"
#include "referee/base/status_macros.h"
#include "referee/base/deal_stream.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "referee/codec/codec.h"
#include "referee/record/record_io.h"
#include "referee/service/match_archive.h"
#include "referee/service/match_manager_internal.h"
#include "referee/service/disk_reserve.h"
#include "referee/service/request_shape.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

std::string FormatMatchId(absl::string_view game, absl::Time created,
                          int64_t serial, absl::string_view random_bytes) {
  return absl::StrFormat(
      "%s-%s-%04d-%s", game,
      absl::FormatTime("%Y%m%d-%H%M%S", created, absl::UTCTimeZone()), serial,
      ToHex(random_bytes));
}

namespace manager_internal {

absl::Status CheckKnownGame(const GameRegistry& registry,
                            const std::string& game) {
  if (game.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'game' is required; known games: ", absl::StrJoin(registry.Ids(), ", ")));
  }
  RETURN_IF_ERROR(CheckText("game", game, kMaxGameIdChars));
  return registry.Find(game).status();  // NOT_FOUND: "unknown game ..."
}

absl::Status ShuttingDown() {
  return absl::UnavailableError(
      "the referee is shutting down: it takes no new match and no join");
}

}  // namespace manager_internal

using manager_internal::CheckKnownGame;
using manager_internal::ShuttingDown;

namespace {

constexpr int kDefaultPageSize = 100;
constexpr int kMaxPageSize = 1000;

// What anyone but the organiser sees of a match whose twins are not all
// over (deal_sets.h).
v1::MatchInfo IdAndStatusOnly(const v1::MatchInfo& info) {
  v1::MatchInfo out;
  out.set_match_id(info.match_id());
  out.set_status(info.status());
  return out;
}

absl::Status CheckFaultPolicy(const v1::FaultPolicy& policy,
                              int64_t max_join_deadline_millis) {
  if (policy.max_rejections_per_decision() < 0 ||
      policy.max_consecutive_timeouts() < 0 ||
      policy.join_deadline_millis() < 0) {
    return absl::InvalidArgumentError(
        "fault_policy: max_rejections_per_decision, max_consecutive_timeouts "
        "and join_deadline_millis must not be negative (0 = no limit)");
  }
  if (policy.disconnect_grace_millis() < 0) {
    return absl::InvalidArgumentError(
        "fault_policy.disconnect_grace_millis must not be negative (0 = a "
        "disconnected seat times out at once)");
  }
  if (policy.disconnect_grace_millis() > 0 && !policy.disconnect_is_timeout()) {
    return absl::InvalidArgumentError(
        "fault_policy.disconnect_grace_millis is set but "
        "disconnect_is_timeout is not: the grace applies only to that rule");
  }
  if (!v1::FaultAction_IsValid(policy.action())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fault_policy.action ", static_cast<int>(policy.action()),
        " is not a FaultAction: use SUBSTITUTE, FORFEIT or ABORT"));
  }
  if (max_join_deadline_millis > 0 &&
      policy.join_deadline_millis() > max_join_deadline_millis) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fault_policy.join_deadline_millis ", policy.join_deadline_millis(),
        " exceeds this referee's maximum of ", max_join_deadline_millis));
  }
  return absl::OkStatus();
}

// Waiting for players or in progress: its seed must not be shown to anyone
// while a twin dealt from the same seed is one of these.
bool IsLive(v1::MatchStatus status) {
  return status == v1::MATCH_STATUS_WAITING_FOR_PLAYERS ||
         status == v1::MATCH_STATUS_IN_PROGRESS;
}

// The clock re-checks at least this often, so a deadline set after it went
// to sleep is never missed by more than this.
constexpr absl::Duration kClockTick = absl::Milliseconds(20);
}  // namespace

namespace {

// A match id that can name a file in the log directory (no separators).
bool IsFileSafeId(const std::string& id) {
  if (id.empty() || id.size() > kMaxIdChars || id[0] == '.') return false;
  for (char c : id) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' &&
        c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace {

std::shared_ptr<BotCredentials> CredentialsOrMemory(
    std::shared_ptr<BotCredentials> given) {
  if (given != nullptr) return given;
  // In memory: cannot fail.
  return std::shared_ptr<BotCredentials>(*BotCredentials::Open(""));
}

}  // namespace

MatchManager::MatchManager(const GameRegistry* registry,
                           ManagerOptions options)
    : registry_(registry),
      options_(std::move(options)),
      credentials_(CredentialsOrMemory(options_.bot_credentials)),
      invitations_({options_.limits.max_invitation_streams_per_credential,
                    options_.limits.max_invitations_per_credential},
                   options_.metrics, options_.ops_log) {
  if (options_.recover_on_start) {
    absl::StatusOr<std::vector<RecoveredLog>> found =
        RecoverInterruptedLogs(options_.log_dir, options_.signing_key);
    // A directory that cannot be listed fails every CreateMatch too; that
    // error names it, so nothing is lost by going on.
    if (found.ok()) recovered_ = *std::move(found);
    for (const RecoveredLog& r : recovered_) {
      if (r.outcome != RecoveredLog::Outcome::kRemoved) {
        creation_order_.push_back(r.match_id);
      }
    }
  }
  clock_ = std::thread([this] { ClockLoop(); });
  log_syncer_ = options_.log_syncer;
  if (log_syncer_ == nullptr && options_.log_sync_threads > 0 &&
      options_.log_sync == record::SyncPolicy::kRound) {
    own_log_syncer_ =
        std::make_unique<LogSyncThreads>(options_.log_sync_threads);
    log_syncer_ = own_log_syncer_.get();
  }
}

void MatchManager::Listener::DeadlineChanged(const std::string& match_id,
                                             absl::Time deadline) {
  manager_->deadlines_.Set(match_id, deadline);
}

void MatchManager::Listener::JoinsClosed(const std::string& match_id) {
  manager_->invitations_.JoinsClosed(match_id);
}

void MatchManager::Listener::Ended(const std::string& match_id) {
  manager_->invitations_.MatchEnded(match_id);
  manager_->deadlines_.Set(match_id, absl::InfiniteFuture());
  manager_->evictions_.Set(
      match_id, manager_->options_.clock->Now() + manager_->options_.evict_after);
}

void MatchManager::Listener::StatusChanged(const std::string& seed_commitment,
                                           const std::string& deal_set_id,
                                           v1::MatchStatus from,
                                           v1::MatchStatus to) {
  manager_->caps_.StatusChanged(from, to);
  const bool was_live = IsLive(from), is_live = IsLive(to);
  if (was_live == is_live) return;
  if (was_live && !deal_set_id.empty()) {
    manager_->deal_sets_.Ended(deal_set_id, to == v1::MATCH_STATUS_FINISHED);
  }
  absl::MutexLock lock(&manager_->live_mu_);
  if (is_live) {
    ++manager_->live_by_seed_[seed_commitment];
  } else if (auto it = manager_->live_by_seed_.find(seed_commitment);
             it != manager_->live_by_seed_.end() && --it->second <= 0) {
    manager_->live_by_seed_.erase(it);
  }
}

bool MatchManager::IsSecret(const std::string& deal_set_id) {
  return !deal_set_id.empty() && !deal_sets_.Done(deal_set_id);
}

bool MatchManager::WithholdSeed(const std::string& deal_set_id,
                                const std::string& seed_commitment,
                                bool self_live) {
  return IsSecret(deal_set_id) ||
         LiveWithSeed(seed_commitment) > (self_live ? 1 : 0);
}

absl::Status MatchManager::CheckPublic(const Match& match) {
  if (!IsSecret(match.deal_set_id())) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "match ", match.id(),
      " is dealt like other matches of its deal set that are not all over: "
      "its public events are shown once they are (docs/auth.md, \"Twins\")"));
}

absl::StatusOr<v1::CloseDealSetResponse> MatchManager::CloseDealSet(
    const v1::CloseDealSetRequest& request) {
  if (request.deal_set_id().empty()) {
    return absl::InvalidArgumentError("'deal_set_id' is required");
  }
  RETURN_IF_ERROR(CheckText("deal_set_id", request.deal_set_id(), kMaxIdChars));
  const auto [created, over] = deal_sets_.Close(request.deal_set_id());
  v1::CloseDealSetResponse response;
  response.set_matches(created);
  response.set_over(over);
  return response;
}

int MatchManager::LiveWithSeed(const std::string& seed_commitment) {
  absl::MutexLock lock(&live_mu_);
  auto it = live_by_seed_.find(seed_commitment);
  return it == live_by_seed_.end() ? 0 : it->second;
}

std::string MatchManager::LogPath(const std::string& match_id) const {
  return absl::StrCat(options_.log_dir, "/", match_id, ".cardlog");
}

size_t MatchManager::resident_matches() {
  absl::MutexLock lock(&mu_);
  return matches_.size();
}

size_t MatchManager::retry_keys_held() {
  absl::MutexLock lock(&mu_);
  return join_retry_keys_.size() + create_retry_keys_.size();
}

MatchManager::~MatchManager() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    clock_wakeup_.Signal();
  }
  clock_.join();
}

absl::StatusOr<v1::CreateMatchResponse> MatchManager::CreateMatch(
    const v1::CreateMatchRequest& request) {
  {
    absl::MutexLock lock(&mu_);
    if (!accepting_) return ShuttingDown();
  }
  if (!request.retry_key().empty()) return CreateWithRetryKey(request);
  std::shared_ptr<Match> created_match;
  return CreateNew(request, &created_match);
}

namespace {
// What makes two creations with one key the same request: their bytes in
// a canonical order (params is a map).
std::string CreateRequestSha256(const v1::CreateMatchRequest& request) {
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    request.SerializeToCodedStream(&coded);
  }
  return crypto::Sha256(bytes);
}
}  // namespace

absl::StatusOr<v1::CreateMatchResponse> MatchManager::CreateWithRetryKey(
    const v1::CreateMatchRequest& request) {
  const std::string& key = request.retry_key();
  RETURN_IF_ERROR(CheckRetryKey(key));
  const std::string sha256 = CreateRequestSha256(request);
  {
    absl::MutexLock lock(&mu_);
    ASSIGN_OR_RETURN(auto claimed,
                     create_retry_keys_.Claim(key, "match creation"));
    if (claimed.has_value()) {
      // A resend: the same answer, if it is the same request.
      if (claimed->kept->request_sha256 != sha256) {
        return absl::InvalidArgumentError(absl::StrCat(
            "this retry_key created match ", claimed->match->id(),
            " from a different request: a key is for one creation (choose "
            "a new random one)"));
      }
      return claimed->kept->response;
    }
  }
  std::shared_ptr<Match> created_match;
  absl::StatusOr<v1::CreateMatchResponse> response =
      CreateNew(request, &created_match);
  absl::MutexLock lock(&mu_);
  create_retry_keys_.Settle(
      key, response.ok(), created_match,
      response.ok() ? CreatedMatch{sha256, *response} : CreatedMatch{});
  return response;
}

absl::StatusOr<v1::CreateMatchResponse> MatchManager::CreateNew(
    const v1::CreateMatchRequest& request,
    std::shared_ptr<Match>* created_match) {
  // Counts as a waiting match from here; kept once the match is made.
  ASSIGN_OR_RETURN(MatchPlace place, caps_.Reserve());
  RETURN_IF_ERROR(CheckCreateMatchShape(request));
  RETURN_IF_ERROR(CheckKnownGame(*registry_, request.game()));
  RETURN_IF_ERROR(CheckText("deal_set_id", request.deal_set_id(), kMaxIdChars));
  absl::StatusOr<std::unique_ptr<Game>> game = registry_->Create(
      request.game(), codec::ParamsFromProto(request.params()));
  if (!game.ok()) return game.status();
  if (request.decision_time_limit_millis() < 0) {
    return absl::InvalidArgumentError(
        "decision_time_limit_millis must not be negative");
  }
  int64_t limit = request.decision_time_limit_millis() > 0
                      ? request.decision_time_limit_millis()
                      : options_.default_decision_time_limit_millis;
  if (options_.max_decision_time_limit_millis > 0 &&
      limit > options_.max_decision_time_limit_millis) {
    return absl::InvalidArgumentError(
        absl::StrCat("decision_time_limit_millis ", limit,
                     " exceeds this referee's maximum of ",
                     options_.max_decision_time_limit_millis));
  }
  if (request.time_bank_millis() < 0) {
    return absl::InvalidArgumentError("time_bank_millis must not be negative");
  }
  const int64_t bank = request.time_bank_millis() > 0
                           ? request.time_bank_millis()
                           : options_.default_time_bank_millis;
  if (options_.max_time_bank_millis > 0 &&
      bank > options_.max_time_bank_millis) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_bank_millis ", bank,
                     " exceeds this referee's maximum of ",
                     options_.max_time_bank_millis));
  }
  const v1::FaultPolicy policy = request.has_fault_policy()
                                     ? request.fault_policy()
                                     : options_.default_fault_policy;
  RETURN_IF_ERROR(CheckFaultPolicy(policy, options_.max_join_deadline_millis));
  MatchOptions match_options;
  match_options.time_bank_millis = limit > 0 ? bank : 0;
  match_options.fault_policy = policy;
  match_options.clock = options_.clock;
  const int seats = (*game)->num_seats();
  if (request.seat_assignments_size() > 0) {
    if (request.open()) {
      return absl::InvalidArgumentError(
          "give seat_assignments (invitations) or open=true, not both");
    }
    if (request.seat_assignments_size() != seats) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seat_assignments has ", request.seat_assignments_size(),
          " entries but the match has ", seats,
          " seats: give one player name per seat"));
    }
    for (int s = 0; s < seats; ++s) {
      const std::string& name = request.seat_assignments(s).player_name();
      const std::string field =
          absl::StrCat("seat_assignments[", s, "].player_name");
      if (name.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("'", field, "' is empty: an invited seat needs a name"));
      }
      RETURN_IF_ERROR(CheckPlayerName(field, name));
      match_options.invited_names.push_back(name);
    }
  } else if (!request.open() && !options_.open_by_default) {
    return absl::InvalidArgumentError(
        "this referee has an organiser credential, so a match is by "
        "invitation: give seat_assignments (one player name per seat), or "
        "open=true to let anyone join");
  }
  match_options.open = request.seat_assignments_size() == 0;
  match_options.decision_time_limit_millis = limit;
  ASSIGN_OR_RETURN(match_options.latency_allowance_millis,
                   SeatAllowances(request));
  match_options.deal_set_id = request.deal_set_id();
  if (request.deal_set_size() > 0 && request.deal_set_id().empty()) {
    return absl::InvalidArgumentError(
        "deal_set_size needs a deal_set_id: the size of which deal set?");
  }
  if (!request.seed().empty() && request.seed().size() != kDealSeedSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("seed must be ", kDealSeedSize, " bytes (or empty to "
                     "draw one), got ", request.seed().size()));
  }
  match_options.seed = request.seed();
  match_options.dealing_seed = request.dealing_seed();
  match_options.signing_key = options_.signing_key;
  match_options.log_sync = options_.log_sync;
  match_options.log_syncer = log_syncer_;
  match_options.open_log = options_.open_log;
  match_options.listener = &listener_;
  match_options.referee_version = options_.referee_version;
  match_options.max_action_bytes = options_.limits.max_action_bytes;
  match_options.max_rejections_logged_per_decision =
      options_.limits.max_rejections_logged_per_decision;
  match_options.metrics = options_.metrics;
  match_options.ops_log = options_.ops_log;
  // Last of the checks: the request itself is fine.
  RETURN_IF_ERROR(CheckDiskReserve(options_.log_dir, options_.min_free_disk_mb));
  const std::string& deal_set = request.deal_set_id();
  if (!deal_set.empty()) {
    RETURN_IF_ERROR(deal_sets_.Add(deal_set, request.deal_set_size()));
  }
  absl::StatusOr<std::string> id = ClaimMatchId(request.game());
  if (!id.ok()) {
    if (!deal_set.empty()) deal_sets_.Remove(deal_set);
    return id.status();
  }
  match_options.match_id = *std::move(id);
  match_options.log_path = LogPath(match_options.match_id);
  match_options.log_path_created = true;
  const GameParams params = (*game)->params();
  absl::StatusOr<std::unique_ptr<Match>> match =
      Match::Create(std::move(*game), match_options);
  if (!match.ok()) {
    std::error_code ignored;  // empty, and its id is given up
    std::filesystem::remove(match_options.log_path, ignored);
    if (!deal_set.empty()) deal_sets_.Remove(deal_set);
    return match.status();
  }
  place.Keep();
  v1::CreateMatchResponse response;
  response.set_match_id(match_options.match_id);
  response.set_num_seats(seats);
  *response.mutable_params() = codec::ParamsToProto(params);
  for (v1::SeatTicket& t : (*match)->Tickets()) {
    *response.add_tickets() = std::move(t);
  }
  response.set_seed_commitment((*match)->seed_commitment());
  std::shared_ptr<Match> shared = std::move(*match);
  *created_match = shared;
  {
    absl::MutexLock lock(&mu_);
    // The clock may have popped a join deadline that came due before the
    // match was findable: registered again (no-op if not), under the lock,
    // so no join can have moved the deadline on meanwhile.
    deadlines_.Set(match_options.match_id, shared->deadline());
    if (shared->open()) {
      FreeSeatQueue& q = free_seats_[request.game()];
      q.matches.push_back(shared);
      if (q.matches.size() >= q.compact_at) {
        q.matches.erase(std::remove_if(q.matches.begin(), q.matches.end(),
                                       [](const std::weak_ptr<Match>& m) {
                                         return m.expired();
                                       }),
                        q.matches.end());
        q.compact_at = std::max<size_t>(64, 2 * q.matches.size());
      }
    }
    matches_[match_options.match_id] = std::move(shared);
    creation_order_.push_back(match_options.match_id);
  }
  // Once the match can be found: an invited bot may join at once.
  OfferInvitations(request, response, limit,
                   match_options.latency_allowance_millis);
  return response;
}

absl::StatusOr<std::string> MatchManager::ClaimMatchId(
    absl::string_view game) {
  constexpr int kAttempts = 16;
  absl::Status created;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    // The id's random part makes it unguessable; from the OS generator,
    // not std::random_device (random_bytes.h), which cost a device open per
    // match.
    ASSIGN_OR_RETURN(const std::string nonce,
                     options_.random_bytes
                         ? options_.random_bytes(kMatchIdRandomBytes)
                         : crypto::RandomBytes(kMatchIdRandomBytes));
    std::string id;
    {
      absl::MutexLock lock(&mu_);
      id = FormatMatchId(game, options_.clock->Now(), next_serial_++, nonce);
    }
    created = record::CreateEmptyFile(LogPath(id));
    if (created.ok()) return id;
    if (!absl::IsAlreadyExists(created)) break;
  }
  return absl::UnavailableError(
      absl::StrCat("cannot create the match log: ", created.message()));
}

absl::StatusOr<std::shared_ptr<Match>> MatchManager::Find(
    const std::string& match_id) {
  RETURN_IF_ERROR(CheckText("match_id", match_id, kMaxIdChars));
  {
    absl::MutexLock lock(&mu_);
    auto it = matches_.find(match_id);
    if (it != matches_.end()) return it->second;
    if (cancelled_.count(match_id) > 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "match ", match_id, " was cancelled and has left memory"));
    }
  }
  std::error_code ignored;
  if (IsFileSafeId(match_id) &&
      std::filesystem::exists(LogPath(match_id), ignored)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "match ", match_id,
        " is over and has left memory; GetMatch shows it, read from its log "
        "(docs/recovery.md)"));
  }
  return absl::NotFoundError(
      absl::StrCat("no match with id '", QuotePrefix(match_id), "'"));
}

absl::StatusOr<v1::MatchInfo> MatchManager::ArchivedInfo(
    const std::string& match_id, bool for_organiser) {
  RETURN_IF_ERROR(CheckText("match_id", match_id, kMaxIdChars));
  std::optional<v1::MatchInfo> info;
  {
    absl::MutexLock lock(&mu_);
    auto it = cancelled_.find(match_id);
    if (it != cancelled_.end()) info = it->second;
  }
  if (info.has_value()) {
    // A cancelled twin was dealt like the others of its set: the same
    // twin rule as for one that was played.
    if (!for_organiser) info->clear_log_path();
    if (!for_organiser && IsSecret(info->deal_set_id())) {
      return IdAndStatusOnly(*info);
    }
    if (WithholdSeed(info->deal_set_id(), info->seed_commitment(), false)) {
      info->clear_seed();
    }
    return *info;
  }
  if (!IsFileSafeId(match_id)) {
    return absl::NotFoundError(
        absl::StrCat("no match with id '", QuotePrefix(match_id), "'"));
  }
  absl::StatusOr<v1::MatchInfo> logged =
      ReadMatchInfo(LogPath(match_id), for_organiser);
  if (absl::IsNotFound(logged.status())) {
    return absl::NotFoundError(
        absl::StrCat("no match with id '", QuotePrefix(match_id), "'"));
  }
  if (!logged.ok()) return logged.status();
  // Duplicate play: a twin may still be in play (this one is over: it left
  // memory), or not yet created.
  if (!for_organiser && IsSecret(logged->deal_set_id())) {
    return IdAndStatusOnly(*logged);
  }
  if (WithholdSeed(logged->deal_set_id(), logged->seed_commitment(), false)) {
    logged->clear_seed();
  }
  return logged;
}

absl::StatusOr<v1::MatchInfo> MatchManager::Info(const std::string& match_id,
                                                 bool for_organiser) {
  RETURN_IF_ERROR(CheckText("match_id", match_id, kMaxIdChars));
  absl::StatusOr<std::shared_ptr<Match>> match;
  {
    absl::MutexLock lock(&mu_);
    auto it = matches_.find(match_id);
    if (it != matches_.end()) match = it->second;
  }
  if (!match.ok()) return ArchivedInfo(match_id, for_organiser);
  // Its own status first: if it ends in between, it is still counted
  // below, and the seed is withheld once too often, never shown too soon.
  const bool self_live = IsLive((*match)->status());
  v1::MatchInfo info = (*match)->Info(
      for_organiser, WithholdSeed((*match)->deal_set_id(),
                                  (*match)->seed_commitment(), self_live));
  if (!for_organiser && IsSecret((*match)->deal_set_id())) {
    return IdAndStatusOnly(info);
  }
  return info;
}

absl::StatusOr<v1::ListMatchesResponse> MatchManager::ListMatches(
    const v1::ListMatchesRequest& request) {
  RETURN_IF_ERROR(CheckListMatchesShape(request));
  if (request.page_size() < 0 || request.page_size() > kMaxPageSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "page_size must be 0 (default ", kDefaultPageSize, ") to ",
        kMaxPageSize, ", got ", request.page_size()));
  }
  RETURN_IF_ERROR(CheckText("page_token", request.page_token(), kMaxIdChars));
  const size_t page_size =
      request.page_size() == 0 ? kDefaultPageSize : request.page_size();
  // The page token is the position in creation order to start from.
  size_t start = 0;
  if (!request.page_token().empty() &&
      !absl::SimpleAtoi(request.page_token(), &start)) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_token '", QuotePrefix(request.page_token()),
                     "' is not a next_page_token of ListMatches"));
  }
  // Ids only: evicted matches are read from their logs (Info).
  std::vector<std::string> candidates;
  {
    absl::MutexLock lock(&mu_);
    for (size_t i = start; i < creation_order_.size(); ++i) {
      candidates.push_back(creation_order_[i]);
    }
  }
  v1::ListMatchesResponse response;
  size_t i = 0;
  for (; i < candidates.size(); ++i) {
    if (static_cast<size_t>(response.matches_size()) == page_size) break;
    absl::StatusOr<v1::MatchInfo> found =
        Info(candidates[i], /*for_organiser=*/false);
    if (!found.ok()) continue;
    v1::MatchInfo info = *std::move(found);
    if (request.status() != v1::MATCH_STATUS_UNSPECIFIED &&
        info.status() != request.status()) {
      continue;
    }
    *response.add_matches() = std::move(info);
  }
  if (i < candidates.size()) {
    response.set_next_page_token(absl::StrCat(start + i));
  }
  return response;
}

namespace {

absl::Status CheckEndRequest(const v1::EndMatchRequest& request) {
  if (request.match_id().empty()) {
    return absl::InvalidArgumentError("'match_id' is required");
  }
  return CheckText("reason", request.reason(), kMaxReasonChars);
}

}  // namespace

absl::StatusOr<v1::MatchInfo> MatchManager::CancelMatch(
    const v1::EndMatchRequest& request) {
  RETURN_IF_ERROR(CheckEndRequest(request));
  ASSIGN_OR_RETURN(std::shared_ptr<Match> match, Find(request.match_id()));
  RETURN_IF_ERROR(match->Cancel(request.reason()));
  return Info(request.match_id());
}

absl::StatusOr<v1::MatchInfo> MatchManager::AbortMatch(
    const v1::EndMatchRequest& request) {
  RETURN_IF_ERROR(CheckEndRequest(request));
  ASSIGN_OR_RETURN(std::shared_ptr<Match> match, Find(request.match_id()));
  RETURN_IF_ERROR(match->Abort(request.reason()));
  return Info(request.match_id());
}

absl::StatusOr<v1::MatchInfo> MatchManager::ReportBotEnded(
    const v1::ReportBotEndedRequest& request) {
  if (request.match_id().empty()) {
    return absl::InvalidArgumentError("'match_id' is required");
  }
  const std::string& cause = request.cause();
  const bool cause_ok =
      !cause.empty() && cause.size() <= 32 &&
      std::all_of(cause.begin(), cause.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      });
  if (!cause_ok) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'cause' must be 1 to 32 of a-z, 0-9 and '_' (e.g. memory_limit), "
        "got '", QuotePrefix(cause), "'"));
  }
  RETURN_IF_ERROR(CheckText("detail", request.detail(), kMaxReasonChars));
  ASSIGN_OR_RETURN(std::shared_ptr<Match> match, Find(request.match_id()));
  RETURN_IF_ERROR(match->BotEnded(request.seat(), cause, request.detail()));
  return Info(request.match_id());
}

void MatchManager::EvictDue(absl::Time now) {
  for (const std::string& id : evictions_.PopDue(now)) {
    std::shared_ptr<Match> match;
    {
      absl::MutexLock lock(&mu_);
      auto it = matches_.find(id);
      if (it == matches_.end()) continue;
      match = it->second;
    }
    // A cancelled match has no log to read it back from.
    std::optional<v1::MatchInfo> cancelled;
    if (match->status() == v1::MATCH_STATUS_CANCELLED) cancelled = match->Info();
    absl::MutexLock lock(&mu_);
    if (cancelled.has_value()) cancelled_[id] = *std::move(cancelled);
    matches_.erase(id);
  }
}

void MatchManager::StopAccepting() {
  {
    absl::MutexLock lock(&mu_);
    accepting_ = false;
  }
  invitations_.EndAll(absl::UnavailableError(
      "the referee is shutting down: it sends no more invitations"));
}

std::vector<std::shared_ptr<Match>> MatchManager::AllMatches() {
  absl::MutexLock lock(&mu_);
  std::vector<std::shared_ptr<Match>> all;
  // Evicted matches are over and have left memory: nothing to shut down.
  for (const std::string& id : creation_order_) {
    if (auto it = matches_.find(id); it != matches_.end()) {
      all.push_back(it->second);
    }
  }
  return all;
}

void MatchManager::ClockLoop() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return;
    }
    const absl::Time now = options_.clock->Now();
    for (const std::string& id : deadlines_.PopDue(now)) {
      std::shared_ptr<Match> match;
      {
        absl::MutexLock lock(&mu_);
        auto it = matches_.find(id);
        if (it == matches_.end()) continue;
        match = it->second;
      }
      match->EnforceDeadline(now);
    }
    EvictDue(now);
    const absl::Time next = std::min(deadlines_.Next(), evictions_.Next());
    absl::MutexLock lock(&mu_);
    // A duration, not a deadline: `now` may come from a fake clock. A
    // CondVar, not an absl::Condition: those are evaluated by whichever
    // thread unlocks mu_, which ThreadSanitizer cannot follow through
    // Debian's uninstrumented Abseil (docs/testing.md).
    if (!stopping_) {
      clock_wakeup_.WaitWithTimeout(
          &mu_, std::clamp(next - now, absl::ZeroDuration(), kClockTick));
    }
  }
}

}  // namespace cardref::service
