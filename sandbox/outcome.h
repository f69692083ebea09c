// Why a sandboxed bot ended, as a typed result the runner can log: a bot
// ended by a limit (memory, processes, CPU time, wall time, output) is told
// apart from one that crashed or exited, from the cgroup's counters, the
// clocks and the exit status. Pure functions.
#ifndef CARDREF_SANDBOX_OUTCOME_H_
#define CARDREF_SANDBOX_OUTCOME_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "sandbox/cgroup.h"
#include "sandbox/limits.h"

namespace cardref::sandbox {

enum class EndReason {
  kExited,         // it ended by itself: exit_code says how
  kCrashed,        // a signal it did not get from the sandbox (SIGSEGV, ...)
  kMemoryLimit,    // the OOM killer ended one of its processes
  kProcessLimit,   // a fork or thread was refused at max_tasks
  kCpuTimeLimit,   // its processes used their CPU time
  kWallTimeLimit,  // it ran past its wall time
  kOutputLimit,    // it wrote past max_output_bytes (SIGXFSZ)
  kStopped,        // the runner ended it (its match or event ended)
  kStartFailed,    // the sandbox could not start it (see its output)
};

// "exited", "crashed", "memory_limit", "process_limit", "cpu_time_limit",
// "wall_time_limit", "output_limit", "stopped", "start_failed".
absl::string_view EndReasonName(EndReason reason);
// One of the four limits and output: the bot's fault, not a crash.
bool IsLimit(EndReason reason);

struct SandboxUsage {
  absl::Duration wall = absl::ZeroDuration();
  CgroupCounters counters;
};

struct SandboxOutcome {
  EndReason reason = EndReason::kExited;
  int exit_code = -1;  // kExited: its status; -1 otherwise
  int signal = 0;      // the signal that ended it, when one did
  SandboxUsage usage;
  SandboxLimits limits;  // what it was held to
  // "exited with status 3", "crashed: signal 11 (Segmentation fault)",
  // "ended at its memory limit of 64.0 MiB: the OOM killer ended 1 of its
  // processes; it held up to 64.0 MiB", ..., then what it used.
  std::string Describe() const;
};

// What the sandbox knows when a bot has ended.
struct EndFacts {
  // bwrap's exit status (waitpid). bwrap exits with the bot's status, or
  // 128 + the signal that ended the bot.
  int wait_status = 0;
  // bwrap reported the bot's start (--json-status-fd "child-pid") and,
  // at its end, the bot's status ("exit-code").
  bool started = false;
  std::optional<int> reported_exit_code;
  // The sandbox ended it, and why (a limit it saw passed, or kStopped).
  std::optional<EndReason> ended_by_sandbox;
  SandboxUsage usage;
  SandboxLimits limits;
};

SandboxOutcome Attribute(const EndFacts& facts);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_OUTCOME_H_
