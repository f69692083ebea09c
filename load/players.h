// cardref_load's random players: what a run plays and what it counts.
// Two clients play the same pattern (create a match, join every seat,
// watch each seat's stream, answer each decision at once with a random
// legal action): a thread per seat with blocking calls (PlayWithThreads), and
// gRPC's callback API on a few threads (PlayWithCallbacks), which keeps
// thousands of seats from starving each other of the client's CPU. A third
// plays each seat on one PlaySeat stream, as the example bots do
// (PlayOnSeatStreams).
#ifndef CARDREF_LOAD_PLAYERS_H_
#define CARDREF_LOAD_PLAYERS_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "cardref/v1/referee.grpc.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/status.h"

namespace cardref::load {

using Clock = std::chrono::steady_clock;

// What one seat counted, or (Totals) all of a run's seats. Decisions
// answered after the run's end are not counted.
struct Tally {
  std::vector<int64_t> latencies_us;  // SubmitAction round trips
  int64_t decisions = 0;
  int64_t timeouts = 0;  // submissions refused with DEADLINE_EXCEEDED
  // Of those, the submissions that left the player before the deadline its
  // observation told it: a timeout charged to a bot that answered in time
  // (the target is none). The told deadline is never later than the
  // real one (DecisionClock::DeadlineIfSeen), so every one counted here was
  // lost after the player's call: in its gRPC and kernel (on one machine,
  // sharing the CPU with the referee), the network or the referee. (Both
  // times are wall clocks: against a --server on another machine they mean
  // something only if the two clocks agree.)
  int64_t false_timeouts = 0;
  // Submissions that left after the told deadline, whatever the referee
  // answered: the player itself was late (on one machine, the load client
  // waiting for the CPU).
  int64_t late_answers = 0;
  int64_t observations = 0;       // read from the seats' streams
  int64_t observation_bytes = 0;  // their serialized size

  void Add(const Tally& seat) {
    decisions += seat.decisions;
    timeouts += seat.timeouts;
    false_timeouts += seat.false_timeouts;
    late_answers += seat.late_answers;
    observations += seat.observations;
    observation_bytes += seat.observation_bytes;
    latencies_us.insert(latencies_us.end(), seat.latencies_us.begin(),
                        seat.latencies_us.end());
  }
};

// The wall-clock time a submission leaves, to hold against the deadline
// the observation told (Unix milliseconds, 0: none).
struct SendTime {
  Clock::time_point steady;
  int64_t unix_micros;
  static SendTime Now() {
    return {Clock::now(),
            std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count()};
  }
  bool InTimeFor(int64_t deadline_unix_millis) const {
    return deadline_unix_millis <= 0 ||
           unix_micros <= deadline_unix_millis * 1000;
  }
};

// Counts one SubmitAction sent at `sent` for a decision whose observation
// told `deadline_unix_millis`, answered with `code` at `done`. Returns
// false for an outcome that is none of the counted ones (an error for the
// caller to report).
bool CountSubmission(grpc::StatusCode code, const SendTime& sent,
                     int64_t deadline_unix_millis, Clock::time_point done,
                     Tally* tally);

// How long past the run's end a call may wait for its answer: a server
// that stops answering (hung, stopped, its network gone) must not hold the
// run for ever. 10 s unless SetAnswerGrace (cardref_load --answer_grace_s)
// says otherwise, before any call.
std::chrono::seconds AnswerGrace();
void SetAnswerGrace(std::chrono::seconds grace);

// Gives `context` its deadline: AnswerGrace() past the run's `end`.
void SetAnswerDeadline(Clock::time_point end, grpc::ClientContext* context);

// True for a call that ended at `done` on the deadline SetAnswerDeadline
// gave it (not on the referee's own DEADLINE_EXCEEDED, a timeout, which
// comes at once): the server never answered.
bool Unanswered(const grpc::Status& status, Clock::time_point end,
                Clock::time_point done);

// Match slots that share one connection. A slot holds at most a stream and
// a call per seat (5 seats: 10), so 8 slots stay under the referee's
// default of 100 streams per connection (Limits::max_streams_per_connection);
// past that, calls would wait behind streams that end only with the match.
inline constexpr int kSlotsPerConnection = 8;

// The channel of match slot `slot`: a connection of its own group of
// kSlotsPerConnection slots (gRPC shares one connection between channels
// with equal arguments; the group number makes them differ).
std::shared_ptr<grpc::Channel> SlotChannel(const std::string& address,
                                           int slot);

// Adds the organiser's bearer `token` to `context` (none if empty).
void AddBearer(const std::string& token, grpc::ClientContext* context);

// A run's counts.
struct Totals : Tally {
  std::mutex mu;
  int64_t errors = 0;
  // Calls the server had not answered AnswerGrace() after the run's end.
  int64_t unanswered = 0;
  std::string first_error;
  // The matches the players were in when the run stopped: still in
  // progress at the referee until aborted (AbortLeftovers).
  std::vector<std::string> left_matches;

  // Adds one seat's counts.
  void AddSeat(const Tally& seat) {
    std::lock_guard<std::mutex> lock(mu);
    Add(seat);
  }
  void AddUnanswered() {
    std::lock_guard<std::mutex> lock(mu);
    ++unanswered;
  }
  // Counts an error; the first one's `what` and message are kept.
  void AddError(const std::string& what, const grpc::Status& status);
};

// Joins `seat` of `match_id` as "load<seat>" with a blocking call, its
// answer due AnswerGrace() after the run's `end`; a call left unanswered
// is counted in `totals`.
grpc::Status JoinSeat(v1::Referee::Stub& stub, const std::string& match_id,
                      int seat, Clock::time_point end, Totals* totals,
                      v1::JoinMatchResponse* me);

struct PlayOptions {
  std::string address;
  std::string token;  // organiser token for CreateMatch; empty: none
  std::string game;
  int64_t limit_ms = 0;
  uint64_t seed = 1;
  bool omit_observation = true;
  // The slots start their first match spread over this long (0: at once),
  // as a tournament runner starts matches, not all in the same instant.
  double ramp_seconds = 0;
};

// Plays `matches` concurrent match slots (each starts a new match when its
// last one ends) for `seconds` with the callback client, into `totals`.
void PlayWithCallbacks(const PlayOptions& options, int matches,
                       double seconds, Totals* totals);

// As PlayWithCallbacks, with a thread per seat and blocking calls
// (thread_per_seat_players.cc): watching its observations and submitting
// its actions, or playing it on one PlaySeat stream.
void PlayWithThreads(const PlayOptions& options, int matches, double seconds,
                     Totals* totals);
void PlayOnSeatStreams(const PlayOptions& options, int matches,
                       double seconds, Totals* totals);

}  // namespace cardref::load

#endif  // CARDREF_LOAD_PLAYERS_H_
