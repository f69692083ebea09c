// Long-lived bot processes of an event (--bot_lifetime=event; docs/
// tournament.md, "Bot lifetime"): each such bot gets a bot credential on
// the referee (issued by the tournament, as the organiser) and a pool of
// processes, started once for the whole event through the same path as a
// match's bots (bot_process.h: its user, limits and output file), each
// holding one WatchInvitations stream. In the sandbox (PoolOptions::
// launcher) each process is a sandboxed bot like a match's, with its
// memory, task and output limits, a CPU share and no CPU-time limit (it
// lives as long as the event). Matches then invite the bot's seats
// (MatchOptions::invited) instead of starting processes. A process that
// exits is started again, at most kMaxPoolRestarts times; remote entrants
// (bots on their authors' machines) get a credential and no process.
#ifndef CARDREF_TOURNAMENT_BOT_POOL_H_
#define CARDREF_TOURNAMENT_BOT_POOL_H_

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "cardref/v1/referee.grpc.pb.h"
#include "tournament/bot_launcher.h"
#include "tournament/bot_process.h"
#include "tournament/schedule.h"
#include "tournament/uid_pool.h"

namespace cardref::tournament {

// Starts of one pool process after the first, before it is given up.
inline constexpr int kMaxPoolRestarts = 3;

// One bot taken by invitation.
struct PooledBot {
  std::string name;
  std::vector<std::string> command;  // empty: a remote entrant (no process)
  int processes = 1;
  int max_matches = 1;  // each process's, at once
};

struct PoolOptions {
  std::string server;  // what the processes connect to
  // How the processes are started: null, plain child processes.
  const BotLauncher* launcher = nullptr;
  std::optional<std::string> organiser_token;
  std::vector<std::string> games;   // CARDREF_GAMES
  std::string bot_output_dir;       // <name>.pool<i>.stderr
  RunAs run_as;
  UidPool* uid_pool = nullptr;      // a uid of its own per process
  uint64_t max_output_bytes = 0;    // per process, for its whole life
  uint64_t max_memory_bytes = 0;
  int64_t max_tasks = 0;
  // How long the pools may take to open their invitation streams (remote
  // entrants: `remote_wait_s`).
  double ready_timeout_s = 30;
  double remote_wait_s = 600;
  // Remote entrants' credentials are written here (mode 0600), one file
  // per entrant, for the organiser to hand over.
  std::string credentials_dir;
  int64_t remote_latency_allowance_ms = 0;
};

class BotPools {
 public:
  // Issues each bot's credential (a new one, replacing any: a resumed
  // event's old processes are gone; a remote entrant keeps the one it has),
  // starts the processes and waits until every bot has all its streams
  // open. UNAVAILABLE naming the bot, with its process's output, if one
  // does not in time (it may not take invitations: --bot_lifetime=match).
  static absl::StatusOr<std::unique_ptr<BotPools>> Start(
      cardref::v1::Referee::Stub& stub, std::vector<PooledBot> bots,
      PoolOptions options, std::FILE* progress);
  // Stop().
  ~BotPools();

  // Kills every process and revokes every credential the pools issued to
  // a process (a remote entrant's stays, for its next event). Idempotent.
  void Stop();

  // "heuristic: 3 processes, 3 starts; random: ..." for the progress.
  std::string Describe() const;
  // Starts of every process of `bot` (the first included).
  int Starts(const std::string& bot) const;

 private:
  struct Process {
    int bot = 0;
    int index = 0;
    std::unique_ptr<RunningBot> child;  // null: it could not be started
    std::string start_error;            // why not
    std::unique_ptr<UidLease> lease;
    int starts = 0;
    bool given_up = false;
  };
  BotPools(cardref::v1::Referee::Stub& stub, std::vector<PooledBot> bots,
           PoolOptions options, std::FILE* progress)
      : stub_(stub),
        bots_(std::move(bots)),
        options_(std::move(options)),
        progress_(progress) {}

  absl::Status Issue(int bot, std::vector<std::string>* credentials);
  void Launch(Process& p) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Restarts exited processes; runs on watcher_ until Stop.
  void Watch();
  // The referee's entrants (ListBotCredentials, resent while it fails).
  absl::StatusOr<cardref::v1::ListBotCredentialsResponse> ListEntrants();
  // Open streams per entrant, from ListBotCredentials.
  absl::StatusOr<std::vector<int>> Streams();

  cardref::v1::Referee::Stub& stub_;
  const std::vector<PooledBot> bots_;
  const PoolOptions options_;
  const BotLauncher plain_;  // when options_.launcher is null
  std::FILE* const progress_;
  std::vector<std::string> credentials_;  // by bot; set before any start

  mutable absl::Mutex mu_;
  std::vector<Process> processes_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread watcher_;
};

// The program words that make a bot the project's own example of a bot
// that takes invitations (cardref_bot, docs/examples/invited_bot*): the
// default lifetime of such a bot is the event's.
bool IsKnownInvitableBot(const std::vector<std::string>& command);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_POOL_H_
