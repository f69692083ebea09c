// Work to run later on a server's threads: how a match's feed (match_feed.h)
// leaves the thread that changed the match (a bot's submission) at once.
#ifndef CARDREF_WEB_SCHEDULER_H_
#define CARDREF_WEB_SCHEDULER_H_

#include <functional>

#include "absl/time/time.h"

namespace cardref::web {

// Thread-safe. Work posted after the scheduler has stopped is dropped.
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual void Post(std::function<void()> work) = 0;
  virtual void PostAfter(absl::Duration delay, std::function<void()> work) = 0;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_SCHEDULER_H_
