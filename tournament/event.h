// One tournament event from start to standings: resolves the games on the
// referee, builds the schedule, skips what the event folder says is
// played, plays the rest K at a time and writes the report and standings.
#ifndef CARDREF_TOURNAMENT_EVENT_H_
#define CARDREF_TOURNAMENT_EVENT_H_

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/status.h"

#include "tournament/bot_launcher.h"
#include "tournament/event_listener.h"
#include "tournament/match_runner.h"
#include "tournament/schedule.h"

namespace cardref::tournament {

struct EventOptions {
  ScheduleConfig schedule;  // games may leave players 0: the game's default
  MatchOptions match;       // server and organiser token filled by RunEvent
  std::string out_dir;
  std::string shard;  // "I/N" or ""
  int concurrency = 1;
  std::string server;  // empty: start a referee of our own
  std::string referee_binary;
  std::optional<std::string> organiser_token;  // for --server
  // "event": every bot started once (a pool of `bot_pool` processes) and
  // handed its seats by invitation; "match": a process per seat per match;
  // empty: "event" for invitable bots (BotSpec::invitable), "match" for
  // the others (docs/tournament.md, "Bot lifetime").
  std::string bot_lifetime;
  int bot_pool = 1;
  // Remote entrants (BotSpec::remote): how long to wait for them to
  // connect, and the latency allowance their credentials give.
  double remote_wait_s = 600;
  int64_t remote_latency_allowance_ms = 0;
  // "ELO0,ELO1[,ALPHA,BETA]": a two-bot event stops scheduling once the
  // SPRT on its deal sets accepts (sprt_stop.h); empty: no early stop.
  std::string sprt;
  // Every bot the event starts runs in the sandbox (docs/sandbox.md: its
  // own namespaces, cgroup limits, a CPU share, no way out but its
  // referee's socket); needs root and uids of its own (match.uid_pool).
  // False: plain child processes (--trust_bots).
  bool sandbox = false;
  // What each bot may read in the sandbox, by bot name; a bot not named
  // sees the folder of its program (or script).
  BotFolders bot_folders;
  // Told of the schedule and of every match as it starts and ends (the
  // event's web page); not owned; null: none.
  EventListener* listener = nullptr;
  // The event's own referee serves its match pages too (--http_port=0 on
  // loopback): the listener is given its address to link to.
  bool referee_web = false;
};

// Exit codes of cardref_tournament.
inline constexpr int kEventComplete = 0;  // every match finished
inline constexpr int kEventError = 1;     // the event could not run
inline constexpr int kEventUsage = 2;
inline constexpr int kEventIncomplete =
    3;  // it ran; some matches did not finish

// Everything about the options that can be checked before the event's
// folder or a referee exists (RunEvent does so first): the schedule's shape,
// --shard, and the match's limits; with a referee of this build, the
// games, player counts and --params too. INVALID_ARGUMENT naming the flag.
// RunEvent checks the games of a --server referee next, also before the
// folder exists; those of another build's --referee_bin once it runs.
[[nodiscard]] absl::Status CheckEventOptions(const EventOptions& options);

// Runs the event; progress lines go to `progress`.
int RunEvent(EventOptions options, std::FILE* progress);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_EVENT_H_
