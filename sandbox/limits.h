// What a sandboxed bot may use. The defaults are cardref_tournament's
// (--max_bot_memory_mb, --max_bot_threads, --max_bot_output_mb).
#ifndef CARDREF_SANDBOX_LIMITS_H_
#define CARDREF_SANDBOX_LIMITS_H_

#include <cstdint>

#include "absl/time/time.h"

namespace cardref::sandbox {

struct SandboxLimits {
  // Memory of all its processes together (cgroup: resident memory, page
  // cache and its scratch's files; swap not allowed where the machine
  // counts it). Past it the kernel's OOM killer ends a process and the
  // sandbox ends the rest. 0: no limit.
  uint64_t memory_bytes = uint64_t{2048} << 20;
  // Processes and threads together; a fork past it fails (EAGAIN) and the
  // sandbox ends the bot. 0: no limit.
  int64_t max_tasks = 1024;
  // CPU time of all its processes together, and time since its start;
  // checked at every Poll(). Infinite: no limit.
  absl::Duration cpu_time = absl::InfiniteDuration();
  absl::Duration wall_time = absl::InfiniteDuration();
  // The size of its scratch folder (a tmpfs, the only place it may write;
  // its files count as its memory too). Past it: ENOSPC.
  uint64_t scratch_bytes = uint64_t{64} << 20;
  // The most bytes it may write to one file, its output file included
  // (RLIMIT_FSIZE): past it the kernel ends it with SIGXFSZ. 0: no limit.
  uint64_t max_output_bytes = uint64_t{4} << 20;
};

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_LIMITS_H_
