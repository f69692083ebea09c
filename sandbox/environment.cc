#include "sandbox/environment.h"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "sandbox/bwrap_args.h"
#include "sandbox/cgroup_files.h"
#include "sandbox/syscall_filter.h"

namespace cardref::sandbox {
namespace {

std::optional<std::string> ReadTrimmed(const std::string& path) {
  absl::StatusOr<std::string> text = ReadSmallFile(path);
  if (!text.ok()) return std::nullopt;
  return std::string(absl::StripAsciiWhitespace(*text));
}

// "Key:   value" lines of /proc/meminfo and /proc/cpuinfo.
std::optional<std::string> FieldOf(absl::string_view text, absl::string_view key) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    if (absl::StripAsciiWhitespace(line.substr(0, colon)) == key) {
      return std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    }
  }
  return std::nullopt;
}

int64_t KibOf(absl::string_view meminfo, absl::string_view key) {
  const std::optional<std::string> value = FieldOf(meminfo, key);
  int64_t kib = 0;
  if (value.has_value()) {
    (void)absl::SimpleAtoi(absl::StripSuffix(*value, " kB"), &kib);
  }
  return kib;
}

void ProbeCpus(EnvReport& r) {
  r.online_cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) r.allowed_cpus.push_back(cpu);
    }
  }
  if (absl::StatusOr<std::string> cpuinfo = ReadSmallFile("/proc/cpuinfo");
      cpuinfo.ok()) {
    r.cpu_model = FieldOf(*cpuinfo, "model name").value_or("");
    const std::string flags = FieldOf(*cpuinfo, "flags").value_or("");
    for (absl::string_view flag : absl::StrSplit(flags, ' ')) {
      if (flag == "hypervisor") r.hypervisor = true;
    }
  }
  if (std::optional<std::string> smt =
          ReadTrimmed("/sys/devices/system/cpu/smt/active")) {
    r.smt_active = *smt == "1";
  }
  for (int cpu : r.allowed_cpus) {
    if (std::optional<std::string> governor = ReadTrimmed(absl::StrCat(
            "/sys/devices/system/cpu/cpu", cpu, "/cpufreq/scaling_governor"))) {
      if (std::find(r.governors.begin(), r.governors.end(), *governor) ==
          r.governors.end()) {
        r.governors.push_back(*governor);
      }
    }
  }
  if (std::optional<std::string> no_turbo =
          ReadTrimmed("/sys/devices/system/cpu/intel_pstate/no_turbo")) {
    r.turbo = *no_turbo == "0";
  } else if (std::optional<std::string> boost =
                 ReadTrimmed("/sys/devices/system/cpu/cpufreq/boost")) {
    r.turbo = *boost == "1";
  }
}

void ProbeMemory(EnvReport& r, const CgroupLayout& layout) {
  if (absl::StatusOr<std::string> meminfo = ReadSmallFile("/proc/meminfo");
      meminfo.ok()) {
    r.memory_total_kib = KibOf(*meminfo, "MemTotal");
    r.swap_total_kib = KibOf(*meminfo, "SwapTotal");
  }
  if (layout.Has(Controller::kMemory)) {
    const std::string& dir = layout.DirOf(Controller::kMemory);
    const std::string file = layout.version == CgroupVersion::kV1
                                 ? "/memory.memsw.limit_in_bytes"
                                 : "/memory.swap.max";
    r.swap_accounted = access((dir + file).c_str(), F_OK) == 0;
  }
}

void ProbeCgroups(EnvReport& r, const CgroupLayout& layout) {
  r.cgroup_version = layout.version;
  r.cgroup_hybrid = layout.hybrid;
  const std::string probe = absl::StrCat("cardref-envcheck.", getpid());
  for (Controller c : kAllControllers) {
    ControllerState state;
    state.name = std::string(ControllerName(c));
    state.present = layout.Has(c);
    if (state.present) {
      const std::string dir = absl::StrCat(layout.DirOf(c), "/", probe);
      if (mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) {
        state.usable = true;
        rmdir(dir.c_str());
      }
    }
    r.controllers.push_back(state);
  }
}

