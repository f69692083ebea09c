// What this machine does to fair timing and what the sandbox can enforce
// on it: cores against bots, SMT, frequency governor and turbo where
// visible, a hypervisor, swap, the cgroup version and which controllers
// this process can use, whether user namespaces and bwrap work, seccomp.
// cardref_envcheck prints it (text or JSON); a runner prints EnvSummary()
// when it starts.
#ifndef CARDREF_SANDBOX_ENVIRONMENT_H_
#define CARDREF_SANDBOX_ENVIRONMENT_H_

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/cgroup_layout.h"
#include "sandbox/cpu_plan.h"

namespace cardref::sandbox {

struct ProbeOptions {
  int bots = 2;  // bots at once: matches at once times seats
  double reserved_cores = 0.5;
  int cores_per_bot = 1;
  std::string bwrap = "/usr/bin/bwrap";
  // As root, bwrap is tried as this uid, as a bot would run (nobody).
  uid_t probe_uid = 65534;
};

struct ControllerState {
  std::string name;  // "memory", ...
  bool present = false;  // the layout offers it to this process
  bool usable = false;   // a cgroup could be made there
};

struct EnvReport {
  bool root = false;
  // CPUs
  int online_cpus = 0;
  std::vector<int> allowed_cpus;  // this process's affinity
  std::string cpu_model;
  bool hypervisor = false;                 // cpuinfo's "hypervisor" flag
  std::optional<bool> smt_active;          // nullopt: not visible
  std::vector<std::string> governors;      // distinct, of the allowed CPUs
  std::optional<bool> turbo;               // nullopt: not visible
  // Memory
  int64_t memory_total_kib = 0;
  int64_t swap_total_kib = 0;
  bool swap_accounted = false;  // the sandbox can forbid a bot swap
  // Cgroups
  CgroupVersion cgroup_version = CgroupVersion::kNone;
  bool cgroup_hybrid = false;
  std::vector<ControllerState> controllers;
  // Namespaces and bwrap
  int64_t max_user_namespaces = 0;
  bool bwrap_found = false;
  bool bwrap_works = false;
  std::string bwrap_problem;  // its error output, when it did not work
  bool seccomp = false;       // the kernel filters and libseccomp compiles
  // The CPU plan for ProbeOptions::bots, or why there is none.
  std::optional<CpuPlan> plan;
  std::string plan_problem;
  int bots = 0;
  // Conclusions, one sentence each.
  std::vector<std::string> timing_spoilers;
  std::vector<std::string> enforced;
  std::vector<std::string> not_enforced;    // what this machine lacks
  std::vector<std::string> never_enforced;  // on any machine
};

// Reads /proc and /sys, makes and removes a test cgroup per hierarchy (as
// root), runs bwrap once (under a second). Never fails: what it cannot
// read is reported as unknown.
EnvReport ProbeEnvironment(const ProbeOptions& options);

// For people: sections, one fact a line, then the conclusions.
std::string FormatEnvironmentText(const EnvReport& report);
// The same as one JSON object (stable keys; docs/sandbox.md).
std::string FormatEnvironmentJson(const EnvReport& report);
// A few lines for a runner's start: the plan, what spoils timing, what is
// not enforced.
std::string EnvironmentSummary(const EnvReport& report);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_ENVIRONMENT_H_
