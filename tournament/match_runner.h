// Plays one scheduled match: creates it on the referee, starts one bot
// process per seat, watches both, and ends the match if its bots cannot
// (CancelMatch before it started, AbortMatch after), so no match is ever
// left open for a stranger to join.
#ifndef CARDREF_TOURNAMENT_MATCH_RUNNER_H_
#define CARDREF_TOURNAMENT_MATCH_RUNNER_H_

#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cardref/v1/referee.grpc.pb.h"
#include "tournament/bot_launcher.h"
#include "tournament/bot_process.h"
#include "tournament/event_state.h"
#include "tournament/schedule.h"
#include "tournament/uid_pool.h"

namespace cardref::tournament {

struct MatchOptions {
  std::string server;  // what bots are told to connect to
  std::optional<std::string> organiser_token;
  std::string params;  // name=value,... for every game that has them
  int64_t decision_time_limit_ms = 5000;
  // Every seat must be taken by then, else the match is cancelled.
  double join_timeout_s = 30;
  // Wall-clock budget of a whole match; past it, the match is aborted.
  double match_budget_s = 600;
  // After the match ends, how long bots may take to exit before SIGKILL.
  double exit_grace_s = 5;
  // The most MiB a bot may write to its stderr file (or any file) in one
  // match; past it the kernel ends the bot (ChildSpec::max_output_bytes).
  int max_bot_output_mb = 4;
  // The most MiB of resident memory each bot may hold with its children
  // (ChildSpec::max_memory_bytes).
  int max_bot_memory_mb = 2048;
  // The most processes and threads each bot may run with its children
  // (ChildSpec::max_tasks).
  int max_bot_threads = 1024;
  // The most CPU time each bot may use in one match (in the sandbox only);
  // past it the sandbox ends the bot. 0: no limit.
  double max_bot_cpu_s = 0;
  std::string bot_output_dir;  // stderr files: <key>.seat<N>.stderr
  RunAs run_as;
  // If set, a uid of its own per bot (--bot_uids) instead of run_as.
  UidPool* uid_pool = nullptr;
  // How bots are started: in the sandbox or as plain child processes
  // (bot_launcher.h). Null: plain child processes. Not owned.
  const BotLauncher* launcher = nullptr;
  // The name of a bot that is started by hand (under a debugger, say)
  // instead of by the runner: for each of its seats the runner writes the
  // seat's environment (CARDREF_SERVER, CARDREF_MATCH_ID, CARDREF_SEAT,
  // CARDREF_PLAYER_NAME, CARDREF_JOIN_TICKET) to `by_hand_env` (mode 0600),
  // prints to `by_hand_out` the command to start it, and waits up to
  // kByHandJoinTimeoutS for it to join. Empty: every bot is started here.
  std::string by_hand;
  std::string by_hand_env;
  std::FILE* by_hand_out = stdout;
  // Bots taken by invitation (--bot_lifetime=event, remote entrants:
  // bot_pool.h): their seats are invited on the referee
  // (SeatAssignment.invite, with the seat's CARDREF_MATCH_SEED as
  // match_seed) and no process is started for them. A match whose every
  // seat is invited carries the fault policy of cardref_referee's defaults
  // with a join deadline of join_timeout_s, so the referee settles a seat
  // its bot never joins (absent, logged), and the runner's own cancel comes
  // kInvitedJoinMarginS later; a match with processes too is cancelled at
  // join_timeout_s as any other.
  std::set<std::string> invited_bots;
  // Called once the match exists on the referee, before any bot starts,
  // with outcome "started" (the event records it, so that a killed run's
  // match is found again). An error ends the match before it starts.
  std::function<absl::Status(const MatchRecord&)> on_started;
};

// How long a seat of a bot started by hand waits for it to join.
inline constexpr double kByHandJoinTimeoutS = 600;
// After the referee's join deadline of a match with invited seats, how long
// the runner waits before it cancels the match itself.
inline constexpr double kInvitedJoinMarginS = 5;

// What one seat's bot did, for the report.
struct SeatOutcome {
  int seat = 0;
  std::string bot;
  std::string exit;         // RunningBot::Describe()
  // How its bot ended (RunningBot::end(): "exited", "crashed", "stopped",
  // "memory_limit", ...); empty for a seat without a process of ours.
  std::string end;
  // The limit that ended its bot (RunningBot::limit()), or empty. Such a
  // bot is at fault, and the referee was told (ReportBotEnded).
  std::string limit;
  std::string stderr_tail;  // only when the bot failed
  bool failed = false;
  // What the referee had to do for the seat (MatchInfo.seat_faults): a bot
  // that exits 0 may still have timed out, or been made absent.
  cardref::v1::SeatFaults faults;
};

// A seat's faults in words ("6 timeouts, made absent, 851 decisions played
// by the referee"); empty when it had none.
std::string DescribeFaults(const cardref::v1::SeatFaults& faults);

struct MatchOutcome {
  MatchRecord record;
  // False when the referee could not be reached to create the match, or
  // stayed at its caps for the match's budget: it is not recorded, so
  // running the event again plays it.
  bool played = true;
  std::vector<SeatOutcome> seats;
  cardref::v1::MatchInfo info;  // the referee's last word on the match
  // Set when the creation was given up because its answers were lost
  // (UNAVAILABLE or the call's deadline): the request, with its retry key.
  // The referee may have made the match; SettleLostCreations ends it.
  std::optional<cardref::v1::CreateMatchRequest> lost_creation;
};

// Plays `match` of `config`; never throws, never blocks past the budget.
MatchOutcome RunMatch(cardref::v1::Referee::Stub& stub,
                      const cardref::v1::GameInfo& game_info,
                      const ScheduleConfig& config, const ScheduledMatch& match,
                      const std::string& secret, const MatchOptions& options);

// Ends `match_id` on the referee so that no one can join it later:
// CancelMatch, or AbortMatch if it has started. The referee's last word on
// it, or nullopt if neither went through (the match is over or gone, or the
// referee is unreachable).
std::optional<cardref::v1::MatchInfo> EndOnReferee(
    cardref::v1::Referee::Stub& stub, const MatchOptions& options,
    const std::string& match_id, const std::string& reason);

// What SettleLostCreations did.
struct SettledCreations {
  int ended = 0;      // matches the referee made for them, now ended
  int unchecked = 0;  // the referee did not answer: they may still wait
};

// Sends each lost creation again, with its retry key, and ends the match
// the referee names. A creation the referee took gets its match back (the
// key makes no second one); one it never received makes its match now.
// Either way no match is left waiting on the referee for bots that will
// never come (the tournament sets no join deadline of its own).
SettledCreations SettleLostCreations(
    cardref::v1::Referee::Stub& stub,
    const std::vector<cardref::v1::CreateMatchRequest>& creations,
    const MatchOptions& options);

// Sets name=value pairs of `params` on `request` for the parameters the
// game has, typed by its parameter table. INVALID_ARGUMENT on a malformed
// pair or a value of the wrong type.
[[nodiscard]] absl::Status AddParams(const cardref::v1::GameInfo& info,
                                     const std::string& params,
                                     cardref::v1::CreateMatchRequest* request);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_MATCH_RUNNER_H_