// Runs a trivial program under bwrap as a bot would run (as `uid` when
// root), with the syscall filter; true when it ran.
void ProbeBwrap(EnvReport& r, const ProbeOptions& options) {
  r.bwrap_found = access(options.bwrap.c_str(), X_OK) == 0;
  if (!r.bwrap_found) {
    r.bwrap_problem = absl::StrCat(options.bwrap, " not found (apt-get install bubblewrap)");
    return;
  }
  absl::StatusOr<int> filter = SyscallFilterFd();
  r.seccomp = filter.ok() &&
              ReadTrimmed("/proc/sys/kernel/seccomp/actions_avail").has_value();
  BwrapPlan plan;
  plan.bwrap = options.bwrap;
  plan.system = ListSystemEntries();
  plan.etc_entries = ListEtcEntries();
  plan.bot_folder = "/usr/bin";
  plan.scratch_bytes = 1 << 20;
  plan.syscall_filter_fd = filter.ok() ? *filter : -1;
  plan.argv = {"/bin/sh", "-c", "echo ok > /tmp/probe && cat /tmp/probe"};
  const std::vector<std::string> args = BwrapArgs(plan);
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  char* envp[] = {const_cast<char*>("PATH=/usr/bin:/bin"), nullptr};
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    r.bwrap_problem = "pipe2 failed";
    if (filter.ok()) close(*filter);
    return;
  }
  const bool drop = geteuid() == 0;
  const uid_t uid = options.probe_uid;
  const int filter_fd = plan.syscall_filter_fd;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    if (filter_fd >= 0) fcntl(filter_fd, F_SETFD, 0);
    if (drop && (setgroups(0, nullptr) != 0 || setgid(uid) != 0 || setuid(uid) != 0)) {
      _exit(125);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execve(argv[0], argv.data(), envp);
    _exit(127);
  }
  close(out[1]);
  if (filter.ok()) close(*filter);
  if (pid < 0) {
    close(out[0]);
    r.bwrap_problem = "fork failed";
    return;
  }
  std::string output;
  const absl::Time give_up = absl::Now() + absl::Seconds(10);
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    pollfd p = {out[0], POLLIN, 0};
    if (poll(&p, 1, 50) > 0) {
      char buffer[512];
      const ssize_t n = read(out[0], buffer, sizeof(buffer));
      if (n > 0 && output.size() < 4096) output.append(buffer, static_cast<size_t>(n));
    }
    if (waitpid(pid, &status, WNOHANG) == pid) reaped = true;
    if (!reaped && absl::Now() > give_up) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      output += " (timed out)";
      reaped = true;
    }
  }
  close(out[0]);
  r.bwrap_works = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                  absl::StartsWith(output, "ok");
  if (!r.bwrap_works) {
    r.bwrap_problem = std::string(absl::StripAsciiWhitespace(output));
    if (r.bwrap_problem.empty()) {
      r.bwrap_problem = absl::StrCat("exit status ", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
  }
}

bool Usable(const EnvReport& r, absl::string_view name) {
  for (const ControllerState& c : r.controllers) {
    if (c.name == name) return c.usable;
  }
  return false;
}

void Conclude(EnvReport& r) {
  const int cores = static_cast<int>(r.allowed_cpus.size());
  if (r.plan.has_value()) {
    if (r.plan->mode == CpuMode::kQuota) {
      r.timing_spoilers.emplace_back(absl::StrFormat(
          "%d bots at once on %d cores: they share cores under CPU quotas of "
          "%.2f core each, not cores of their own",
          r.bots, cores, r.plan->cores_per_slot));
    }
  } else {
    r.timing_spoilers.emplace_back(absl::StrCat("no CPU plan: ", r.plan_problem));
  }
  if (r.smt_active.value_or(false)) {
    r.timing_spoilers.emplace_back(
        "SMT (hyper-threading) is on: bots on sibling threads of one core slow "
        "each other");
  }
  if (r.hypervisor) {
    r.timing_spoilers.emplace_back(
        "a virtual machine: the host's other guests can take CPU time (steal) "
        "and change the clock speed, unseen from here");
  }
  if (r.governors.empty()) {
    r.timing_spoilers.emplace_back(
        "no frequency governor visible: the clock speed cannot be checked");
  } else {
    for (const std::string& g : r.governors) {
      if (g != "performance") {
        r.timing_spoilers.emplace_back(absl::StrCat(
            "frequency governor '", g, "': the clock speed follows the load "
            "(set 'performance' for fair timing)"));
      }
    }
  }
  if (r.turbo.value_or(false)) {
    r.timing_spoilers.emplace_back(
        "turbo is on: a core's clock speed depends on how many cores are busy");
  }
  if (r.swap_total_kib > 0) {
    r.timing_spoilers.emplace_back(absl::StrFormat(
        "swap is on (%d MiB): %s", r.swap_total_kib >> 10,
        r.swap_accounted ? "the sandbox forbids bots swap, but the referee "
                           "can be swapped out"
                         : "a bot's memory can be swapped out and the "
                           "sandbox cannot forbid it"));
  }

  const bool cgroups = r.root && r.cgroup_version != CgroupVersion::kNone;
  auto enforce = [&r](bool yes, std::string what, std::string otherwise) {
    if (yes) {
      r.enforced.push_back(std::move(what));
    } else {
      r.not_enforced.push_back(std::move(otherwise));
    }
  };
  enforce(r.bwrap_works,
          "namespaces of its own (user, mount, pid, network, IPC, UTS): a "
          "read-only view of the system and of its folder, a size-capped "
          "scratch folder, no network but its referee's socket",
          absl::StrCat("no namespaces: bwrap does not work here (",
                       r.bwrap_problem, ")"));
  enforce(cgroups && Usable(r, "memory"), "memory limit (cgroup memory)",
          "no memory limit (no usable memory controller)");
  enforce(cgroups && Usable(r, "pids"), "process and thread limit (cgroup pids)",
          "no process limit (no usable pids controller)");
  enforce(cgroups && Usable(r, "cpuacct"), "CPU time limit and accounting",
          "no CPU time limit (no usable cpuacct/cpu.stat)");
  if (r.plan.has_value() && r.plan->mode == CpuMode::kOwnCores) {
    enforce(cgroups && Usable(r, "cpuset"), "cores of its own per bot (cpuset)",
            "no cores of their own (no usable cpuset controller)");
  } else {
    enforce(cgroups && Usable(r, "cpu"), "a CPU quota per bot (cgroup cpu)",
            "no CPU quota (no usable cpu controller): one bot's load can slow "
            "another's");
    enforce(cgroups && Usable(r, "cpuset"),
            "each bot kept to its home cores (cpuset)",
            "bots not kept to cores (no usable cpuset controller)");
  }
  enforce(cgroups && (Usable(r, "freezer") || r.cgroup_version == CgroupVersion::kV2),
          "every process of a bot ended at once at its end (freezer or "
          "cgroup.kill)",
          "a bot's processes ended one by one (no freezer)");
  enforce(r.seccomp && r.bwrap_works, "syscall filter (seccomp)",
          "no syscall filter (seccomp unavailable)");
  if (!r.root) {
    // SandboxHost refuses to start: nothing above holds.
    r.enforced.clear();
    r.not_enforced = {
        "anything: not root, the sandbox does not start (it needs root for "
        "cgroups and a uid per bot; bots run only when trusted); run "
        "cardref_envcheck as root to see what it would enforce"};
  }
  r.never_enforced = {
      "memory bandwidth and shared caches: a bot can slow another's memory "
      "accesses",
      "clock speed, turbo and SMT siblings (see above)",
      "kernel bugs past the syscall filter, and timing side channels"};
}

nlohmann::json ToJson(const EnvReport& r) {
  nlohmann::json j;
  j["root"] = r.root;
  j["cpu"] = {{"online", r.online_cpus},
              {"allowed", FormatCpuList(r.allowed_cpus)},
              {"allowed_count", r.allowed_cpus.size()},
              {"model", r.cpu_model},
              {"hypervisor", r.hypervisor},
              {"governors", r.governors}};
  j["cpu"]["smt_active"] =
      r.smt_active.has_value() ? nlohmann::json(*r.smt_active) : nlohmann::json();
  j["cpu"]["turbo"] = r.turbo.has_value() ? nlohmann::json(*r.turbo) : nlohmann::json();
  j["memory"] = {{"total_kib", r.memory_total_kib},
                 {"swap_kib", r.swap_total_kib},
                 {"swap_accounted", r.swap_accounted}};
  nlohmann::json controllers = nlohmann::json::object();
  for (const ControllerState& c : r.controllers) {
    controllers[c.name] = {{"present", c.present}, {"usable", c.usable}};
  }
  j["cgroup"] = {{"version", std::string(CgroupVersionName(r.cgroup_version))},
                 {"hybrid", r.cgroup_hybrid},
                 {"controllers", controllers}};
  j["namespaces"] = {{"max_user_namespaces", r.max_user_namespaces},
                     {"bwrap_found", r.bwrap_found},
                     {"bwrap_works", r.bwrap_works},
                     {"bwrap_problem", r.bwrap_problem},
                     {"seccomp", r.seccomp}};
  nlohmann::json plan = {{"bots", r.bots}};
  if (r.plan.has_value()) {
    plan["mode"] = r.plan->mode == CpuMode::kOwnCores ? "own_cores" : "quota";
    plan["cores_per_bot"] = r.plan->cores_per_slot;
    plan["reserved_cpus"] = FormatCpuList(r.plan->reserved_cpus);
    plan["description"] = r.plan->Describe();
  } else {
    plan["problem"] = r.plan_problem;
  }
  j["cpu_plan"] = plan;
  j["timing_spoilers"] = r.timing_spoilers;
  j["enforced"] = r.enforced;
  j["not_enforced"] = r.not_enforced;
  j["never_enforced"] = r.never_enforced;
  return j;
}

std::string YesNo(std::optional<bool> value) {
  if (!value.has_value()) return "not visible";
  return *value ? "on" : "off";
}

}  // namespace

