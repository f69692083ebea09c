// What a process and its descendants hold, read from /proc: what
// cardref_tournament holds a bot to (--max_bot_memory_mb,
// --max_bot_threads).
//
// Measured from outside, not set as rlimits: RLIMIT_DATA and RLIMIT_AS
// count address space, and a bot built with AddressSanitizer maps terabytes
// of shadow it never touches (it could not start under any useful limit);
// RLIMIT_NPROC counts every process of the user, other bots' included; and
// a per-process limit lets a bot's children (a shell script that does not
// exec) take all they want. Descendants are found through
// /proc/PID/task/TID/children; one that leaves the tree (its parent exits
// and it is adopted elsewhere) is not counted.
#ifndef CARDREF_TOURNAMENT_PROCESS_TREE_H_
#define CARDREF_TOURNAMENT_PROCESS_TREE_H_

#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace cardref::tournament {

// The most processes of one tree that are visited: a larger tree (a fork
// bomb) is measured at its first kMaxTreeProcesses processes, whose tasks
// are already more than any thread limit allows.
inline constexpr int kMaxTreeProcesses = 4096;

struct TreeUsage {
  // The sum of the processes' resident sizes: a page two of them share (as
  // after a fork) counts in each, so this is never below their
  // proportional size together (ProportionalKib).
  int64_t resident_kib = 0;
  // Processes and threads, as the kernel's pids.max counts them.
  int64_t tasks = 0;
  std::vector<pid_t> processes;
};

// `root` and its descendants; zeros if `root` is gone. Costs a few small
// /proc reads per process and thread of the tree.
TreeUsage MeasureTree(pid_t root);

// What `processes` hold together, a shared page split among the processes
// that map it (the sum of their Pss), so a tree's shared pages count once.
// A walk of each process's page tables (0.1 to 0.5 ms a process): for when
// the resident sum is past a limit. A process whose Pss cannot be read
// counts its resident size.
int64_t ProportionalKib(const std::vector<pid_t>& processes);

}  // namespace cardref::tournament

#endif  // CARDREF_TOURNAMENT_PROCESS_TREE_H_
