// All matches of a referee process, and the clock that enforces their
// decision deadlines. No gRPC here.
//
// Life cycle (docs/recovery.md): at construction the log directory is
// scanned and interrupted matches are closed out (recovery.h). A match is
// in memory while it waits or is played, and for `evict_after` after its
// end; then only its id stays (in creation order, for ListMatches), and
// GetMatch reads it from its log (match_archive.h). The clock thread
// visits only matches whose deadline has come (deadline_queue.h).
#ifndef CARDREF_REFEREE_SERVICE_MATCH_MANAGER_H_
#define CARDREF_REFEREE_SERVICE_MATCH_MANAGER_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "cardref/v1/referee.pb.h"
#include "games/api/registry.h"
#include "referee/service/bot_credentials.h"
#include "referee/service/invitation_board.h"
#include "referee/service/limits.h"
#include "referee/service/deal_sets.h"
#include "referee/service/match_caps.h"
#include "referee/service/deadline_queue.h"
#include "referee/service/match.h"
#include "referee/service/recovery.h"
#include "referee/service/retry_keys.h"

namespace cardref::service {

// A match id: game, UTC time of creation, the referee's serial number of
// the match and 96 random bits as 24 lowercase hex digits, e.g.
// "<game>-20261202-123508-0053-3f0c9a1e5b7d2c4e8a6f0b1d". The random part
// makes an id unguessable: duplicate play keeps twins secret from a bot
// that would look one up (deal_sets.h).
inline constexpr size_t kMatchIdRandomBytes = 12;
std::string FormatMatchId(absl::string_view game, absl::Time created,
                          int64_t serial, absl::string_view random_bytes);

struct ManagerOptions {
  std::string log_dir = ".";
  // Used when a CreateMatch request gives none; 0 = no limit.
  int64_t default_decision_time_limit_millis = 0;
  // Upper bound on any requested limit (0 = none).
  int64_t max_decision_time_limit_millis = 0;
  // Each seat's time bank when a request gives none (0 = none), and the
  // largest a request may ask for (0 = no maximum).
  int64_t default_time_bank_millis = 0;
  int64_t max_time_bank_millis = 0;
  // The fault policy of a request that gives none (docs/fault_policy.md).
  v1::FaultPolicy default_fault_policy;
  // Upper bounds on a requested join deadline (0 = none).
  int64_t max_join_deadline_millis = 0;
  // Not owned; outlives the manager. Tests pass a FakeClock.
  const Clock* clock = RealClock::Get();
  std::string referee_version;
  // A match without invitations is open to anyone only if its request says
  // `open`, or if this is true (a loopback referee with no organiser
  // credential: docs/auth.md).
  bool open_by_default = true;
  // Signs every match's log (cardref_referee --signing_key_file); none:
  // logs are chained but unsigned.
  std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key;
  // Resource limits (docs/limits.md). The manager enforces the match caps
  // and passes the per-match ones on; the gRPC server the rest.
  Limits limits;
  // When logs are fdatasynced (cardref_referee --log_sync).
  record::SyncPolicy log_sync = record::SyncPolicy::kRound;
  // Threads that wait for a round's sync instead of gRPC's (log_syncer.h;
  // cardref_referee --log_sync_threads); 0: gRPC's thread syncs.
  int log_sync_threads = 4;
  // Not owned; outlives the manager. Used instead of log_sync_threads
  // (tests).
  LogSyncer* log_syncer = nullptr;
  // How each match opens its log (MatchOptions::open_log); unset: the file.
  record::LogOpener open_log;
  // How long an ended match stays in memory (cardref_referee
  // --evict_after_ms); then GetMatch reads it from its log.
  absl::Duration evict_after = absl::Seconds(5);
  // Close out the log directory's interrupted matches at construction.
  bool recover_on_start = true;
  // Draws the random part of match ids; unset: the OS generator. Tests
  // rig it to make ids collide.
  std::function<absl::StatusOr<std::string>(size_t)> random_bytes;
  // CreateMatch is refused (UNAVAILABLE) while log_dir has less free space
  // than this, in MiB (disk_reserve.h); 0 = no reserve.
  int64_t min_free_disk_mb = 0;
  // Not owned; outlive the manager (docs/operations.md).
  MetricsSink* metrics = NoMetrics();
  OpsLog* ops_log = StderrOpsLog();
  // Bot credentials (bot_credentials.h; RefereeServer opens the file in
  // log_dir); none: a store in memory only.
  std::shared_ptr<BotCredentials> bot_credentials;
  // The largest latency allowance a credential may give its entrant's
  // seats (cardref_referee --max_latency_allowance_ms); 0: no maximum.
  int64_t max_latency_allowance_millis = 10'000;
};

// The file in the log directory that keeps the bot credentials' hashes.
inline constexpr char kBotCredentialsFile[] = "bot_credentials";

// Thread-safe. Owns a clock thread, stopped by the destructor.
class MatchManager {
 public:
  MatchManager(const GameRegistry* registry, ManagerOptions options);
  ~MatchManager();

