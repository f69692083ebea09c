#include "sandbox/cpu_plan.h"

#include <algorithm>
#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "sandbox/cgroup_files.h"

namespace cardref::sandbox {

absl::StatusOr<CpuPlan> PlanCpus(const CpuPlanOptions& options) {
  const int cores = static_cast<int>(options.cpus.size());
  if (cores == 0 || options.bots < 1 || options.cores_per_bot < 1 ||
      !(options.reserved_cores >= 0) || options.period_us < 1000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "a CPU plan needs cores (got %d), bots >= 1 (got %d), cores per bot "
        ">= 1 (got %d), a reserve >= 0 (got %g) and a period >= 1000 us "
        "(got %d)",
        cores, options.bots, options.cores_per_bot, options.reserved_cores,
        options.period_us));
  }
  CpuPlan plan;
  plan.cores = cores;
  const int reserved_whole =
      static_cast<int>(std::ceil(options.reserved_cores - 1e-9));
  if (cores - reserved_whole >= options.bots * options.cores_per_bot) {
    plan.mode = CpuMode::kOwnCores;
    plan.cores_per_slot = options.cores_per_bot;
    plan.reserved_cpus.assign(options.cpus.begin(),
                              options.cpus.begin() + reserved_whole);
    for (int slot = 0; slot < options.bots; ++slot) {
      CpuSlot s;
      s.period_us = options.period_us;
      const int first = reserved_whole + slot * options.cores_per_bot;
      s.cpus.assign(options.cpus.begin() + first,
                    options.cpus.begin() + first + options.cores_per_bot);
      plan.slots.push_back(std::move(s));
    }
    return plan;
  }
  plan.mode = CpuMode::kQuota;
  const double share = std::min<double>(
      (cores - options.reserved_cores) / options.bots, options.cores_per_bot);
  if (share < 0.1) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%d bots at once on %d cores with %g cores kept for the referee "
        "leave each bot %.2f of a core (less than 0.1): run fewer at once",
        options.bots, cores, options.reserved_cores, share));
  }
  plan.cores_per_slot = share;
  const int width = std::min(cores, static_cast<int>(std::ceil(share - 1e-9)));
  for (int slot = 0; slot < options.bots; ++slot) {
    CpuSlot s;
    s.period_us = options.period_us;
    s.quota_us = static_cast<int64_t>(share * options.period_us);
    for (int k = 0; k < width; ++k) {
      s.cpus.push_back(options.cpus[(slot * width + k) % cores]);
    }
    std::sort(s.cpus.begin(), s.cpus.end());
    plan.slots.push_back(std::move(s));
  }
  return plan;
}

std::string CpuPlan::Describe() const {
  if (mode == CpuMode::kOwnCores) {
    std::vector<int> bot_cpus;
    for (const CpuSlot& s : slots) {
      bot_cpus.insert(bot_cpus.end(), s.cpus.begin(), s.cpus.end());
    }
    std::sort(bot_cpus.begin(), bot_cpus.end());
    return absl::StrCat(
        slots.size(), " bot(s) at once on cores of their own (", cores_per_slot,
        " each, cores ", FormatCpuList(bot_cpus), ")",
        reserved_cpus.empty()
            ? std::string(", no core kept for the referee")
            : absl::StrCat(", cores ", FormatCpuList(reserved_cpus),
                           " kept for the referee and the runner"));
  }
  return absl::StrFormat(
      "%d bot(s) at once share %d core(s): a CPU quota of %.2f core each "
      "(spread over the cores), %.2f core kept for the referee and the runner",
      static_cast<int>(slots.size()), cores, cores_per_slot,
      cores - cores_per_slot * static_cast<double>(slots.size()));
}

}  // namespace cardref::sandbox
