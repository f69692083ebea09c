// How the machine's cores are shared among bots that run at once, so that
// one bot's load cannot slow another's thinking and the referee and the
// runner keep a share no bot can take.
//
// Own cores: when the cores left after the reserve (rounded up to whole
// cores, the lowest-numbered, which take most interrupts) hold
// `cores_per_bot` cores for every bot, each bot slot gets cores of its own
// (a cpuset) and no quota.
// Quota: otherwise every slot gets a CPU quota of (cores - reserve) / bots
// of a core (at most `cores_per_bot`), so the bots together never take the
// reserve, and a home of ceil(quota) cores, slots spread round-robin over
// the cores, so that two bots share a core only when there are more bots
// than cores. 2 cores, 2 bots, reserve 0.5: a quota of 0.75 core each, one
// on core 0, one on core 1.
#ifndef CARDREF_SANDBOX_CPU_PLAN_H_
#define CARDREF_SANDBOX_CPU_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cardref::sandbox {

struct CpuPlanOptions {
  std::vector<int> cpus;  // the cores to share (sorted, distinct)
  int bots = 1;           // bots that run at once
  // Cores' worth kept for the referee and the runner: whole cores in the
  // own-cores plan (rounded up), CPU time in the quota plan.
  double reserved_cores = 0.5;
  int cores_per_bot = 1;
  int64_t period_us = 100000;  // the quota's period
};

enum class CpuMode { kOwnCores, kQuota };

struct CpuSlot {
  std::vector<int> cpus;     // where the bot may run
  int64_t quota_us = 0;      // per period; 0: no quota
  int64_t period_us = 100000;
};

struct CpuPlan {
  CpuMode mode = CpuMode::kQuota;
  std::vector<CpuSlot> slots;     // one per bot running at once
  std::vector<int> reserved_cpus; // own-cores plan: no bot runs there
  double cores_per_slot = 0;      // what a slot may use, in cores
  int cores = 0;                  // the cores shared

  // One line: "2 bots on cores 1 and 2 of their own, core 0 kept for the
  // referee" or "2 bots share 2 cores: a quota of 0.75 core each...".
  std::string Describe() const;
};

// INVALID_ARGUMENT for no cores, no bots, a negative reserve or
// cores_per_bot < 1; FAILED_PRECONDITION when the reserve leaves the bots
// less than a tenth of a core each.
[[nodiscard]] absl::StatusOr<CpuPlan> PlanCpus(const CpuPlanOptions& options);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_CPU_PLAN_H_
