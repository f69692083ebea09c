// The sandbox's cgroups: one parent folder per runner (CgroupParent), under
// the runner's own cgroup in every hierarchy the layout names, and one box
// per sandboxed bot under it (CgroupBox), holding its limits, counting
// what it used and what it was refused, and killing all of it at the end.
// cgroup v1 (a hierarchy per controller) and v2 (one hierarchy) are both
// served; CgroupLayout says which.
//
// Needs root (or a delegated cgroup). A CgroupParent's NewBox() may be
// called from several threads at once (it only reads the parent); each
// box has one owner.
#ifndef CARDREF_SANDBOX_CGROUP_H_
#define CARDREF_SANDBOX_CGROUP_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "sandbox/cgroup_layout.h"

namespace cardref::sandbox {

struct CgroupLimits {
  uint64_t memory_bytes = 0;  // memory and swap together; 0: no limit
  int64_t max_tasks = 0;      // processes and threads; 0: no limit
  std::vector<int> cpus;      // cores it may run on; empty: the parent's
  int64_t cpu_quota_us = 0;   // CPU time per period; 0: no quota
  int64_t cpu_period_us = 100000;
};

// What a box used and was refused; nullopt where this machine does not
// count it.
struct CgroupCounters {
  std::optional<int64_t> cpu_ns;             // CPU time of all its tasks
  // Time its tasks waited, runnable, for its CPU quota's next period.
  std::optional<int64_t> cpu_throttled_ns;
  std::optional<int64_t> memory_peak_bytes;  // the most it held at once
  std::optional<int64_t> oom_kills;          // tasks the OOM killer ended
  // Times its memory reached the limit (reclaim was needed; not always
  // an OOM kill).
  std::optional<int64_t> memory_limit_hits;
  std::optional<int64_t> task_limit_hits;  // forks refused at pids.max
  std::optional<int64_t> tasks_peak;
};

class CgroupBox {
 public:
  CgroupBox(CgroupVersion version, std::map<Controller, std::string> dirs)
      : version_(version), dirs_(std::move(dirs)) {}
  CgroupBox(const CgroupBox&) = delete;
  CgroupBox& operator=(const CgroupBox&) = delete;
  // Leaves the folders: Remove() them.
  ~CgroupBox() = default;

  // Each folder's cgroup.procs, opened for writing (close-on-exec): a
  // child writes "0" to each before exec, which moves it (and everything
  // it will start) into the box. The caller closes them.
  [[nodiscard]] absl::StatusOr<std::vector<int>> OpenJoinFiles() const;

  CgroupCounters ReadCounters() const;
  // The processes in it now (host pids).
  std::vector<pid_t> Pids() const;
  // Ends every process in it: frozen first where the machine can (so none
  // forks meanwhile), SIGKILLed, thawed. True once it is empty; false if
  // a process was still in it after `timeout`.
  bool KillAll(absl::Duration timeout);
  // Removes its folders. Precondition: empty (KillAll) and the processes
  // the caller started reaped.
  [[nodiscard]] absl::Status Remove();

  const std::map<Controller, std::string>& dirs() const { return dirs_; }

 private:
  // Each folder once (v1 hierarchies mounted together share one).
  std::vector<std::string> UniqueDirs() const;
  std::optional<std::string> ControlFile(Controller c,
                                         absl::string_view file) const;

  CgroupVersion version_;
  std::map<Controller, std::string> dirs_;
};

class CgroupParent {
 public:
  // Makes `<own cgroup>/<prefix>.<pid>.<n>` in every hierarchy of
  // `layout` (n counts the parents of this process), after removing what a
  // dead runner left there (folders `<prefix>.<pid>.*` of a pid that no
  // longer runs, killing their processes). v1: the cpuset
  // folder gets its parent's cores and memory nodes. v2: the memory, pids,
  // cpu and cpuset controllers are enabled down to the boxes; when the
  // runner's own cgroup holds processes, which v2 forbids for a cgroup
  // that delegates controllers, they are moved to a leaf
  // `<own cgroup>/cardref-runner` first.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<CgroupParent>> Create(
      const CgroupLayout& layout, absl::string_view prefix);
  // Kills what is left in its boxes and removes the folders.
  ~CgroupParent();
  CgroupParent(const CgroupParent&) = delete;
  CgroupParent& operator=(const CgroupParent&) = delete;

  // A new box `name` (unique under this parent) with `limits`. Limits the
  // machine cannot hold (a controller missing) are left out; the caller
  // asks the layout which.
  [[nodiscard]] absl::StatusOr<std::unique_ptr<CgroupBox>> NewBox(
      absl::string_view name, const CgroupLimits& limits);

  const CgroupLayout& layout() const { return layout_; }
  // The cores the parent may hand out (its cpuset, or every online core).
  const std::vector<int>& cpus() const { return cpus_; }

 private:
  CgroupParent(CgroupLayout layout, std::map<Controller, std::string> dirs)
      : layout_(std::move(layout)), dirs_(std::move(dirs)) {}

  CgroupLayout layout_;
  std::map<Controller, std::string> dirs_;
  std::vector<int> cpus_;
  std::string mems_;  // v1 cpuset.mems of the parent
};

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_CGROUP_H_
