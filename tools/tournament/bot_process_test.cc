// ChildProcess: the bounds a bot runs under are set in the bot itself, and a
// bot that ends at one says which.
#include "tools/tournament/bot_process.h"

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint64_t kMiB = 1 << 20;

// Runs `argv` to its end (at most a minute) and returns it.
ChildProcess RunToEnd(ChildSpec spec) {
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

ChildSpec Spec(const std::filesystem::path& dir,
               std::vector<std::string> argv) {
  ChildSpec spec;
  spec.argv = std::move(argv);
  spec.stderr_path = (dir / "child.stderr").string();
  return spec;
}

// The limits are the child's own, soft and hard, so it cannot raise them
// (ulimit prints KiB for -d; the hard limit is what it could raise to).
TEST(ChildProcessTest, TheMemoryLimitIsTheChildsSoftAndHardLimit) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("bot_process_test_");
  ChildSpec spec = Spec(dir, {"/bin/sh", "-c", "ulimit -S -d; ulimit -H -d"});
  spec.max_memory_bytes = 96 * kMiB;
  ChildProcess child = RunToEnd(spec);
  EXPECT_TRUE(child.succeeded()) << child.Describe();
  EXPECT_EQ(child.StderrTail(), "98304\n98304\n");

  spec.max_memory_bytes = 0;  // no limit: the child keeps the inherited one
  ChildProcess unlimited = RunToEnd(spec);
  EXPECT_THAT(unlimited.StderrTail(), Not(HasSubstr("98304")));
}

// A bot that allocates without end is refused memory at its limit and
// ends; its description says how much it held and which flag set the
// limit. Before the limit a bot like this took the organiser's machine.
TEST(ChildProcessTest, ABotThatRunsOutOfMemorySaysHowMuchItHeld) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("bot_process_test_");
  ChildSpec spec = Spec(
      dir, {"/usr/bin/python3", "-c",
            "chunks = []\n"
            "while True: chunks.append(b'x' * (1 << 20))\n"});
  spec.max_memory_bytes = 128 * kMiB;
  ChildProcess child = RunToEnd(spec);
  EXPECT_FALSE(child.succeeded());
  EXPECT_THAT(child.StderrTail(), HasSubstr("MemoryError"));
  EXPECT_GE(child.peak_rss_kib(), 96 * 1024);
  // Resident memory also counts the program and its libraries, which the
  // limit does not.
  EXPECT_LE(child.peak_rss_kib(), 192 * 1024);
  EXPECT_THAT(child.Describe(),
              HasSubstr("near its memory limit of 128 MiB "
                        "(--max_bot_memory_mb)"));
}

// A failure far from the limit is not blamed on memory.
TEST(ChildProcessTest, AFailureFarFromTheLimitIsNotBlamedOnMemory) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("bot_process_test_");
  ChildSpec spec = Spec(dir, {"/bin/sh", "-c", "exit 3"});
  spec.max_memory_bytes = 128 * kMiB;
  ChildProcess child = RunToEnd(spec);
  EXPECT_EQ(child.Describe(), "exit status 3");
  EXPECT_GT(child.peak_rss_kib(), 0);
}

}  // namespace
}  // namespace cardref::tournament
