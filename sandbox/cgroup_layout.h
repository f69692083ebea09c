// Where this process's cgroups are, and which cgroup version serves the
// controllers the sandbox needs: read from /proc/self/cgroup and
// /proc/self/mountinfo (never assumed to be at the hierarchy's root: a
// process in a container or a service manager's unit has a cgroup of its
// own, under which the sandbox makes its cgroups).
#ifndef CARDREF_SANDBOX_CGROUP_LAYOUT_H_
#define CARDREF_SANDBOX_CGROUP_LAYOUT_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::sandbox {

enum class CgroupVersion { kNone, kV1, kV2 };

// What the sandbox uses each for: memory (memory limit, OOM count), pids
// (process and thread limit), cpu (CPU quota), cpuacct (CPU time used),
// cpuset (cores of its own), freezer (stopping every process at once
// before killing them). In v2, CPU time is in the core's cpu.stat and
// freezing (and cgroup.kill) in the core: kCpuacct and kFreezer are
// always there.
enum class Controller { kMemory, kPids, kCpu, kCpuacct, kCpuset, kFreezer };
inline constexpr Controller kAllControllers[] = {
    Controller::kMemory, Controller::kPids,   Controller::kCpu,
    Controller::kCpuacct, Controller::kCpuset, Controller::kFreezer};

// "memory", "pids", ... (the kernel's names).
absl::string_view ControllerName(Controller controller);
absl::string_view CgroupVersionName(CgroupVersion version);

struct CgroupLayout {
  CgroupVersion version = CgroupVersion::kNone;
  // This process's own cgroup folder for each controller the version
  // serves here (v1: one per hierarchy, the same folder for controllers
  // mounted together; v2: one folder for all).
  std::map<Controller, std::string> own_dirs;
  // Also a cgroup2 mount when version is kV1 (a "hybrid" machine), or v1
  // hierarchies beside v2: informational.
  bool hybrid = false;

  bool Has(Controller c) const { return own_dirs.count(c) > 0; }
  // Precondition: Has(c).
  const std::string& DirOf(Controller c) const { return own_dirs.at(c); }
};

// The layout from the text of /proc/self/cgroup and /proc/self/mountinfo;
// `read_file` reads a cgroup2 folder's cgroup.controllers (nullopt when it
// cannot). v2 is chosen when it serves memory and pids, else v1 when it
// serves any controller the sandbox uses, else kNone.
absl::StatusOr<CgroupLayout> ParseCgroupLayout(
    absl::string_view proc_self_cgroup, absl::string_view mountinfo,
    absl::FunctionRef<std::optional<std::string>(const std::string&)>
        read_file);

// The layout of the calling process.
absl::StatusOr<CgroupLayout> DetectCgroupLayout();

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_CGROUP_LAYOUT_H_
