// A box's counters, read from the files of each cgroup version (in a
// folder laid out as the kernel lays out a cgroup): the sandbox tells a
// memory, process or CPU limit from them. The real kernel's side is the
// hostile suite's (sandbox/testing/).
#include "sandbox/cgroup.h"

#include <fstream>
#include <map>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::sandbox {
namespace {

using ::testing::ElementsAre;

void Write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(CgroupBox, ReadsV1Counters) {
  const std::filesystem::path root = testing_util::FreshTestDir("cgroup_v1_");
  std::map<Controller, std::string> dirs;
  for (Controller c : kAllControllers) {
    dirs[c] = (root / std::string(ControllerName(c)) / "box").string();
  }
  Write(root / "cpuacct/box/cpuacct.usage", "2500000000\n");
  Write(root / "cpu/box/cpu.stat",
        "nr_periods 40\nnr_throttled 3\nthrottled_time 7000000\n");
  Write(root / "memory/box/memory.max_usage_in_bytes", "67108864\n");
  Write(root / "memory/box/memory.oom_control",
        "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
  Write(root / "memory/box/memory.failcnt", "40\n");
  Write(root / "pids/box/pids.events", "max 7\n");
  Write(root / "pids/box/pids.peak", "66\n");
  Write(root / "pids/box/cgroup.procs", "10\n12\n");
  Write(root / "memory/box/cgroup.procs", "12\n11\n");
  CgroupBox box(CgroupVersion::kV1, dirs);
  const CgroupCounters c = box.ReadCounters();
  EXPECT_EQ(c.cpu_ns, 2500000000);
  EXPECT_EQ(c.cpu_throttled_ns, 7000000);
  EXPECT_EQ(c.memory_peak_bytes, 67108864);
  EXPECT_EQ(c.oom_kills, 2);
  EXPECT_EQ(c.memory_limit_hits, 40);
  EXPECT_EQ(c.task_limit_hits, 7);
  EXPECT_EQ(c.tasks_peak, 66);
  // Every hierarchy's members, once each.
  EXPECT_THAT(box.Pids(), ElementsAre(10, 11, 12));
}

TEST(CgroupBox, ReadsV2Counters) {
  const std::filesystem::path root = testing_util::FreshTestDir("cgroup_v2_");
  std::map<Controller, std::string> dirs;
  for (Controller c : kAllControllers) dirs[c] = (root / "box").string();
  Write(root / "box/cpu.stat",
        "usage_usec 1500000\nuser_usec 1000000\nnr_throttled 2\nthrottled_usec 4000\n");
  Write(root / "box/memory.peak", "1048576\n");
  Write(root / "box/memory.events", "low 0\nhigh 0\nmax 9\noom 1\noom_kill 1\n");
  Write(root / "box/pids.events", "max 0\n");
  Write(root / "box/cgroup.procs", "");
  CgroupBox box(CgroupVersion::kV2, dirs);
  const CgroupCounters c = box.ReadCounters();
  EXPECT_EQ(c.cpu_ns, 1500000000);
  EXPECT_EQ(c.cpu_throttled_ns, 4000000);
  EXPECT_EQ(c.memory_peak_bytes, 1048576);
  EXPECT_EQ(c.oom_kills, 1);
  EXPECT_EQ(c.memory_limit_hits, 9);
  EXPECT_EQ(c.task_limit_hits, 0);
  EXPECT_EQ(c.tasks_peak, std::nullopt);  // an older kernel: no pids.peak
  EXPECT_TRUE(box.Pids().empty());
  EXPECT_TRUE(box.KillAll(absl::Seconds(1)));  // nothing to kill
}

TEST(CgroupBox, MissingControllersAreUnknownNotZero) {
  const std::filesystem::path root = testing_util::FreshTestDir("cgroup_none_");
  std::map<Controller, std::string> dirs = {
      {Controller::kMemory, (root / "memory/box").string()}};
  Write(root / "memory/box/memory.max_usage_in_bytes", "4096\n");
  CgroupBox box(CgroupVersion::kV1, dirs);
  const CgroupCounters c = box.ReadCounters();
  EXPECT_EQ(c.memory_peak_bytes, 4096);
  EXPECT_EQ(c.cpu_ns, std::nullopt);
  EXPECT_EQ(c.task_limit_hits, std::nullopt);
  EXPECT_EQ(c.oom_kills, std::nullopt);
}

}  // namespace
}  // namespace cardref::sandbox
