// Spawn: the child runs as the uid it is given, with the environment it is
// given and no descriptor of the runner's but those passed on. Needs root
// (to switch uid); skipped otherwise.
#include "sandbox/spawn.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::sandbox {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class SpawnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "Spawn switches uid: needs root; CI runs as root";
    dir_ = testing_util::FreshTestDir("spawn_");
  }
  // Runs `argv` as nobody, its output in a file; returns the output and
  // sets `status`.
  std::string Run(SpawnPlan plan, int& status) {
    const std::string out = (dir_ / "out").string();
    const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    plan.output_fd = fd;
    plan.uid = plan.gid = 65534;
    absl::StatusOr<pid_t> pid = Spawn(plan);
    close(fd);
    EXPECT_TRUE(pid.ok()) << pid.status();
    if (!pid.ok()) return "";
    waitpid(*pid, &status, 0);
    std::ifstream in(out);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::path dir_;
};

TEST_F(SpawnTest, ItsUidItsEnvironmentAndNoLeakedDescriptor) {
  // Left open without close-on-exec, as careless runner code might.
  std::ofstream(dir_ / "leaked-file") << "x";
  std::ofstream(dir_ / "kept-file") << "x";
  const int leaked = open((dir_ / "leaked-file").c_str(), O_RDONLY);
  const int kept = open((dir_ / "kept-file").c_str(), O_RDONLY | O_CLOEXEC);
  SpawnPlan plan;
  plan.argv = {"/bin/sh", "-c",
               "id -u; id -G; echo \"[$SECRET][$MINE]\"; ls -l /proc/self/fd/"};
  plan.env = {"PATH=/usr/bin:/bin", "MINE=yes"};
  plan.keep_fds = {kept};
  setenv("SECRET", "organiser-token", 1);
  int status = 0;
  const std::string out = Run(plan, status);
  unsetenv("SECRET");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_THAT(out, HasSubstr("65534\n65534\n"));  // no supplementary groups
  EXPECT_THAT(out, HasSubstr("[][yes]"));
  EXPECT_THAT(out, HasSubstr("kept-file"));
  EXPECT_THAT(out, Not(HasSubstr("leaked-file")));
  close(leaked);
  close(kept);
}

TEST_F(SpawnTest, FailuresBeforeExecAreStatus125) {
  SpawnPlan plan;
  plan.argv = {"/nonexistent/program"};
  int status = 0;
  const std::string out = Run(plan, status);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 125);
  EXPECT_THAT(out, HasSubstr("cannot execute /nonexistent/program"));
}

TEST_F(SpawnTest, IgnoredSignalsAreResetAndTheOutputIsCapped) {
  signal(SIGPIPE, SIG_IGN);
  SpawnPlan plan;
  plan.argv = {"/bin/sh", "-c", "grep SigIgn /proc/self/status; head -c 5000 /dev/zero > /dev/stdout"};
  plan.max_output_bytes = 4096;
  int status = 0;
  const std::string out = Run(plan, status);
  signal(SIGPIPE, SIG_DFL);
  EXPECT_THAT(out, Not(HasSubstr("SigIgn:\t0000000000001000")));  // SIGPIPE's bit
  EXPECT_LE(out.size(), 4096u);
}

}  // namespace
}  // namespace cardref::sandbox
