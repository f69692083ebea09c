// ChildProcess: a bot is held to its memory and task limits with its
// children (memory as resident, not address space), and one killed for
// either says so; MeasureTree, which measures them.
#include "tournament/bot_process.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "tournament/process_tree.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

constexpr uint64_t kMiB = 1 << 20;

// Runs `argv` to its end (at most a minute) and returns it.
ChildProcess RunToEnd(const ChildSpec& spec) {
  std::optional<ChildProcess> child = ChildProcess::Start(spec);
  EXPECT_TRUE(child.has_value());
  if (!child.has_value()) return ChildProcess();
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!child->Poll() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!child->exited()) {
    ADD_FAILURE() << "the child did not end";
    child->Kill();
  }
  return *child;
}

class ChildProcessTest : public ::testing::Test {
 protected:
  // `argv` under a memory limit of `memory_mib` and a limit of `tasks`
  // processes and threads (0: none), its output in a fresh folder of this
  // test's.
  ChildSpec Spec(std::vector<std::string> argv, uint64_t memory_mib,
                 int64_t tasks = 0) {
    ChildSpec spec;
    spec.argv = std::move(argv);
    spec.stderr_path = (dir_ / "child.stderr").string();
    spec.max_memory_bytes = memory_mib * kMiB;
    spec.max_tasks = tasks;
    return spec;
  }

  const std::filesystem::path dir_ =
      testing_util::FreshTestDir("bot_process_test_");
};

constexpr char kHog[] =
    "import sys\n"
    "print('hog: eating', file=sys.stderr, flush=True)\n"
    "chunks = []\n"
    "while True: chunks.append(b'x' * (1 << 20))\n";

// A bot that allocates without end is killed past its limit; its
// description says how much it had and which flag set the limit. Before the
// limit a bot like this took the organiser's machine.
TEST_F(ChildProcessTest, ABotPastItsMemoryLimitIsKilledAndSaysWhy) {
  ChildProcess child =
      RunToEnd(Spec({"/usr/bin/python3", "-c", kHog}, /*memory_mib=*/128));
  EXPECT_FALSE(child.succeeded());
  EXPECT_THAT(child.StderrTail(), HasSubstr("hog: eating"));
  EXPECT_THAT(child.Describe(),
              MatchesRegex("killed by signal 9, by the tournament: it had "
                           "[0-9]+ MiB resident, past its memory limit of "
                           "128 MiB \\(--max_bot_memory_mb\\)"));
  // Named as the sandbox names it, for the report and the referee.
  EXPECT_EQ(child.limit_name(), "memory_limit");
}

// The memory of the bot's children counts: a shell script that runs its
// program without exec is held to the same limit (a per-process limit, as
// RLIMIT_DATA, let the child take all it wanted).
TEST_F(ChildProcessTest, TheMemoryOfTheBotsChildrenCounts) {
  const std::string script =
      absl::StrCat("/usr/bin/python3 -c \"", kHog, "\"; echo hog ended");
  ChildProcess child =
      RunToEnd(Spec({"/bin/sh", "-c", script}, /*memory_mib=*/128));
  EXPECT_THAT(child.Describe(),
              HasSubstr("past its memory limit of 128 MiB"));
  // The process group went with it: the shell did not go on.
  EXPECT_THAT(child.StderrTail(), Not(HasSubstr("hog ended")));
}

// A bot within its limit is left alone, however its memory is laid out: an
// AddressSanitizer build maps terabytes it never touches, which is why the
// limit is on resident memory, not address space.
TEST_F(ChildProcessTest, ABotWithinItsLimitIsLeftAlone) {
  ChildProcess child = RunToEnd(
      Spec({"/usr/bin/python3", "-c",
            "import mmap, time\n"
            // MAP_NORESERVE (0x4000 on Linux; Python 3.11 does not name
            // it), as AddressSanitizer maps its shadow.
            "reserved = mmap.mmap(-1, 64 << 30, flags=mmap.MAP_PRIVATE | "
            "mmap.MAP_ANONYMOUS | 0x4000)\n"
            "held = b'x' * (32 << 20)\n"
            "time.sleep(0.5)\n"},
           /*memory_mib=*/128));
  EXPECT_TRUE(child.succeeded()) << child.Describe() << child.StderrTail();
  EXPECT_EQ(child.Describe(), "exit status 0");
  EXPECT_EQ(child.limit_name(), "");
}

