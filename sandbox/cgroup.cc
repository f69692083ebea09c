#include "sandbox/cgroup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sandbox/cgroup_files.h"

namespace cardref::sandbox {
namespace {

// The folder's subfolders (boxes), by name.
std::vector<std::string> SubfoldersOf(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    struct stat st;
    if (lstat(absl::StrCat(dir, "/", name).c_str(), &st) == 0 &&
        S_ISDIR(st.st_mode)) {
      names.push_back(name);
    }
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<pid_t> ProcsOf(const std::string& dir) {
  absl::StatusOr<std::string> text = ReadSmallFile(dir + "/cgroup.procs");
  return text.ok() ? ParsePidList(*text) : std::vector<pid_t>();
}

std::optional<int64_t> ReadCounter(const std::optional<std::string>& path) {
  if (!path.has_value()) return std::nullopt;
  absl::StatusOr<std::string> text = ReadSmallFile(*path);
  if (!text.ok()) return std::nullopt;
  return ParseSingleCounter(*text);
}

std::optional<int64_t> ReadKeyed(const std::optional<std::string>& path,
                                 const std::string& key) {
  if (!path.has_value()) return std::nullopt;
  absl::StatusOr<std::string> text = ReadSmallFile(*path);
  if (!text.ok()) return std::nullopt;
  const auto counters = ParseKeyedCounters(*text);
  const auto it = counters.find(key);
  if (it == counters.end()) return std::nullopt;
  return it->second;
}

bool FileExists(const std::string& path) {
  return access(path.c_str(), F_OK) == 0;
}

// rmdir, retried a little while the kernel finishes tearing down tasks
// that were just killed (EBUSY).
absl::Status RemoveFolder(const std::string& dir) {
  for (int attempt = 0;; ++attempt) {
    if (rmdir(dir.c_str()) == 0 || errno == ENOENT) return absl::OkStatus();
    if (errno != EBUSY || attempt == 200) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot remove cgroup ", dir, ": ", std::strerror(errno)));
    }
    usleep(5000);
  }
}

// Kills everything under `dir` (a cgroup folder of one hierarchy, boxes
// included) and removes it: what a dead runner left, or what a parent
// still holds at its end.
void RemoveTree(const std::string& dir) {
  for (const std::string& sub : SubfoldersOf(dir)) {
    RemoveTree(absl::StrCat(dir, "/", sub));
  }
  const bool v1_freezer = FileExists(dir + "/freezer.state");
  const bool v2_kill = FileExists(dir + "/cgroup.kill");
  for (int round = 0; round < 400; ++round) {
    const std::vector<pid_t> pids = ProcsOf(dir);
    if (pids.empty()) break;
    if (v2_kill) {
      (void)WriteControlFile(dir + "/cgroup.kill", "1");
    } else {
      for (pid_t pid : pids) kill(pid, SIGKILL);
    }
    // A task killed while frozen dies only once thawed.
    if (v1_freezer) (void)WriteControlFile(dir + "/freezer.state", "THAWED");
    usleep(5000);
  }
  (void)RemoveFolder(dir);
}

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  return cpus;
}

}  // namespace

std::vector<std::string> CgroupBox::UniqueDirs() const {
  std::vector<std::string> dirs;
  std::set<std::string> seen;
  for (const auto& [controller, dir] : dirs_) {
    if (seen.insert(dir).second) dirs.push_back(dir);
  }
  return dirs;
}

std::optional<std::string> CgroupBox::ControlFile(Controller c,
                                                  absl::string_view file) const {
  const auto it = dirs_.find(c);
  if (it == dirs_.end()) return std::nullopt;
  return absl::StrCat(it->second, "/", file);
}

absl::StatusOr<std::vector<int>> CgroupBox::OpenJoinFiles() const {
  std::vector<int> fds;
  for (const std::string& dir : UniqueDirs()) {
    const std::string path = dir + "/cgroup.procs";
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
      const int err = errno;
      for (int open_fd : fds) close(open_fd);
      return absl::InternalError(
          absl::StrCat("cannot open ", path, ": ", std::strerror(err)));
    }
    fds.push_back(fd);
  }
  return fds;
}