  // With the retry_key of an earlier creation whose match is in memory:
  // that creation's answer again, and no new match (the same request, else
  // INVALID_ARGUMENT).
  absl::StatusOr<v1::CreateMatchResponse> CreateMatch(
      const v1::CreateMatchRequest& request);
  // Joins `match_id`, or with an empty id the oldest match of `game` that
  // has a free seat. With the retry_key of an earlier join whose match is
  // in memory: that join's answer again, and no seat taken.
  absl::StatusOr<v1::JoinMatchResponse> JoinMatch(
      const v1::JoinMatchRequest& request);
  // NOT_FOUND naming the id; FAILED_PRECONDITION for a match that is over
  // and has left memory (GetMatch still shows it).
  absl::StatusOr<std::shared_ptr<Match>> Find(const std::string& match_id);
  // GetMatch: Match::Info, with the seed withheld while another match dealt
  // from the same seed (duplicate play) is not over, since it would show
  // that match's deck orders. Not `for_organiser`, a match of a deal set
  // not yet done (deal_sets.h) shows only its id and status.
  absl::StatusOr<v1::MatchInfo> Info(const std::string& match_id,
                                     bool for_organiser = true);
  // OK if anyone may watch `match`'s public events now; FAILED_PRECONDITION
  // saying why not while a twin of its deal set is not over.
  absl::Status CheckPublic(const Match& match) ABSL_LOCKS_EXCLUDED(live_mu_);
  // The organiser closes a deal set (CloseDealSet).
  absl::StatusOr<v1::CloseDealSetResponse> CloseDealSet(
      const v1::CloseDealSetRequest& request);

  // Empty when logs are not signed.
  std::string public_key() const {
    return options_.signing_key ? options_.signing_key->public_key() : "";
  }

  // The organiser's calls (the caller's role is checked at the edge).
  absl::StatusOr<v1::ListMatchesResponse> ListMatches(
      const v1::ListMatchesRequest& request);
  absl::StatusOr<v1::MatchInfo> CancelMatch(const v1::EndMatchRequest& request);
  absl::StatusOr<v1::MatchInfo> AbortMatch(const v1::EndMatchRequest& request);
  // Match::BotEnded; INVALID_ARGUMENT for a malformed cause or detail.
  absl::StatusOr<v1::MatchInfo> ReportBotEnded(
      const v1::ReportBotEndedRequest& request);

  const GameRegistry& registry() const { return *registry_; }
  MetricsSink* metrics() const { return options_.metrics; }

  // Bot credentials and invitations (docs/bots.md, "Invitations";
  // match_manager_entrants.cc). The organiser's role is checked at the edge.
  // Issue and revoke change the credentials file first: UNAVAILABLE (and
  // nothing changed) if it cannot be written. Revoking (or replacing)
  // ends the entrant's invitation streams with PERMISSION_DENIED and closes
  // its seats in matches not over (Match::CloseSeat), so the fault policy
  // plays them.
  absl::StatusOr<v1::IssueBotCredentialResponse> IssueBotCredential(
      const v1::IssueBotCredentialRequest& request);
  absl::StatusOr<v1::RevokeBotCredentialResponse> RevokeBotCredential(
      const v1::RevokeBotCredentialRequest& request);
  v1::ListBotCredentialsResponse ListBotCredentials();
  // A WatchInvitations stream of the entrant whose credential the request
  // carries: UNAUTHENTICATED without one, PERMISSION_DENIED for one this
  // referee does not hold, NOT_FOUND for an unknown game, the board's
  // refusals (invitation_board.h). `wake` as InvitationBoard::Open.
  absl::StatusOr<std::shared_ptr<InvitationBoard::Stream>> OpenInvitations(
      const v1::WatchInvitationsRequest& request, std::function<void()> wake);
  InvitationBoard& invitations() { return invitations_; }

