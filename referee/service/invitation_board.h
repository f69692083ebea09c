// Who is invited where: the seats the organiser invites entrants to
// (CreateMatchRequest.seat_assignments[].invite), the entrants' open
// WatchInvitations streams, and which stream took which seat
// (docs/bots.md, "Invitations"). No gRPC here: referee/grpc's
// invitation_stream.cc writes what a Stream is due.
//
// An invitation waits in its entrant's queue until a stream of the entrant
// that plays its game has room: a stream holds at most the matches it was
// granted at once, and an entrant at most `max_invitations_per_credential`
// over all its streams. A seat counts from the moment it is sent until its
// match is over (MatchEnded); then the stream has room again. An entrant's
// seats of one match are sent together or not at all (holding some seats
// of a match while waiting for room for the others would hold them for
// nothing), in queue order: a match waits for room ahead of later ones,
// unless no stream of the entrant could ever take all its seats (then it
// is passed over, and the join deadline settles it). Each seat goes to the
// stream with the most room that plays its game (a pool of bot processes
// shares the work). A stream that closes gives its seats not yet
// joined back to the queue, for another stream of the entrant (a pool
// member that died); seats joined stay counted until their match is over.
// Invitations still queued when their match starts without them (the join
// deadline) or ends are dropped: the fault policy handles the seat.
//
// Thread-safe. Its lock is a leaf: it is taken under a match's lock
// (MatchEnded, JoinsClosed from the match manager's listener), never calls
// a match, and wakes streams only after releasing it.
#ifndef CARDREF_REFEREE_SERVICE_INVITATION_BOARD_H_
#define CARDREF_REFEREE_SERVICE_INVITATION_BOARD_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.pb.h"
#include "referee/service/metrics_sink.h"
#include "referee/service/ops_log.h"

namespace cardref::service {

class InvitationBoard {
 public:
  struct Bounds {
    // WatchInvitations streams one credential may hold open at once.
    int max_streams_per_credential = 16;
    // Seats sent to one credential's streams whose matches are not over.
    int max_invitations_per_credential = 64;
  };

  // One WatchInvitations stream, shared by the board and its writer.
  class Stream {
   public:
    // Something may be due: calls the writer's wake function (set at
    // Open) unless Detach has been called; never with the board's lock.
    void Wake() ABSL_LOCKS_EXCLUDED(wake_mu_);
    // No more wakes; waits for one in progress. Call before the writer
    // goes away.
    void Detach() ABSL_LOCKS_EXCLUDED(wake_mu_);

   private:
    friend class InvitationBoard;
    absl::Mutex wake_mu_;
    std::function<void()> wake_ ABSL_GUARDED_BY(wake_mu_);
    // The rest is guarded by the board's lock.
    std::string entrant;
    int64_t serial = 0;                     // the board's number for it
    absl::flat_hash_set<std::string> games;  // empty: every game
    int granted = 1;
    int in_flight = 0;  // seats sent to it whose match is not over
    int64_t sent = 0;
    bool open_sent = false;
    v1::InvitationsOpen open;
    std::deque<v1::Invitation> outbox;
    std::optional<absl::Status> end;  // set: the stream is to end so
    bool closed = false;              // the writer is done with it
  };

  InvitationBoard(Bounds bounds, MetricsSink* metrics, OpsLog* ops_log);

  // A stream for `entrant` (whose credential is `credential_id`), playing
  // `games` (empty: all), asking for `asked` matches at once (0: 1).
  // Granted at most the per-credential bound, and InvitationsOpen says so.
  // RESOURCE_EXHAUSTED past max_streams_per_credential; INVALID_ARGUMENT
  // for a negative `asked`. `wake` is called whenever the stream may have
  // something to send.
  absl::StatusOr<std::shared_ptr<Stream>> Open(
      const std::string& entrant, const std::string& credential_id,
      const std::vector<std::string>& games, int asked,
      std::function<void()> wake) ABSL_LOCKS_EXCLUDED(mu_);

  // What `stream` sends next: its InvitationsOpen first, then each
  // invitation once. `end` set: finish with it (nothing more is sent).
  struct Next {
    std::optional<v1::InvitationEvent> event;
    std::optional<absl::Status> end;
  };
  Next Take(Stream& stream) ABSL_LOCKS_EXCLUDED(mu_);

  // The writer is done with `stream`: its seats not yet joined go back to
  // the entrant's queue.
  void Close(const std::shared_ptr<Stream>& stream) ABSL_LOCKS_EXCLUDED(mu_);

  // The organiser invited `entrant` to `seats`: all its seats of one match
  // (they are sent together).
  void Offer(const std::string& entrant, std::vector<v1::Invitation> seats)
      ABSL_LOCKS_EXCLUDED(mu_);
  // `entrant` joined `seat` of `match_id` with its credential (invited or
  // not): the seat is the entrant's until the match is over.
  void Joined(const std::string& entrant, const std::string& match_id,
              int seat) ABSL_LOCKS_EXCLUDED(mu_);
  // The match takes no more joins (it started, or ended): its queued
  // invitations are dropped.
  void JoinsClosed(const std::string& match_id) ABSL_LOCKS_EXCLUDED(mu_);
  // The match is over: its seats no longer count. Idempotent.
  void MatchEnded(const std::string& match_id) ABSL_LOCKS_EXCLUDED(mu_);

  // The entrant's streams end with `why` (its credential was revoked or
  // replaced) and it is forgotten. Its seats in matches not over, sent,
  // joined or still queued: (match id, seat), for the caller to close.
  struct Ended {
    int streams = 0;
    std::vector<std::pair<std::string, int>> seats;
  };
  Ended EndEntrant(const std::string& entrant, const absl::Status& why)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Every stream ends with `why` (the referee shuts down).
  void EndAll(const absl::Status& why) ABSL_LOCKS_EXCLUDED(mu_);

  struct Counts {
    int streams = 0;
    int invitations = 0;  // sent or joined, match not over
    int queued = 0;
  };
  Counts CountsOf(const std::string& entrant) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // One seat of an entrant whose match is not over.
  struct Held {
    std::string entrant;
    std::shared_ptr<Stream> stream;  // the stream it was sent to, if open
    bool invited = false;            // sent by invitation (counts)
    bool joined = false;
    v1::Invitation invitation;  // to send again if its stream closes
  };
  struct Entrant {
    std::vector<std::shared_ptr<Stream>> streams;
    std::deque<v1::Invitation> queued;
    int invited = 0;  // Held entries with invited set
  };
  using SeatKey = std::pair<std::string, int>;  // match id, seat

  // Sends queued invitations of `name` to its streams with room.
  void DispatchLocked(const std::string& name, Entrant& entrant,
                      std::vector<std::shared_ptr<Stream>>* wake)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops `match_id`'s queued invitations.
  void DropQueuedLocked(const std::string& match_id, const char* why)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReportLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Log(const std::vector<OpsField>& fields);
  static void WakeAll(const std::vector<std::shared_ptr<Stream>>& streams);

  const Bounds bounds_;
  MetricsSink* const metrics_;
  OpsLog* const ops_log_;

  mutable absl::Mutex mu_;
  int64_t next_serial_ ABSL_GUARDED_BY(mu_) = 1;
  std::map<std::string, Entrant> entrants_ ABSL_GUARDED_BY(mu_);
  // Ordered, so a match's seats are adjacent.
  std::map<SeatKey, Held> held_ ABSL_GUARDED_BY(mu_);
};

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_INVITATION_BOARD_H_
