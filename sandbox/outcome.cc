#include "sandbox/outcome.h"

#include <sys/wait.h>

#include <csignal>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::sandbox {
namespace {

std::string MiB(int64_t bytes) {
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / (1 << 20));
}

std::string Seconds(absl::Duration d) {
  return absl::StrFormat("%.2f s", absl::ToDoubleSeconds(d));
}

}  // namespace

absl::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kExited:
      return "exited";
    case EndReason::kCrashed:
      return "crashed";
    case EndReason::kMemoryLimit:
      return "memory_limit";
    case EndReason::kProcessLimit:
      return "process_limit";
    case EndReason::kCpuTimeLimit:
      return "cpu_time_limit";
    case EndReason::kWallTimeLimit:
      return "wall_time_limit";
    case EndReason::kOutputLimit:
      return "output_limit";
    case EndReason::kStopped:
      return "stopped";
    case EndReason::kStartFailed:
      return "start_failed";
  }
  return "?";
}

bool IsLimit(EndReason reason) {
  return reason == EndReason::kMemoryLimit ||
         reason == EndReason::kProcessLimit ||
         reason == EndReason::kCpuTimeLimit ||
         reason == EndReason::kWallTimeLimit ||
         reason == EndReason::kOutputLimit;
}

SandboxOutcome Attribute(const EndFacts& facts) {
  SandboxOutcome outcome;
  outcome.usage = facts.usage;
  outcome.limits = facts.limits;
  // The bot's own status, as bwrap passes it on.
  int code = -1;
  if (facts.reported_exit_code.has_value()) {
    code = *facts.reported_exit_code;
  } else if (WIFEXITED(facts.wait_status)) {
    code = WEXITSTATUS(facts.wait_status);
  } else if (WIFSIGNALED(facts.wait_status)) {
    code = 128 + WTERMSIG(facts.wait_status);  // bwrap itself was killed
  }
  // 128 + N: bwrap's report of a bot ended by signal N (a bot that exits
  // with such a status itself reads as that signal: rare, and said so in
  // docs/sandbox.md).
  const int signal = code > 128 && code < 128 + 65 ? code - 128 : 0;
  outcome.signal = signal;

  const CgroupCounters& c = facts.usage.counters;
  if (facts.ended_by_sandbox.has_value()) {
    outcome.reason = *facts.ended_by_sandbox;
  } else if (c.oom_kills.value_or(0) > 0) {
    outcome.reason = EndReason::kMemoryLimit;
  } else if (!facts.started) {
    outcome.reason = EndReason::kStartFailed;
  } else if (signal == SIGXFSZ) {
    outcome.reason = EndReason::kOutputLimit;
  } else if (signal != 0) {
    outcome.reason = c.task_limit_hits.value_or(0) > 0
                         ? EndReason::kProcessLimit
                         : EndReason::kCrashed;
  } else if (code != 0 && c.task_limit_hits.value_or(0) > 0) {
    // A bot that gave up when a fork was refused.
    outcome.reason = EndReason::kProcessLimit;
  } else {
    outcome.reason = EndReason::kExited;
    outcome.exit_code = code;
  }
  return outcome;
}

std::string SandboxOutcome::Describe() const {
  const CgroupCounters& c = usage.counters;
  std::string text;
  switch (reason) {
    case EndReason::kExited:
      text = absl::StrCat("exited with status ", exit_code);
      break;
    case EndReason::kCrashed:
      text = absl::StrCat("crashed: signal ", signal, " (", strsignal(signal), ")");
      break;
    case EndReason::kMemoryLimit:
      text = absl::StrCat(
          "ended at its memory limit of ", MiB(static_cast<int64_t>(limits.memory_bytes)),
          ": the OOM killer ended ",
          c.oom_kills.value_or(0), " of its processes",
          c.memory_peak_bytes.has_value()
              ? absl::StrCat("; it held up to ", MiB(*c.memory_peak_bytes))
              : "");
      break;
    case EndReason::kProcessLimit:
      text = absl::StrCat("ended at its limit of ", limits.max_tasks,
                          " processes and threads: ",
                          c.task_limit_hits.value_or(0),
                          " fork(s) or thread(s) refused");
      break;
    case EndReason::kCpuTimeLimit:
      text = absl::StrCat("ended at its CPU time limit of ",
                          Seconds(limits.cpu_time), ": it used ",
                          Seconds(absl::Nanoseconds(c.cpu_ns.value_or(0))));
      break;
    case EndReason::kWallTimeLimit:
      text = absl::StrCat("ended at its wall time limit of ",
                          Seconds(limits.wall_time), ": it ran ",
                          Seconds(usage.wall));
      break;
    case EndReason::kOutputLimit:
      text = absl::StrCat("ended at its output limit of ",
                          MiB(static_cast<int64_t>(limits.max_output_bytes)),
                          " (SIGXFSZ: it wrote past it)");
      break;
    case EndReason::kStopped:
      text = "stopped by the runner";
      break;
    case EndReason::kStartFailed:
      text = "could not be started in its sandbox (its output says why)";
      break;
  }
  absl::StrAppend(&text, " [", Seconds(usage.wall), " wall");
  if (c.cpu_ns.has_value()) {
    absl::StrAppend(&text, ", ", Seconds(absl::Nanoseconds(*c.cpu_ns)), " CPU");
  }
  if (c.memory_peak_bytes.has_value()) {
    absl::StrAppend(&text, ", ", MiB(*c.memory_peak_bytes), " peak");
  }
  if (c.tasks_peak.has_value()) {
    absl::StrAppend(&text, ", ", *c.tasks_peak, " tasks peak");
  }
  absl::StrAppend(&text, "]");
  return text;
}

}  // namespace cardref::sandbox