EnvReport ProbeEnvironment(const ProbeOptions& options) {
  EnvReport r;
  r.root = geteuid() == 0;
  r.bots = options.bots;
  ProbeCpus(r);
  absl::StatusOr<CgroupLayout> layout = DetectCgroupLayout();
  const CgroupLayout none;
  ProbeMemory(r, layout.ok() ? *layout : none);
  ProbeCgroups(r, layout.ok() ? *layout : none);
  if (std::optional<std::string> max_ns =
          ReadTrimmed("/proc/sys/user/max_user_namespaces")) {
    (void)absl::SimpleAtoi(*max_ns, &r.max_user_namespaces);
  }
  ProbeBwrap(r, options);
  CpuPlanOptions cpu;
  cpu.cpus = r.allowed_cpus;
  cpu.bots = options.bots;
  cpu.reserved_cores = options.reserved_cores;
  cpu.cores_per_bot = options.cores_per_bot;
  absl::StatusOr<CpuPlan> plan = PlanCpus(cpu);
  if (plan.ok()) {
    r.plan = *std::move(plan);
  } else {
    r.plan_problem = std::string(plan.status().message());
  }
  Conclude(r);
  return r;
}

std::string FormatEnvironmentText(const EnvReport& r) {
  std::string t;
  absl::StrAppend(&t, "CPU\n");
  absl::StrAppend(&t, "  cores: ", r.allowed_cpus.size(), " usable (",
                  FormatCpuList(r.allowed_cpus), ") of ", r.online_cpus,
                  " online; ", r.cpu_model.empty() ? "model unknown" : r.cpu_model,
                  "\n");
  absl::StrAppend(&t, "  virtual machine: ", r.hypervisor ? "yes" : "no",
                  "; SMT: ", YesNo(r.smt_active), "; turbo: ", YesNo(r.turbo),
                  "; governor: ",
                  r.governors.empty() ? "not visible" : absl::StrJoin(r.governors, ", "),
                  "\n");
  absl::StrAppend(&t, "  bots at once: ", r.bots, "; plan: ",
                  r.plan.has_value() ? r.plan->Describe() : r.plan_problem, "\n");
  absl::StrAppend(&t, "Memory\n  ", r.memory_total_kib >> 10, " MiB; swap: ",
                  r.swap_total_kib > 0
                      ? absl::StrCat(r.swap_total_kib >> 10, " MiB")
                      : std::string("off"),
                  r.swap_accounted ? " (swap accounting on)" : "", "\n");
  absl::StrAppend(&t, "Cgroups\n  version: ", CgroupVersionName(r.cgroup_version),
                  r.cgroup_hybrid ? " (hybrid: v1 and v2 mounted)" : "", "\n");
  for (const ControllerState& c : r.controllers) {
    absl::StrAppend(&t, "  ", c.name, ": ",
                    !c.present ? "absent"
                    : c.usable ? "usable"
                               : "present, not usable by this process",
                    "\n");
  }
  absl::StrAppend(&t, "Namespaces\n  user namespaces allowed: ",
                  r.max_user_namespaces, "; bwrap: ",
                  !r.bwrap_found  ? "not found"
                  : r.bwrap_works ? "works"
                                  : absl::StrCat("fails: ", r.bwrap_problem),
                  "; seccomp: ", r.seccomp ? "yes" : "no", "\n");
  absl::StrAppend(&t, "What spoils fair timing here\n");
  if (r.timing_spoilers.empty()) absl::StrAppend(&t, "  nothing seen\n");
  for (const std::string& s : r.timing_spoilers) absl::StrAppend(&t, "  - ", s, "\n");
  absl::StrAppend(&t, "The sandbox enforces here\n");
  if (r.enforced.empty()) absl::StrAppend(&t, "  nothing\n");
  for (const std::string& s : r.enforced) absl::StrAppend(&t, "  - ", s, "\n");
  absl::StrAppend(&t, "It does not enforce\n");
  for (const std::string& s : r.not_enforced) absl::StrAppend(&t, "  - ", s, "\n");
  for (const std::string& s : r.never_enforced) {
    absl::StrAppend(&t, "  - ", s, " (on any machine)\n");
  }
  return t;
}

std::string FormatEnvironmentJson(const EnvReport& report) {
  return ToJson(report).dump(2) + "\n";
}

std::string EnvironmentSummary(const EnvReport& r) {
  std::string t = absl::StrCat(
      "sandbox: cgroup ", CgroupVersionName(r.cgroup_version), ", bwrap ",
      r.bwrap_works ? "works" : "does not work", "; ",
      r.plan.has_value() ? r.plan->Describe() : r.plan_problem, "\n");
  if (!r.timing_spoilers.empty()) {
    absl::StrAppend(&t, "sandbox: timing: ", absl::StrJoin(r.timing_spoilers, "; "),
                    "\n");
  }
  // The machine's lacks only: what no machine enforces is in the docs.
  if (!r.not_enforced.empty()) {
    absl::StrAppend(&t, "sandbox: not enforced here: ",
                    absl::StrJoin(r.not_enforced, "; "), "\n");
  }
  return t;
}

}  // namespace cardref::sandbox
