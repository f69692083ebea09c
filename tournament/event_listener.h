// What an event tells an observer as it goes (the event's web page,
// web/event/): its schedule, each match as it starts and as it ends. The
// calls come from the event's threads, several at once: an implementation
// is thread-safe and returns quickly (it must not hold up a match).
#ifndef CARDREF_TOURNAMENT_EVENT_LISTENER_H_
#define CARDREF_TOURNAMENT_EVENT_LISTENER_H_

#include <map>
#include <string>
#include <vector>

#include "tournament/event_state.h"
#include "tournament/match_runner.h"
#include "tournament/schedule.h"

namespace cardref::tournament {

struct EventStart {
  const ScheduleConfig* config = nullptr;
  // This run's share of the schedule (a shard's, or all of it).
  const std::vector<ScheduledMatch>* schedule = nullptr;
  // What earlier runs of the event recorded, by match key.
  const std::map<std::string, MatchRecord>* records = nullptr;
  std::string event_dir;
  // The referee's key (hex) its logs must carry; empty: each log's own.
  std::string referee_key;
  // The web front of the event's own referee ("http://127.0.0.1:PORT"),
  // empty if it has none (EventOptions::referee_web, or --server).
  std::string referee_web;
};

class EventListener {
 public:
  virtual ~EventListener() = default;
  // Once, before any match is played; the pointers are valid during the
  // call.
  virtual void OnStart(const EventStart& start) = 0;
  // A match was created on the referee (record.outcome "started").
  virtual void OnStarted(const MatchRecord& record) = 0;
  // A match ended (or could not be played: outcome.played false).
  virtual void OnDone(const ScheduledMatch& match,
                      const MatchOutcome& outcome) = 0;
  // Every match of this run is over and the event's report and standings
  // are written (or could not be); the referee still runs.
  virtual void OnEnd() {}
};

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_EVENT_LISTENER_H_
