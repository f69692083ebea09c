// ChildProcess: a bot is held to its memory limit with its children, on
// what it has resident, and one killed for it says so.
#include "tools/tournament/bot_process.h"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"
#include "tools/tournament/process_tree_memory.h"

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
  // `argv` under a memory limit of `memory_mib`, its output in a fresh
  // folder of this test's.
  ChildSpec Spec(std::vector<std::string> argv, uint64_t memory_mib) {
    ChildSpec spec;
    spec.argv = std::move(argv);
    spec.stderr_path = (dir_ / "child.stderr").string();
    spec.max_memory_bytes = memory_mib * kMiB;
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
}

TEST(TreeResidentKibTest, CountsThisProcessAndNothingForAProcessThatIsGone) {
  EXPECT_GT(TreeResidentKib(getpid()), 1024);
  std::optional<ChildProcess> child = ChildProcess::Start(
      ChildSpec{{"/bin/true"}, {}, "/dev/null", {}, 0, 0});
  ASSERT_TRUE(child.has_value());
  const pid_t pid = child->pid();
  child->Kill();
  EXPECT_EQ(TreeResidentKib(pid), 0);
}

}  // namespace
}  // namespace cardref::tournament