CgroupCounters CgroupBox::ReadCounters() const {
  CgroupCounters c;
  if (version_ == CgroupVersion::kV1) {
    c.cpu_ns = ReadCounter(ControlFile(Controller::kCpuacct, "cpuacct.usage"));
    c.cpu_throttled_ns =
        ReadKeyed(ControlFile(Controller::kCpu, "cpu.stat"), "throttled_time");
    c.memory_peak_bytes = ReadCounter(
        ControlFile(Controller::kMemory, "memory.max_usage_in_bytes"));
    c.oom_kills = ReadKeyed(ControlFile(Controller::kMemory, "memory.oom_control"),
                            "oom_kill");
    c.memory_limit_hits =
        ReadCounter(ControlFile(Controller::kMemory, "memory.failcnt"));
  } else {
    const std::optional<int64_t> usec =
        ReadKeyed(ControlFile(Controller::kCpuacct, "cpu.stat"), "usage_usec");
    if (usec.has_value()) c.cpu_ns = *usec * 1000;
    const std::optional<int64_t> throttled_usec =
        ReadKeyed(ControlFile(Controller::kCpu, "cpu.stat"), "throttled_usec");
    if (throttled_usec.has_value()) c.cpu_throttled_ns = *throttled_usec * 1000;
    c.memory_peak_bytes =
        ReadCounter(ControlFile(Controller::kMemory, "memory.peak"));
    c.oom_kills =
        ReadKeyed(ControlFile(Controller::kMemory, "memory.events"), "oom_kill");
    c.memory_limit_hits =
        ReadKeyed(ControlFile(Controller::kMemory, "memory.events"), "max");
  }
  c.task_limit_hits =
      ReadKeyed(ControlFile(Controller::kPids, "pids.events"), "max");
  c.tasks_peak = ReadCounter(ControlFile(Controller::kPids, "pids.peak"));
  return c;
}

std::vector<pid_t> CgroupBox::Pids() const {
  std::set<pid_t> pids;
  for (const std::string& dir : UniqueDirs()) {
    for (pid_t pid : ProcsOf(dir)) pids.insert(pid);
  }
  return std::vector<pid_t>(pids.begin(), pids.end());
}

bool CgroupBox::KillAll(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  const std::optional<std::string> cgroup_kill =
      version_ == CgroupVersion::kV2 && dirs_.count(Controller::kFreezer) > 0
          ? std::optional<std::string>(dirs_.at(Controller::kFreezer) +
                                       "/cgroup.kill")
          : std::nullopt;
  const bool can_kill_at_once = cgroup_kill.has_value() && FileExists(*cgroup_kill);
  const std::optional<std::string> v1_freezer =
      version_ == CgroupVersion::kV1
          ? ControlFile(Controller::kFreezer, "freezer.state")
          : std::nullopt;
  while (true) {
    const std::vector<pid_t> pids = Pids();
    if (pids.empty()) return true;
    if (absl::Now() > deadline) return false;
    if (can_kill_at_once) {
      // The kernel kills every task, forks in flight included.
      (void)WriteControlFile(*cgroup_kill, "1");
    } else if (v1_freezer.has_value()) {
      // Frozen, no task can fork between the listing and the kill.
      if (WriteControlFile(*v1_freezer, "FROZEN").ok()) {
        for (int wait = 0; wait < 200; ++wait) {
          absl::StatusOr<std::string> state = ReadSmallFile(*v1_freezer);
          if (!state.ok() ||
              absl::StripAsciiWhitespace(*state) == "FROZEN") {
            break;
          }
          usleep(1000);
        }
      }
      for (pid_t pid : Pids()) kill(pid, SIGKILL);
      (void)WriteControlFile(*v1_freezer, "THAWED");
    } else {
      for (pid_t pid : pids) kill(pid, SIGKILL);
    }
    usleep(2000);
  }
}

