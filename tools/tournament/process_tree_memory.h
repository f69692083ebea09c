// The resident memory of a process and its descendants, read from /proc:
// what cardref_tournament holds a bot to (--max_bot_memory_mb).
//
// Resident memory, not an rlimit: RLIMIT_DATA and RLIMIT_AS count address
// space, and a bot built with AddressSanitizer maps terabytes of shadow it
// never touches (it could not start under any useful limit); a bot that runs
// a child (a shell script that does not exec) would escape a per-process
// limit. Descendants are found through /proc/PID/task/TID/children; one that
// leaves the tree (its parent exits and it is adopted elsewhere) is not
// counted.
#ifndef CARDREF_TOOLS_TOURNAMENT_PROCESS_TREE_MEMORY_H_
#define CARDREF_TOOLS_TOURNAMENT_PROCESS_TREE_MEMORY_H_

#include <sys/types.h>

#include <cstdint>

namespace cardref::tournament {

// The most processes of one tree that are visited; a tree larger than this
// (a fork bomb) is reported at its first kMaxTreeProcesses processes.
inline constexpr int kMaxTreeProcesses = 4096;

// The sum of the resident memory (KiB) of `root` and its descendants (pages
// two of them share, as after a fork, count in each); 0 if `root` is gone.
// Costs a few small /proc reads per process of the tree.
int64_t TreeResidentKib(pid_t root);

}  // namespace cardref::tournament

#endif  // CARDREF_TOOLS_TOURNAMENT_PROCESS_TREE_MEMORY_H_
