// cardref_load's random players: what a run plays and what it counts.
// Two clients play the same pattern (create a match, join every seat,
// watch each seat's stream, answer each decision at once with a random
// legal action): a thread per seat with blocking calls (load_main.cc), and
// gRPC's callback API on a few threads (PlayWithCallbacks), which keeps
// thousands of seats from starving each other of the client's CPU.
#ifndef CARDREF_TOOLS_LOAD_PLAYERS_H_
#define CARDREF_TOOLS_LOAD_PLAYERS_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cardref::load {

using Clock = std::chrono::steady_clock;

// What the players of one run counted. Decisions answered after the run's
// end are not counted.
struct Totals {
  std::mutex mu;
  std::vector<int64_t> latencies_us;  // SubmitAction round trips
  int64_t decisions = 0;
  int64_t timeouts = 0;  // submissions refused with DEADLINE_EXCEEDED
  int64_t errors = 0;
  int64_t observations = 0;       // read from the seats' streams
  int64_t observation_bytes = 0;  // their serialized size
  std::string first_error;
  // The matches the players were in when the run stopped: still in
  // progress at the referee until aborted (AbortLeftovers).
  std::vector<std::string> left_matches;

  // Adds one seat's counts.
  void AddSeat(int64_t seat_decisions, int64_t seat_timeouts,
               int64_t seat_observations, int64_t seat_bytes,
               const std::vector<int64_t>& seat_latencies_us) {
    std::lock_guard<std::mutex> lock(mu);
    decisions += seat_decisions;
    timeouts += seat_timeouts;
    observations += seat_observations;
    observation_bytes += seat_bytes;
    latencies_us.insert(latencies_us.end(), seat_latencies_us.begin(),
                        seat_latencies_us.end());
  }
};

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

}  // namespace cardref::load

#endif  // CARDREF_TOOLS_LOAD_PLAYERS_H_