absl::Status CgroupBox::Remove() {
  absl::Status first_error;
  for (const std::string& dir : UniqueDirs()) {
    absl::Status status = RemoveFolder(dir);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

absl::StatusOr<std::unique_ptr<CgroupParent>> CgroupParent::Create(
    const CgroupLayout& layout, absl::string_view prefix) {
  if (layout.version == CgroupVersion::kNone) {
    return absl::FailedPreconditionError(
        "this machine has no cgroup hierarchy the sandbox can use (no "
        "cgroup v1 controller and no cgroup v2 memory and pids controllers "
        "under this process's cgroup)");
  }
  // Several parents of one process (a test's hosts) stay apart.
  static std::atomic<int> parents{0};
  const std::string name =
      absl::StrCat(prefix, ".", getpid(), ".", parents.fetch_add(1));
  std::set<std::string> own_dirs;
  for (const auto& [controller, dir] : layout.own_dirs) own_dirs.insert(dir);

  // Leftovers of runners that died without cleaning up.
  for (const std::string& own : own_dirs) {
    for (const std::string& sub : SubfoldersOf(own)) {
      if (!absl::StartsWith(sub, absl::StrCat(prefix, "."))) continue;
      // <prefix>.<pid>.<n>: the pid of the runner that made it.
      const absl::string_view rest =
          absl::string_view(sub).substr(prefix.size() + 1);
      int pid = 0;
      if (!absl::SimpleAtoi(rest.substr(0, rest.find('.')), &pid)) continue;
      if (pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH) {
        RemoveTree(absl::StrCat(own, "/", sub));
      }
    }
  }

  if (layout.version == CgroupVersion::kV2) {
    const std::string& own = *own_dirs.begin();
    std::vector<std::string> enable;
    for (Controller c : {Controller::kMemory, Controller::kPids,
                         Controller::kCpu, Controller::kCpuset}) {
      if (layout.Has(c)) enable.push_back(absl::StrCat("+", ControllerName(c)));
    }
    const std::string controllers = absl::StrJoin(enable, " ");
    absl::Status enabled =
        WriteControlFile(own + "/cgroup.subtree_control", controllers);
    if (!enabled.ok()) {
      // v2 lets only a cgroup without processes hand controllers to its
      // children: the runner's own processes move to a leaf of their own.
      const std::string leaf = own + "/cardref-runner";
      if (mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) {
        return absl::FailedPreconditionError(
            absl::StrCat("cannot enable ", controllers, " in ", own, " (",
                         enabled.message(), ") nor make ", leaf, ": ",
                         std::strerror(errno)));
      }
      for (pid_t pid : ProcsOf(own)) {
        (void)WriteControlFile(leaf + "/cgroup.procs", absl::StrCat(pid));
      }
      enabled = WriteControlFile(own + "/cgroup.subtree_control", controllers);
      if (!enabled.ok()) return enabled;
    }
    const std::string dir = absl::StrCat(own, "/", name);
    if (mkdir(dir.c_str(), 0755) != 0) {
      return absl::InternalError(
          absl::StrCat("cannot make cgroup ", dir, ": ", std::strerror(errno)));
    }
    absl::Status status =
        WriteControlFile(dir + "/cgroup.subtree_control", controllers);
    if (!status.ok()) {
      (void)RemoveFolder(dir);
      return status;
    }
    std::map<Controller, std::string> dirs;
    for (const auto& [controller, own_dir] : layout.own_dirs) dirs[controller] = dir;
    auto parent = std::unique_ptr<CgroupParent>(new CgroupParent(layout, dirs));
    parent->cpus_ = AllowedCpus();
    return parent;
  }

  std::map<Controller, std::string> dirs;
  std::vector<std::string> made;
  auto undo = [&made] {
    for (auto it = made.rbegin(); it != made.rend(); ++it) (void)RemoveFolder(*it);
  };
  for (const auto& [controller, own] : layout.own_dirs) {
    const std::string dir = absl::StrCat(own, "/", name);
    dirs[controller] = dir;
    if (std::find(made.begin(), made.end(), dir) != made.end()) continue;
    if (mkdir(dir.c_str(), 0755) != 0) {
      const int err = errno;
      undo();
      return absl::PermissionDeniedError(absl::StrCat(
          "cannot make cgroup ", dir, ": ", std::strerror(err),
          " (the sandbox needs root)"));
    }
    made.push_back(dir);
  }
  auto parent = std::unique_ptr<CgroupParent>(new CgroupParent(layout, dirs));
  parent->cpus_ = AllowedCpus();
  if (layout.Has(Controller::kCpuset)) {
    // A v1 cpuset starts empty and takes no task until it has cores and
    // memory nodes: its parent's.
    const std::string& own = layout.DirOf(Controller::kCpuset);
    const std::string& dir = dirs.at(Controller::kCpuset);
    absl::StatusOr<std::string> cpus = ReadSmallFile(own + "/cpuset.cpus");
    absl::StatusOr<std::string> mems = ReadSmallFile(own + "/cpuset.mems");
    absl::Status status = cpus.ok() ? absl::OkStatus() : cpus.status();
    if (status.ok() && !mems.ok()) status = mems.status();
    if (status.ok()) {
      parent->mems_ = std::string(absl::StripAsciiWhitespace(*mems));
      status = WriteControlFile(dir + "/cpuset.cpus",
                                absl::StripAsciiWhitespace(*cpus));
    }
    if (status.ok()) status = WriteControlFile(dir + "/cpuset.mems", parent->mems_);
    if (!status.ok()) {
      parent.reset();  // removes the folders
      return status;
    }
  }
  return parent;
}

CgroupParent::~CgroupParent() {
  std::set<std::string> done;
  for (const auto& [controller, dir] : dirs_) {
    if (done.insert(dir).second) RemoveTree(dir);
  }
}

absl::StatusOr<std::unique_ptr<CgroupBox>> CgroupParent::NewBox(
    absl::string_view name, const CgroupLimits& limits) {
  std::map<Controller, std::string> dirs;
  for (const auto& [controller, parent_dir] : dirs_) {
    dirs[controller] = absl::StrCat(parent_dir, "/", name);
  }
  auto box = std::make_unique<CgroupBox>(layout_.version, dirs);
  std::set<std::string> made;
  for (const auto& [controller, dir] : dirs) {
    if (made.count(dir) > 0) continue;
    if (mkdir(dir.c_str(), 0755) != 0) {
      const int err = errno;
      for (const std::string& m : made) (void)RemoveFolder(m);
      return absl::InternalError(
          absl::StrCat("cannot make cgroup ", dir, ": ", std::strerror(err)));
    }
    made.insert(dir);
  }
  auto fail = [&box](absl::Status status) {
    (void)box->Remove();
    return status;
  };
  auto file = [&dirs](Controller c, absl::string_view f) {
    return absl::StrCat(dirs.at(c), "/", f);
  };
  const std::string memory = absl::StrCat(limits.memory_bytes);
  const std::string tasks =
      limits.max_tasks > 0 ? absl::StrCat(limits.max_tasks) : "max";
  const std::vector<int>& cpus = limits.cpus.empty() ? cpus_ : limits.cpus;
  if (layout_.version == CgroupVersion::kV1) {
    if (layout_.Has(Controller::kCpuset)) {
      absl::Status s = WriteControlFile(file(Controller::kCpuset, "cpuset.cpus"),
                                        FormatCpuList(cpus));
      if (s.ok()) {
        s = WriteControlFile(file(Controller::kCpuset, "cpuset.mems"), mems_);
      }
      if (!s.ok()) return fail(s);
    }
    if (layout_.Has(Controller::kMemory) && limits.memory_bytes > 0) {
      absl::Status s = WriteControlFile(
          file(Controller::kMemory, "memory.limit_in_bytes"), memory);
      // With swap accounting, memory and swap together: a bot at its limit
      // is not swapped out (which would slow the whole machine).
      const std::string memsw = file(Controller::kMemory, "memory.memsw.limit_in_bytes");
      if (s.ok() && FileExists(memsw)) s = WriteControlFile(memsw, memory);
      if (!s.ok()) return fail(s);
    }
    if (layout_.Has(Controller::kPids)) {
      absl::Status s = WriteControlFile(file(Controller::kPids, "pids.max"), tasks);
      if (!s.ok()) return fail(s);
    }
    if (layout_.Has(Controller::kCpu) && limits.cpu_quota_us > 0) {
      absl::Status s =
          WriteControlFile(file(Controller::kCpu, "cpu.cfs_period_us"),
                           absl::StrCat(limits.cpu_period_us));
      if (s.ok()) {
        s = WriteControlFile(file(Controller::kCpu, "cpu.cfs_quota_us"),
                             absl::StrCat(limits.cpu_quota_us));
      }
      if (!s.ok()) return fail(s);
    }
    return box;
  }
  // v2
  if (layout_.Has(Controller::kCpuset) && !limits.cpus.empty()) {
    absl::Status s = WriteControlFile(file(Controller::kCpuset, "cpuset.cpus"),
                                      FormatCpuList(limits.cpus));
    if (!s.ok()) return fail(s);
  }
  if (limits.memory_bytes > 0) {
    absl::Status s = WriteControlFile(file(Controller::kMemory, "memory.max"), memory);
    const std::string swap = file(Controller::kMemory, "memory.swap.max");
    if (s.ok() && FileExists(swap)) s = WriteControlFile(swap, "0");
    if (!s.ok()) return fail(s);
  }
  // An OOM kill takes the whole box, as the sandbox would next.
  const std::string oom_group = file(Controller::kMemory, "memory.oom.group");
  if (FileExists(oom_group)) (void)WriteControlFile(oom_group, "1");
  {
    absl::Status s = WriteControlFile(file(Controller::kPids, "pids.max"), tasks);
    if (!s.ok()) return fail(s);
  }
  if (layout_.Has(Controller::kCpu) && limits.cpu_quota_us > 0) {
    absl::Status s = WriteControlFile(
        file(Controller::kCpu, "cpu.max"),
        absl::StrCat(limits.cpu_quota_us, " ", limits.cpu_period_us));
    if (!s.ok()) return fail(s);
  }
  return box;
}

}  // namespace cardref::sandbox
