#include "referee/service/shutdown.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/time/clock.h"

namespace cardref::service {

namespace {

constexpr char kReason[] = "the referee shut down (SIGTERM/SIGINT)";
// How often the grace period checks whether every game has ended.
constexpr absl::Duration kPoll = absl::Milliseconds(20);

}  // namespace

ShutdownSummary ShutDownMatches(MatchManager& manager, absl::Duration grace) {
  manager.StopAccepting();
  ShutdownSummary summary;
  // No join can come any more, so a waiting match can never start.
  std::vector<std::shared_ptr<Match>> playing;
  for (const std::shared_ptr<Match>& m : manager.AllMatches()) {
    const v1::MatchStatus status = m->status();
    if (status == v1::MATCH_STATUS_WAITING_FOR_PLAYERS) {
      m->ShutDown(kReason);
      ++summary.aborted;
    } else if (status == v1::MATCH_STATUS_IN_PROGRESS) {
      playing.push_back(m);
    }
  }
  const absl::Time end = absl::Now() + grace;
  for (;;) {
    bool any = false;
    for (const std::shared_ptr<Match>& m : playing) {
      any |= m->status() == v1::MATCH_STATUS_IN_PROGRESS;
    }
    if (!any || absl::Now() >= end) break;
    absl::SleepFor(std::min(kPoll, end - absl::Now()));
  }
  for (const std::shared_ptr<Match>& m : playing) {
    if (m->status() == v1::MATCH_STATUS_IN_PROGRESS) {
      m->ShutDown(kReason);
      ++summary.aborted;
    } else if (m->status() == v1::MATCH_STATUS_FINISHED) {
      ++summary.finished_in_grace;
    }
  }
  return summary;
}

}  // namespace cardref::service
