// Reading and writing the small text files of the kernel's interfaces
// (cgroup control files, /proc, /sys), and parsing what they hold. The
// parsers are pure functions, tested on the kernel's documented formats.
#ifndef CARDREF_SANDBOX_CGROUP_FILES_H_
#define CARDREF_SANDBOX_CGROUP_FILES_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::sandbox {

// The whole file (at most 1 MiB: these files are small). NOT_FOUND when it
// does not exist, PERMISSION_DENIED when it may not be read.
[[nodiscard]] absl::StatusOr<std::string> ReadSmallFile(const std::string& path);

// One write(2) of `text` to an existing file, as a cgroup control file
// needs (the kernel parses each write whole). The error names the file and
// what was written.
[[nodiscard]] absl::Status WriteControlFile(const std::string& path,
                                            absl::string_view text);

// "key value" lines (memory.events, pids.events, cpu.stat,
// memory.oom_control): the values that parse as integers.
absl::flat_hash_map<std::string, int64_t> ParseKeyedCounters(
    absl::string_view text);

// One integer and optional whitespace (cpuacct.usage, memory.failcnt);
// "max" is nullopt, as is anything else that is not a number.
std::optional<int64_t> ParseSingleCounter(absl::string_view text);

// A kernel CPU list: "0-3,5,7-8". Sorted, without duplicates. Empty text
// is an empty list.
[[nodiscard]] absl::StatusOr<std::vector<int>> ParseCpuList(
    absl::string_view text);
// The inverse, with ranges: {0,1,2,5} -> "0-2,5".
std::string FormatCpuList(const std::vector<int>& cpus);

// One pid per line (cgroup.procs, tasks).
std::vector<pid_t> ParsePidList(absl::string_view text);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_CGROUP_FILES_H_
