// Starting a process the way a sandbox needs it: in its cgroups from its
// first instruction, as a uid of its own for good, with nothing of the
// runner's (descriptors, ignored or blocked signals, environment) but what
// it is given, and ended with the runner's thread that started it.
#ifndef CARDREF_SANDBOX_SPAWN_H_
#define CARDREF_SANDBOX_SPAWN_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cardref::sandbox {

struct SpawnPlan {
  std::vector<std::string> argv;  // argv[0]: the program's path
  std::vector<std::string> env;   // "NAME=value", the whole environment
  // cgroup.procs files open for writing: the child writes "0" to each
  // before anything else.
  std::vector<int> join_fds;
  // Descriptors passed on (their close-on-exec flag cleared); every other
  // one above 2 is closed at exec.
  std::vector<int> keep_fds;
  int output_fd = -1;  // its stdout and stderr
  int stdin_fd = -1;   // -1: none
  uint64_t max_output_bytes = 0;  // RLIMIT_FSIZE; 0: none
  uid_t uid = 0;
  gid_t gid = 0;
};

// Forks and executes. The child's own failures before exec (joining the
// cgroups, the limit, the uid, exec itself) end it with status 125 and a
// line in its output. Everything is prepared before fork(): the runner
// may have threads holding locks the child would wait on. INTERNAL when
// fork() fails.
[[nodiscard]] absl::StatusOr<pid_t> Spawn(const SpawnPlan& plan);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_SPAWN_H_
