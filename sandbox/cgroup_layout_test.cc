// Where the sandbox makes its cgroups, from /proc/self/cgroup and
// mountinfo as machines show them: v1 (with an unused cgroup2 mount, as on
// the CI machine), pure v2, controllers mounted together, a container's
// mount of a sub-hierarchy.
#include "sandbox/cgroup_layout.h"

#include <map>
#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::sandbox {
namespace {

using Files = std::map<std::string, std::string>;

absl::StatusOr<CgroupLayout> Parse(const std::string& cgroup,
                                   const std::string& mountinfo,
                                   const Files& files = {}) {
  return ParseCgroupLayout(cgroup, mountinfo,
                           [&files](const std::string& path)
                               -> std::optional<std::string> {
                             const auto it = files.find(path);
                             if (it == files.end()) return std::nullopt;
                             return it->second;
                           });
}

constexpr char kHybridCgroup[] =
    "9:name=systemd:/\n8:pids:/\n6:freezer:/\n"
    "4:memory:/process_api/abc\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n";
constexpr char kHybridMounts[] =
    "24 1 0:22 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "25 24 0:23 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "26 24 0:24 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "27 24 0:25 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "28 24 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
    "29 24 0:27 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer\n"
    "30 24 0:28 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
    "31 24 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

TEST(ParseCgroupLayout, V1UnderTheProcessesOwnCgroups) {
  const Files files = {{"/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n"}};
  absl::StatusOr<CgroupLayout> layout = Parse(kHybridCgroup, kHybridMounts, files);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->version, CgroupVersion::kV1);
  EXPECT_TRUE(layout->hybrid);
  EXPECT_EQ(layout->DirOf(Controller::kMemory), "/sys/fs/cgroup/memory/process_api/abc");
  EXPECT_EQ(layout->DirOf(Controller::kCpu), "/sys/fs/cgroup/cpu");
  EXPECT_EQ(layout->DirOf(Controller::kCpuacct), "/sys/fs/cgroup/cpuacct");
  EXPECT_EQ(layout->DirOf(Controller::kFreezer), "/sys/fs/cgroup/freezer");
  EXPECT_EQ(layout->DirOf(Controller::kPids), "/sys/fs/cgroup/pids");
  EXPECT_EQ(layout->DirOf(Controller::kCpuset), "/sys/fs/cgroup/cpuset");
}

TEST(ParseCgroupLayout, ControllersMountedTogetherShareAFolder) {
  const std::string cgroup = "5:cpu,cpuacct:/user.slice\n4:memory:/user.slice\n";
  const std::string mounts =
      "25 24 0:23 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n"
      "28 24 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
  absl::StatusOr<CgroupLayout> layout = Parse(cgroup, mounts);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->version, CgroupVersion::kV1);
  EXPECT_FALSE(layout->hybrid);
  EXPECT_EQ(layout->DirOf(Controller::kCpu), "/sys/fs/cgroup/cpu,cpuacct/user.slice");
  EXPECT_EQ(layout->DirOf(Controller::kCpuacct), layout->DirOf(Controller::kCpu));
  EXPECT_FALSE(layout->Has(Controller::kPids));
}

TEST(ParseCgroupLayout, PureV2ServesEveryControllerFromOneFolder) {
  const std::string cgroup = "0::/system.slice/runner.service\n";
  const std::string mounts =
      "30 24 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
  const Files files = {
      {"/sys/fs/cgroup/system.slice/runner.service/cgroup.controllers",
       "cpuset cpu io memory hugetlb pids rdma misc\n"}};
  absl::StatusOr<CgroupLayout> layout = Parse(cgroup, mounts, files);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->version, CgroupVersion::kV2);
  for (Controller c : kAllControllers) {
    ASSERT_TRUE(layout->Has(c)) << ControllerName(c);
    EXPECT_EQ(layout->DirOf(c), "/sys/fs/cgroup/system.slice/runner.service");
  }
}

TEST(ParseCgroupLayout, V2WithoutPidsIsNotEnough) {
  const std::string cgroup = "0::/a\n";
  const std::string mounts = "30 24 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
  const Files files = {{"/sys/fs/cgroup/a/cgroup.controllers", "memory cpu\n"}};
  absl::StatusOr<CgroupLayout> layout = Parse(cgroup, mounts, files);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->version, CgroupVersion::kNone);
}

TEST(ParseCgroupLayout, AContainersMountOfASubHierarchy) {
  // The container sees /docker/xyz mounted at /sys/fs/cgroup/memory.
  const std::string cgroup = "4:memory:/docker/xyz/job\n";
  const std::string mounts =
      "28 24 0:26 /docker/xyz /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
  absl::StatusOr<CgroupLayout> layout = Parse(cgroup, mounts);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->DirOf(Controller::kMemory), "/sys/fs/cgroup/memory/job");
}

TEST(ParseCgroupLayout, EscapedMountPoint) {
  const std::string cgroup = "4:memory:/\n";
  const std::string mounts =
      "28 24 0:26 / /mnt/cg\\040mem rw - cgroup cgroup rw,memory\n";
  absl::StatusOr<CgroupLayout> layout = Parse(cgroup, mounts);
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->DirOf(Controller::kMemory), "/mnt/cg mem");
}

TEST(ParseCgroupLayout, NoCgroupsAtAll) {
  absl::StatusOr<CgroupLayout> layout =
      Parse("", "22 1 0:5 / /proc rw - proc proc rw\n");
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(layout->version, CgroupVersion::kNone);
}

TEST(ParseCgroupLayout, RefusesAGarbledLine) {
  EXPECT_EQ(Parse("garbage\n", "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(DetectCgroupLayout, ReadsThisMachine) {
  // Whatever the machine: it parses, and every folder it names exists.
  absl::StatusOr<CgroupLayout> layout = DetectCgroupLayout();
  ASSERT_TRUE(layout.ok()) << layout.status();
  for (const auto& [controller, dir] : layout->own_dirs) {
    EXPECT_EQ(access(dir.c_str(), F_OK), 0) << dir;
  }
}

}  // namespace
}  // namespace cardref::sandbox
