#include "sandbox/testing/sandbox_test_util.h"

#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace cardref::sandbox::testing {
namespace {

constexpr const char* kPrograms[] = {
    "hostile_files", "hostile_network", "hostile_bombs", "hostile_cpu",
    "hostile_daemon", "hostile_syscalls"};

std::vector<pid_t> AllPids() {
  std::vector<pid_t> pids;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return pids;
  while (const dirent* e = readdir(proc)) {
    int pid = 0;
    if (absl::SimpleAtoi(e->d_name, &pid)) pids.push_back(pid);
  }
  closedir(proc);
  return pids;
}

}  // namespace

std::string WhyNotHere() {
  if (geteuid() != 0) {
    return "the sandbox suite needs root (cgroups, a uid per bot); CI runs "
           "as root";
  }
  return "";
}

SandboxFixture::SandboxFixture(int bot_slots, double reserved_cores) {
  // Under /tmp, not the test's temporary folder: every folder on the way
  // to a bot's must be open to the bot's uid.
  std::string root = "/tmp/cardref-sandbox-test.XXXXXX";
  if (mkdtemp(root.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp: " << std::strerror(errno);
    return;
  }
  root_ = root;
  std::filesystem::permissions(root_, std::filesystem::perms(0755));
  // 2 uids per test process, from 201000 up: parallel tests stay apart.
  first_uid_ = 201000 + static_cast<uid_t>(getpid() % 20000) * 2;
  for (uid_t uid = first_uid_; uid < first_uid_ + 2; ++uid) {
    if (getpwuid(uid) != nullptr) {
      ADD_FAILURE() << "uid " << uid << " is an account's: the suite kills "
                    << "its processes";
    }
  }
  HostOptions options;
  options.bot_slots = bot_slots;
  options.reserved_cores = reserved_cores;
  options.work_dir = (root_ / "work").string();
  options.cgroup_prefix = "cardref-sandbox-test";
  absl::StatusOr<std::unique_ptr<SandboxHost>> host = SandboxHost::Create(options);
  if (!host.ok()) {
    ADD_FAILURE() << host.status();
    return;
  }
  host_ = *std::move(host);
}

SandboxFixture::~SandboxFixture() {
  host_.reset();
  if (root_.empty()) return;
  // Kept for a look when the test failed.
  if (::testing::Test::HasFailure()) {
    std::cerr << "the test's folder: " << root_ << "\n";
  } else {
    std::filesystem::remove_all(root_);
  }
}

uid_t SandboxFixture::Uid(int i) const { return first_uid_ + static_cast<uid_t>(i); }

std::filesystem::path SandboxFixture::BotFolder(const std::string& bot) {
  std::filesystem::path dir = root_ / "bots" / bot;
  if (!std::filesystem::exists(dir)) {
    std::filesystem::create_directories(dir);
    std::filesystem::permissions(root_ / "bots", std::filesystem::perms(0755));
    std::filesystem::permissions(dir, std::filesystem::perms(0755));
    for (const char* program : kPrograms) {
      const std::filesystem::path to = dir / program;
      std::filesystem::copy_file(
          std::filesystem::path(CARDREF_SANDBOX_BOTS_DIR) / program, to);
      std::filesystem::permissions(to, std::filesystem::perms(0755));
    }
  }
  return dir;
}

SandboxSpec SandboxFixture::Spec(const std::string& bot, int i,
                                 const std::string& program,
                                 std::vector<std::string> args) {
  SandboxSpec spec;
  spec.argv = {(BotFolder(bot) / program).string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.uid = spec.gid = Uid(i);
  spec.output_path = (root_ / absl::StrCat(bot, "-", program, ".out")).string();
  spec.name = bot;
  spec.limits.memory_bytes = uint64_t{256} << 20;
  spec.limits.max_tasks = 64;
  spec.limits.wall_time = absl::Seconds(30);  // a hung test ends
  spec.limits.scratch_bytes = uint64_t{4} << 20;
  return spec;
}

SandboxOutcome SandboxFixture::Run(const SandboxSpec& spec, absl::Duration* max_gap) {
  absl::StatusOr<std::unique_ptr<Sandbox>> bot = host_->Start(spec);
  if (!bot.ok()) {
    ADD_FAILURE() << bot.status();
    SandboxOutcome failed;
    failed.reason = EndReason::kStartFailed;
    return failed;
  }
  absl::Time last = absl::Now();
  absl::Duration gap = absl::ZeroDuration();
  while (!(*bot)->Poll()) {
    absl::SleepFor(absl::Milliseconds(10));
    const absl::Time now = absl::Now();
    gap = std::max(gap, now - last);
    last = now;
  }
  if (max_gap != nullptr) *max_gap = gap;
  return *(*bot)->outcome();
}

std::string SandboxFixture::Output(const SandboxSpec& spec) {
  std::ifstream in(spec.output_path);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

std::vector<pid_t> ProcessesWithMarker(const std::string& marker) {
  std::vector<pid_t> found;
  for (pid_t pid : AllPids()) {
    std::ifstream in(absl::StrCat("/proc/", pid, "/cmdline"));
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    if (cmdline.find(marker) != std::string::npos) found.push_back(pid);
  }
  return found;
}

namespace {

std::vector<pid_t> LiveProcessesOfUid(uid_t uid) {
  std::vector<pid_t> found;
  for (pid_t pid : AllPids()) {
    struct stat st;
    if (stat(absl::StrCat("/proc/", pid).c_str(), &st) != 0 || st.st_uid != uid) {
      continue;
    }
    // A zombie is dead: bwrap's init in the pid namespace is left for the
    // machine's init to reap (bwrap exits without waiting for it).
    std::ifstream in(absl::StrCat("/proc/", pid, "/stat"));
    const std::string stat_line((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
    const size_t paren = stat_line.rfind(')');
    if (paren != std::string::npos && paren + 2 < stat_line.size() &&
        stat_line[paren + 2] == 'Z') {
      continue;
    }
    found.push_back(pid);
  }
  return found;
}

}  // namespace

std::vector<pid_t> ProcessesOfUid(uid_t uid, absl::Duration grace) {
  const absl::Time give_up = absl::Now() + grace;
  std::vector<pid_t> found = LiveProcessesOfUid(uid);
  while (!found.empty() && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(10));
    found = LiveProcessesOfUid(uid);
  }
  return found;
}

}  // namespace cardref::sandbox::testing