  // Shutting down (shutdown.h): from now on CreateMatch and JoinMatch are
  // refused with UNAVAILABLE, and invitation streams end (UNAVAILABLE).
  // Cannot be undone.
  void StopAccepting();
  // Every match this manager holds, in creation order.
  std::vector<std::shared_ptr<Match>> AllMatches();

  // What the recovery scan found at construction (one line each).
  const std::vector<RecoveredLog>& recovered() const { return recovered_; }
  // Matches held in memory (not yet evicted).
  size_t resident_matches() ABSL_LOCKS_EXCLUDED(mu_);
  // Retry keys of joins and creations remembered.
  size_t retry_keys_held() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Matches report their deadlines and ends here (leaf locks only).
  class Listener : public MatchListener {
   public:
    explicit Listener(MatchManager* manager) : manager_(manager) {}
    void DeadlineChanged(const std::string& match_id,
                         absl::Time deadline) override;
    void Ended(const std::string& match_id) override;
    void StatusChanged(const std::string& seed_commitment,
                       const std::string& deal_set_id, v1::MatchStatus from,
                       v1::MatchStatus to) override;
    void JoinsClosed(const std::string& match_id) override;

   private:
    MatchManager* manager_;
  };

  void ClockLoop();
  // Drops ended matches whose time in memory is up.
  void EvictDue(absl::Time now) ABSL_LOCKS_EXCLUDED(mu_);
  std::string LogPath(const std::string& match_id) const;
  // Draws a new match's id and creates its log empty, which claims the id.
  // An id whose log the directory holds already is passed over, not
  // refused: a referee restarted within the same second numbers its matches
  // from 1 again, and tests run many managers on one directory.
  absl::StatusOr<std::string> ClaimMatchId(absl::string_view game);
  // GetMatch for a match not in memory: cancelled ones from the index,
  // the others from their log.
  absl::StatusOr<v1::MatchInfo> ArchivedInfo(const std::string& match_id,
                                             bool for_organiser)
      ABSL_LOCKS_EXCLUDED(mu_);

  const GameRegistry* registry_;
  const ManagerOptions options_;

  std::vector<RecoveredLog> recovered_;  // set by the constructor only
  const std::shared_ptr<BotCredentials> credentials_;
  // Before matches_: a match being destroyed may still report its end.
  InvitationBoard invitations_;
  DeadlineQueue deadlines_;  // pending decision and join deadlines
  DeadlineQueue evictions_;  // when each ended match leaves memory
  Listener listener_{this};

  // Matches of this process waiting for players and in progress, kept by
  // the listener.
  MatchCaps caps_{options_.limits.max_waiting_matches,
                  options_.limits.max_matches_in_progress};
  // Waiting and in-progress matches per seed commitment: GetMatch withholds
  // a match's seed while a twin dealt from the same seed is among them.
  // A leaf lock: the listener takes it under a match's lock.
  absl::Mutex live_mu_;
  absl::flat_hash_map<std::string, int> live_by_seed_ ABSL_GUARDED_BY(live_mu_);
  int LiveWithSeed(const std::string& seed_commitment)
      ABSL_LOCKS_EXCLUDED(live_mu_);
  // Duplicate play's deal sets (deal_sets.h): a leaf lock, as above.
  DealSets deal_sets_;
  // Whether nothing about a match of `deal_set_id` but its id and status
  // may reach anyone but the organiser: its deal set is not done.
  bool IsSecret(const std::string& deal_set_id);
  // Whether its seed is withheld: secret, or another match dealt from the
  // same seed (without a deal set, the older form of twins) is in play.
  bool WithholdSeed(const std::string& deal_set_id,
                    const std::string& seed_commitment, bool self_live)
      ABSL_LOCKS_EXCLUDED(live_mu_);

