// Child processes of the tournament: the bots of a match (and a referee it
// starts itself). Each dies with the tournament (PR_SET_PDEATHSIG), so a
// killed event leaves no bot behind.
#ifndef CARDREF_TOURNAMENT_BOT_PROCESS_H_
#define CARDREF_TOURNAMENT_BOT_PROCESS_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cardref::tournament {

// The user bots run as (--bot_user), resolved once.
struct RunAs {
  bool set = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

struct ChildSpec {
  std::vector<std::string> argv;
  // Set in the child's environment, over the inherited one. The organiser
  // credential and any inherited CARDREF_JOIN_TICKET and
  // CARDREF_BOT_CREDENTIAL are always removed.
  std::vector<std::pair<std::string, std::string>> env;
  std::string stderr_path;  // stdout and stderr go here (created, 0600)
  RunAs user;
  // The most bytes the child may write to any file, its stderr file
  // included (RLIMIT_FSIZE, soft and hard, so it cannot raise it): past it
  // the kernel sends SIGXFSZ, which ends it. 0: no limit.
  uint64_t max_output_bytes = 0;
  // The most resident memory the child and its descendants may hold
  // together, and the most processes and threads they may run (MeasureTree):
  // Poll() kills it past either. 0: no limit.
  uint64_t max_memory_bytes = 0;
  int64_t max_tasks = 0;
};

class ChildProcess {
 public:
  // Starts `spec`. A program that cannot be executed still gives a child,
  // which exits with status 127 after writing why to its stderr file.
  // nullopt only if fork() or opening the stderr file fails.
  static std::optional<ChildProcess> Start(const ChildSpec& spec);

  pid_t pid() const { return pid_; }
  // Reaps the child if it has exited; true once it has. A child past its
  // memory or task limit is killed (with its process group) here.
  bool Poll();
  bool exited() const { return exited_; }
  // SIGKILL, then waits for it.
  void Kill();
  // "exit status 3", "killed by signal 9", "running"; SIGXFSZ says that
  // the child passed its output limit, and a child killed for its memory
  // or its tasks says how much it had.
  std::string Describe() const;
  // Killed for passing its memory or task limit (by Poll or Kill).
  bool killed_for_a_limit() const { return !limit_passed_.empty(); }
  // The limit that ended it, as the sandbox names them (outcome.h):
  // "memory_limit", "process_limit", "output_limit" (SIGXFSZ); empty if
  // none did.
  std::string limit_name() const;
  bool succeeded() const;
  // waitpid()'s status once it has exited.
  int wait_status() const { return status_; }
  // Ended by Kill() while it ran (not by a limit).
  bool killed_by_us() const { return killed_by_us_ && limit_passed_.empty(); }
  // The last `bytes` bytes of the stderr file (only those are read).
  std::string StderrTail(size_t bytes = 800) const;

 private:
  // Waits for the child (`block`: until it exits); true once it has.
  bool Reap(bool block);
  // SIGKILL to its process group and to it, then waits for it.
  void Stop();

  pid_t pid_ = -1;
  bool exited_ = false;
  int status_ = 0;
  bool killed_by_us_ = false;
  uint64_t max_memory_bytes_ = 0;
  int64_t max_tasks_ = 0;
  std::string limit_passed_;  // which limit it was killed for, and by how much
  std::string limit_name_;    // its name (limit_name())
  std::string stderr_path_;
};

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_BOT_PROCESS_H_
