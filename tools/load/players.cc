// What a player counts of one submission (players.h), shared by both
// clients.
#include "tools/load/players.h"

namespace cardref::load {

bool CountSubmission(grpc::StatusCode code, const SendTime& sent,
                     int64_t deadline_unix_millis, Clock::time_point done,
                     Tally* tally) {
  const bool in_time = sent.InTimeFor(deadline_unix_millis);
  if (!in_time) ++tally->late_answers;
  if (code == grpc::StatusCode::OK) {
    ++tally->decisions;
    tally->latencies_us.push_back(
        std::chrono::duration_cast<std::chrono::microseconds>(done -
                                                              sent.steady)
            .count());
    return true;
  }
  if (code == grpc::StatusCode::DEADLINE_EXCEEDED) {
    ++tally->timeouts;
    if (in_time) ++tally->false_timeouts;
    return true;
  }
  return false;
}

}  // namespace cardref::load
