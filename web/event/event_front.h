// The event's web page (docs/web.md, "The event page"), served by
// `cardref_tournament --http_port=P`: the event's matches in progress and
// finished with links to each match's page on the event's own referee, the
// standings with intervals as deal sets finish, faults per bot, and the
// same as JSON (/api/event, /api/standings). It is the event's listener
// (tournament/event_listener.h).
#ifndef CARDREF_WEB_EVENT_EVENT_FRONT_H_
#define CARDREF_WEB_EVENT_EVENT_FRONT_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "tournament/event_listener.h"
#include "web/event/event_board.h"
#include "web/http_server.h"

namespace cardref::web {

// The analyzer's ratings JSON of some logs (tournament::ComputeStandings by
// default), or an error.
using StandingsFn = std::function<absl::StatusOr<std::string>(
    const std::vector<std::string>& logs, const std::string& referee_key)>;

struct EventFrontOptions {
  HttpServerOptions http;  // host, port (0: a free one)
  // Standings are recomputed (from every finished log of a deal set that
  // is over) on a thread of their own, at most one at a time and at most
  // once per interval, when a deal set completes.
  absl::Duration standings_interval = absl::Seconds(1);
  StandingsFn standings;  // empty: tournament::ComputeStandings
};

// Thread-safe.
class EventFront : public tournament::EventListener {
 public:
  // UNAVAILABLE if the address cannot be bound.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<EventFront>> Start(
      EventFrontOptions options);
  ~EventFront() override;

  int port() const { return server_->port(); }
  const EventBoard& board() const { return board_; }

  void OnStart(const tournament::EventStart& start) override;
  void OnStarted(const tournament::MatchRecord& record) override;
  void OnDone(const tournament::ScheduledMatch& match,
              const tournament::MatchOutcome& outcome) override;
  void OnEnd() override;

  // Blocks until the standings count every log of the deal sets over now
  // (tests); false after `timeout`.
  bool WaitForStandings(absl::Duration timeout);

 private:
  class Routes;
  explicit EventFront(EventFrontOptions options);
  void StandingsLoop();
  void WantStandings();
  bool WantedOrStopping() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  EventFrontOptions options_;
  EventBoard board_;
  absl::Mutex mu_;
  bool wanted_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool computing_ ABSL_GUARDED_BY(mu_) = false;
  std::thread standings_thread_;
  std::unique_ptr<Routes> routes_;
  std::unique_ptr<HttpServer> server_;  // stopped first
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_EVENT_EVENT_FRONT_H_