  absl::Mutex mu_;
  // Hashed: every call for a match finds it here, and with 10,000 held the
  // tree's string comparisons showed in each decision's cost.
  absl::flat_hash_map<std::string, std::shared_ptr<Match>> matches_
      ABSL_GUARDED_BY(mu_);
  // Every match of this process and every recovered one, in order: the
  // index of ListMatches, kept after eviction (an id each).
  std::vector<std::string> creation_order_ ABSL_GUARDED_BY(mu_);
  // Open matches that may have a free seat, oldest first, per game: joins
  // by game take the front (full ones are dropped as they are met). Weak:
  // an evicted match is not kept alive here, and its entry is dropped when
  // the queue is compacted (whenever it has doubled since the last time).
  struct FreeSeatQueue {
    std::deque<std::weak_ptr<Match>> matches;
    size_t compact_at = 64;
  };
  std::map<std::string, FreeSeatQueue, std::less<>> free_seats_
      ABSL_GUARDED_BY(mu_);
  // Joins and match creations made with a retry_key, so that a resend
  // finds what the first one did (retry_keys.h). A resent creation must be
  // the same request: its SHA-256 is kept with the first answer.
  RetryKeys<std::monostate> join_retry_keys_ ABSL_GUARDED_BY(mu_);
  struct CreatedMatch {
    std::string request_sha256;
    v1::CreateMatchResponse response;
  };
  RetryKeys<CreatedMatch> create_retry_keys_ ABSL_GUARDED_BY(mu_);
  absl::StatusOr<v1::CreateMatchResponse> CreateNew(
      const v1::CreateMatchRequest& request,
      std::shared_ptr<Match>* created_match);
  absl::StatusOr<v1::CreateMatchResponse> CreateWithRetryKey(
      const v1::CreateMatchRequest& request);
  absl::StatusOr<v1::JoinMatchResponse> JoinNew(
      const v1::JoinMatchRequest& request,
      std::shared_ptr<Match>* joined_match);
  absl::StatusOr<v1::JoinMatchResponse> JoinWithRetryKey(
      const v1::JoinMatchRequest& request);
  // CreateMatch's part for bot credentials: each seat's latency allowance
  // (its name's entrant's), and INVALID_ARGUMENT for an invited seat whose
  // name has no credential.
  absl::StatusOr<std::vector<int64_t>> SeatAllowances(
      const v1::CreateMatchRequest& request);
  // Sends the invitations of a match just created (seats with `invite`).
  void OfferInvitations(const v1::CreateMatchRequest& request,
                        const v1::CreateMatchResponse& created,
                        int64_t decision_time_limit_millis,
                        const std::vector<int64_t>& allowances);
  // Who may join under a name (seat_table.h): the holder of `caller`'s
  // credential only under its entrant's name, anyone else under any name
  // that is no entrant's.
  NameCheck JoinNameCheck(const std::optional<BotEntrant>& caller) const;
  // Ends `entrant`'s streams and closes its seats: the response's counts.
  v1::RevokeBotCredentialResponse CloseEntrant(const BotEntrant& entrant,
                                               const std::string& why);

  // Evicted cancelled matches (their logs are removed): their MatchInfo.
  std::map<std::string, v1::MatchInfo> cancelled_ ABSL_GUARDED_BY(mu_);
  int64_t next_serial_ ABSL_GUARDED_BY(mu_) = 1;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  absl::CondVar clock_wakeup_;  // signalled when stopping_ is set
  bool accepting_ ABSL_GUARDED_BY(mu_) = true;
  std::thread clock_;
  // After everything its tasks use (the matches, the listener), so
  // destroyed before them (none unless --log_sync=round).
  std::unique_ptr<LogSyncer> own_log_syncer_;
  LogSyncer* log_syncer_ = nullptr;  // options_.log_syncer or the own one
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_MANAGER_H_