// The processes of group `pgid` that are not yet zombies (/proc/PID/stat:
// "pid (comm) state ppid pgrp ...").
int LiveProcessesInGroup(pid_t pgid) {
  int live = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)),
                     std::istreambuf_iterator<char>());
    const size_t comm_end = text.rfind(')');
    if (comm_end == std::string::npos) continue;
    std::istringstream rest(text.substr(comm_end + 1));
    char state = 0;
    pid_t ppid = 0, pgrp = 0;
    if (rest >> state >> ppid >> pgrp && pgrp == pgid && state != 'Z') ++live;
  }
  return live;
}

// A fork bomb (here a slow one: a shell starting sleeps without end) is
// killed past the task limit, with every process of its group.
TEST_F(ChildProcessTest, AForkBombIsKilledWithItsWholeGroup) {
  ChildProcess child =
      RunToEnd(Spec({"/bin/sh", "-c", "while :; do sleep 60 & done"},
                    /*memory_mib=*/0, /*tasks=*/64));
  EXPECT_THAT(child.Describe(),
              MatchesRegex("killed by signal 9, by the tournament: it ran "
                           "[0-9]+ processes and threads, past its limit of "
                           "64 \\(--max_bot_threads\\)"));
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (LiveProcessesInGroup(child.pid()) > 0 &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(LiveProcessesInGroup(child.pid()), 0);
}

// Threads count as the kernel's pids.max counts them.
TEST_F(ChildProcessTest, ABotWithTooManyThreadsIsKilled) {
  ChildProcess child = RunToEnd(
      Spec({"/usr/bin/python3", "-c",
            "import threading, time\n"
            "for _ in range(200):\n"
            "  threading.Thread(target=time.sleep, args=(60,), "
            "daemon=True).start()\n"
            "time.sleep(60)\n"},
           /*memory_mib=*/0, /*tasks=*/64));
  EXPECT_THAT(child.Describe(),
              HasSubstr("processes and threads, past its limit of 64 "
                        "(--max_bot_threads)"));
  EXPECT_EQ(child.limit_name(), "process_limit");
}

// Pages a bot's processes share after a fork count once: four processes
// sharing 96 MiB hold 96 MiB, not the 384 MiB their resident sizes add up
// to (a Python bot with worker processes would have been killed).
TEST_F(ChildProcessTest, PagesSharedAfterAForkCountOnce) {
  ChildProcess child = RunToEnd(
      Spec({"/usr/bin/python3", "-c",
            "import os, time\n"
            "held = b'x' * (96 << 20)\n"
            "for _ in range(3):\n"
            "  if os.fork() == 0:\n"
            "    time.sleep(1.5)\n"
            "    os._exit(0)\n"
            "time.sleep(1.5)\n"
            "for _ in range(3): os.wait()\n"},
           /*memory_mib=*/200));
  EXPECT_TRUE(child.succeeded()) << child.Describe();
}

TEST(MeasureTreeTest, CountsThisProcessAndNothingForAProcessThatIsGone) {
  const TreeUsage self = MeasureTree(getpid());
  EXPECT_GT(self.resident_kib, 1024);
  EXPECT_GE(self.tasks, 1);
  ASSERT_EQ(self.processes.size(), 1u);
  const int64_t proportional = ProportionalKib(self.processes);
  EXPECT_GT(proportional, 0);
  EXPECT_LE(proportional, self.resident_kib + 1024);  // it grew meanwhile
  std::optional<ChildProcess> child = ChildProcess::Start(
      ChildSpec{{"/bin/true"}, {}, "/dev/null", {}, 0, 0, 0});
  ASSERT_TRUE(child.has_value());
  const pid_t pid = child->pid();
  child->Kill();
  const TreeUsage gone = MeasureTree(pid);
  EXPECT_EQ(gone.resident_kib, 0);
  EXPECT_EQ(gone.tasks, 0);
  EXPECT_TRUE(gone.processes.empty());
}

// A thread of ours is a task of ours.
TEST(MeasureTreeTest, CountsThreads) {
  const int64_t before = MeasureTree(getpid()).tasks;
  std::atomic<bool> done{false};
  std::thread sleeper([&done] {
    while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_EQ(MeasureTree(getpid()).tasks, before + 1);
  done = true;
  sleeper.join();
}

}  // namespace
}  // namespace cardref::tournament
