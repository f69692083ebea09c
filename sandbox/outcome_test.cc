// Why a bot ended, from the counters, the clocks and its exit status: a
// limit is told apart from a crash and from an exit.
#include "sandbox/outcome.h"

#include <sys/wait.h>

#include <csignal>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::sandbox {
namespace {

using ::testing::HasSubstr;

// A wait status of a process that exited with `code`.
int Exited(int code) { return code << 8; }

EndFacts Started(int bwrap_exit_code) {
  EndFacts f;
  f.wait_status = Exited(bwrap_exit_code);
  f.started = true;
  f.reported_exit_code = bwrap_exit_code;
  f.usage.counters.oom_kills = 0;
  f.usage.counters.task_limit_hits = 0;
  f.usage.counters.cpu_ns = 1000000;
  return f;
}

TEST(Attribute, AnExit) {
  const SandboxOutcome o = Attribute(Started(3));
  EXPECT_EQ(o.reason, EndReason::kExited);
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_FALSE(IsLimit(o.reason));
  EXPECT_THAT(o.Describe(), HasSubstr("exited with status 3"));
}

TEST(Attribute, ACrashIsASignalNotALimit) {
  const SandboxOutcome o = Attribute(Started(128 + SIGSEGV));
  EXPECT_EQ(o.reason, EndReason::kCrashed);
  EXPECT_EQ(o.signal, SIGSEGV);
  EXPECT_THAT(o.Describe(), HasSubstr("signal 11"));
}

TEST(Attribute, TheOomKillerMeansMemory) {
  EndFacts f = Started(128 + SIGKILL);
  f.usage.counters.oom_kills = 1;
  f.usage.counters.memory_peak_bytes = 64 << 20;
  f.limits.memory_bytes = 64 << 20;
  const SandboxOutcome o = Attribute(f);
  EXPECT_EQ(o.reason, EndReason::kMemoryLimit);
  EXPECT_TRUE(IsLimit(o.reason));
  EXPECT_THAT(o.Describe(), HasSubstr("memory limit of 64.0 MiB"));
  // Even when the bot's main process survived a child's OOM kill and exited.
  f = Started(0);
  f.usage.counters.oom_kills = 1;
  EXPECT_EQ(Attribute(f).reason, EndReason::kMemoryLimit);
}

TEST(Attribute, ARefusedForkThenAFailure) {
  EndFacts f = Started(1);
  f.usage.counters.task_limit_hits = 5;
  f.limits.max_tasks = 32;
  const SandboxOutcome o = Attribute(f);
  EXPECT_EQ(o.reason, EndReason::kProcessLimit);
  EXPECT_THAT(o.Describe(), HasSubstr("limit of 32 processes and threads: 5"));
  // A bot that handled the refusal and exited 0 simply exited.
  f = Started(0);
  f.usage.counters.task_limit_hits = 5;
  EXPECT_EQ(Attribute(f).reason, EndReason::kExited);
}

TEST(Attribute, WhatTheSandboxEndedItForWins) {
  for (EndReason r : {EndReason::kCpuTimeLimit, EndReason::kWallTimeLimit,
                      EndReason::kProcessLimit, EndReason::kStopped}) {
    EndFacts f = Started(0);
    f.wait_status = SIGKILL;  // bwrap killed by the sandbox
    f.reported_exit_code.reset();
    f.ended_by_sandbox = r;
    EXPECT_EQ(Attribute(f).reason, r) << EndReasonName(r);
  }
  EndFacts f = Started(0);
  f.ended_by_sandbox = EndReason::kCpuTimeLimit;
  f.limits.cpu_time = absl::Seconds(2);
  f.usage.counters.cpu_ns = 2100000000;
  EXPECT_THAT(Attribute(f).Describe(),
              HasSubstr("CPU time limit of 2.00 s: it used 2.10 s"));
}

TEST(Attribute, OutputPastItsLimit) {
  const SandboxOutcome o = Attribute(Started(128 + SIGXFSZ));
  EXPECT_EQ(o.reason, EndReason::kOutputLimit);
}

TEST(Attribute, NeverStarted) {
  EndFacts f;
  f.wait_status = Exited(1);  // bwrap: set-up failed, no child-pid
  EXPECT_EQ(Attribute(f).reason, EndReason::kStartFailed);
}

TEST(Attribute, NamesAreStable) {
  EXPECT_EQ(EndReasonName(EndReason::kMemoryLimit), "memory_limit");
  EXPECT_EQ(EndReasonName(EndReason::kProcessLimit), "process_limit");
  EXPECT_EQ(EndReasonName(EndReason::kCpuTimeLimit), "cpu_time_limit");
  EXPECT_EQ(EndReasonName(EndReason::kWallTimeLimit), "wall_time_limit");
  EXPECT_EQ(EndReasonName(EndReason::kCrashed), "crashed");
}

}  // namespace
}  // namespace cardref::sandbox
