// The hostile bot suite: small hostile programs (this folder), each run in
// the sandbox through the library, no referee. Each checks one promise of
// docs/sandbox.md: nothing of the host to read, nowhere to write but the
// scratch folder (and that capped), no network but the referee's socket,
// bombs contained and attributed while the test keeps running, a daemon
// gone with its sandbox, the kernel's riskier calls refused.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "sandbox/cgroup_layout.h"
#include "sandbox/testing/sandbox_test_util.h"

namespace cardref::sandbox::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

class HostileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = WhyNotHere();
    if (!why.empty()) GTEST_SKIP() << why;
    fixture_ = std::make_unique<SandboxFixture>();
    ASSERT_FALSE(::testing::Test::HasFailure());
  }
  std::unique_ptr<SandboxFixture> fixture_;
};

// A secret another bot, the referee or the organiser keeps, readable by
// anyone on the host (0644): only the sandbox can hide it.
std::string PlantSecret(const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << "secret\n";
  std::filesystem::permissions(path.parent_path(), std::filesystem::perms(0755));
  std::filesystem::permissions(path, std::filesystem::perms(0644));
  return path.string();
}

TEST_F(HostileTest, ReadsNothingOfTheHost) {
  const std::string other_bot = PlantSecret(fixture_->BotFolder("bob") / "book.txt");
  const std::string referee_key =
      PlantSecret(fixture_->root() / "referee" / "referee_ed25519.key");
  const std::string referee_log = PlantSecret(fixture_->root() / "logs" / "m1.cardlog");
  const std::string own = PlantSecret(fixture_->BotFolder("alice") / "mine.txt");
  SandboxSpec spec = fixture_->Spec(
      "alice", 0, "hostile_files",
      {"read", "/etc/shadow", "/etc/gshadow", "/etc/ssh", other_bot, referee_key,
       referee_log, "/root", "/home", "/var/log", own, "/etc/ld.so.cache"});
  const SandboxOutcome outcome = fixture_->Run(spec);
  const std::string out = SandboxFixture::Output(spec);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe() << "\n" << out;
  EXPECT_EQ(outcome.exit_code, 0);
  for (const std::string& hidden : {std::string("/etc/shadow"), std::string("/etc/gshadow"),
                                    std::string("/etc/ssh"), other_bot, referee_key,
                                    referee_log, std::string("/root"),
                                    std::string("/home"), std::string("/var/log")}) {
    EXPECT_THAT(out, HasSubstr(hidden + " ENOENT")) << out;
  }
  // The control: its own folder and the system's are there.
  EXPECT_THAT(out, HasSubstr(own + " ok"));
  EXPECT_THAT(out, HasSubstr("/etc/ld.so.cache ok"));
}

TEST_F(HostileTest, WritesOnlyToItsScratchFolder) {
  const std::string folder = fixture_->BotFolder("alice").string();
  SandboxSpec spec = fixture_->Spec(
      "alice", 0, "hostile_files",
      {"write", folder + "/planted", "/etc/planted", "/usr/planted", "/planted",
       "/dev/shm/planted", "/run/planted", "/tmp/note", "/tmp/sub"});
  const SandboxOutcome outcome = fixture_->Run(spec);
  const std::string out = SandboxFixture::Output(spec);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  for (const std::string& path : {folder + "/planted", std::string("/etc/planted"),
                                  std::string("/usr/planted"), std::string("/planted"),
                                  std::string("/dev/shm/planted"),
                                  std::string("/run/planted")}) {
    EXPECT_THAT(out, AllOf(HasSubstr(path + " E"), Not(HasSubstr(path + " ok"))))
        << out;
  }
  EXPECT_FALSE(std::filesystem::exists(folder + "/planted"));
  EXPECT_THAT(out, HasSubstr("/tmp/note ok"));  // the scratch folder
  EXPECT_THAT(out, HasSubstr("/tmp/sub ok"));
}

TEST_F(HostileTest, FillsItsScratchFolderOnlyToTheCap) {
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_files", {"fill", "/tmp"});
  spec.limits.scratch_bytes = uint64_t{4} << 20;
  spec.limits.memory_bytes = uint64_t{64} << 20;
  spec.limits.max_output_bytes = uint64_t{16} << 20;  // a file's cap (SIGXFSZ)
  const SandboxOutcome outcome = fixture_->Run(spec);
  const std::string out = SandboxFixture::Output(spec);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  int64_t filled = -1;
  for (absl::string_view line : absl::StrSplit(out, '\n')) {
    if (absl::ConsumePrefix(&line, "filled ")) {
      EXPECT_TRUE(absl::EndsWith(line, " ENOSPC")) << out;
      (void)absl::SimpleAtoi(line.substr(0, line.find(' ')), &filled);
    }
  }
  EXPECT_GT(filled, 0) << out;
  EXPECT_LE(filled, int64_t{4} << 20);
}

// A TCP server on the host's loopback that counts its connections.
class CountingServer {
 public:
  CountingServer() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(a);
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    EXPECT_EQ(listen(fd_, 8), 0);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &size);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      while (true) {
        const int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0) return;
        connections_.fetch_add(1);
        char buffer[256];
        const ssize_t n = read(c, buffer, sizeof(buffer));  // echo once
        if (n > 0) (void)!write(c, buffer, static_cast<size_t>(n));
        close(c);
      }
    });
  }
  ~CountingServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  int connections() const { return connections_.load(); }

 private:
  int fd_;
  int port_ = 0;
  std::atomic<int> connections_{0};
  std::thread thread_;
};

TEST_F(HostileTest, NoNetworkButItsReferee) {
  CountingServer referee;
  const std::string port = absl::StrCat(referee.port());
  SandboxSpec tcp = fixture_->Spec("alice", 0, "hostile_network",
                                   {"tcp", "127.0.0.1", port, "10.0.0.1", "80"});
  SandboxOutcome outcome = fixture_->Run(tcp);
  std::string out = SandboxFixture::Output(tcp);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  // Its own loopback has no listener; no route leads anywhere else.
  EXPECT_THAT(out, HasSubstr(absl::StrCat("tcp 127.0.0.1:", port, " ECONNREFUSED")));
  EXPECT_THAT(out, HasSubstr("tcp 10.0.0.1:80 ENETUNREACH"));
  EXPECT_EQ(referee.connections(), 0);

  SandboxSpec unix_socket = fixture_->Spec(
      "alice", 0, "hostile_network", {"unix", kRefereeSocketInside, "hello-referee"});
  // From an address of its own, as a referee would tell bots apart.
  unix_socket.referee = RefereeAddress{"127.0.0.1", referee.port(), "127.0.0.2"};
  outcome = fixture_->Run(unix_socket);
  out = SandboxFixture::Output(unix_socket);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  EXPECT_THAT(out, HasSubstr("unix reply hello-referee"));  // the host end answered
  EXPECT_EQ(referee.connections(), 1);

  SandboxSpec env = fixture_->Spec("alice", 0, "hostile_network", {"env", "CARDREF_REFEREE"});
  env.referee = RefereeAddress{"127.0.0.1", referee.port(), ""};
  fixture_->Run(env);
  EXPECT_THAT(SandboxFixture::Output(env),
              HasSubstr(absl::StrCat("env CARDREF_REFEREE=", kRefereeAddressInside)));
}

TEST_F(HostileTest, ForkBombIsContainedAndAttributed) {
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_bombs", {"fork"});
  spec.limits.max_tasks = 32;
  absl::Duration gap;
  const SandboxOutcome outcome = fixture_->Run(spec, &gap);
  EXPECT_EQ(outcome.reason, EndReason::kProcessLimit) << outcome.Describe();
  EXPECT_GT(outcome.usage.counters.task_limit_hits.value_or(0), 0);
  EXPECT_LE(outcome.usage.counters.tasks_peak.value_or(0), 32 + kSandboxOverheadTasks);
  EXPECT_LT(gap, absl::Seconds(1)) << "the test's own loop stalled";
  EXPECT_THAT(ProcessesOfUid(fixture_->Uid(0)), IsEmpty());
}

TEST_F(HostileTest, MemoryBombIsKilledAndAttributed) {
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_bombs", {"memory"});
  spec.limits.memory_bytes = uint64_t{64} << 20;
  absl::Duration gap;
  const SandboxOutcome outcome = fixture_->Run(spec, &gap);
  EXPECT_EQ(outcome.reason, EndReason::kMemoryLimit) << outcome.Describe();
  EXPECT_GE(outcome.usage.counters.oom_kills.value_or(0), 1);
  EXPECT_LE(outcome.usage.counters.memory_peak_bytes.value_or(0), int64_t{64} << 20);
  EXPECT_LT(gap, absl::Seconds(1));
  EXPECT_THAT(outcome.Describe(), HasSubstr("memory limit of 64.0 MiB"));
}

TEST_F(HostileTest, ThreadBombIsRefusedAndAttributed) {
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_bombs", {"threads"});
  spec.limits.max_tasks = 40;
  const SandboxOutcome outcome = fixture_->Run(spec);
  EXPECT_EQ(outcome.reason, EndReason::kProcessLimit) << outcome.Describe();
  EXPECT_THAT(ProcessesOfUid(fixture_->Uid(0)), IsEmpty());
}

TEST_F(HostileTest, CpuAndWallTimeLimits) {
  SandboxSpec busy = fixture_->Spec("alice", 0, "hostile_cpu", {"busy"});
  busy.limits.cpu_time = absl::Milliseconds(300);
  SandboxOutcome outcome = fixture_->Run(busy);
  EXPECT_EQ(outcome.reason, EndReason::kCpuTimeLimit) << outcome.Describe();
  EXPECT_GE(outcome.usage.counters.cpu_ns.value_or(0), 300000000);

  SandboxSpec idle = fixture_->Spec("alice", 0, "hostile_cpu", {"idle"});
  idle.limits.wall_time = absl::Milliseconds(300);
  outcome = fixture_->Run(idle);
  EXPECT_EQ(outcome.reason, EndReason::kWallTimeLimit) << outcome.Describe();
  EXPECT_GE(outcome.usage.wall, absl::Milliseconds(300));
  EXPECT_LT(outcome.usage.counters.cpu_ns.value_or(0), 100000000);
}

TEST_F(HostileTest, CrashesAndExitsAreNotLimits) {
  SandboxSpec crash = fixture_->Spec("alice", 0, "hostile_bombs", {"crash"});
  SandboxOutcome outcome = fixture_->Run(crash);
  EXPECT_EQ(outcome.reason, EndReason::kCrashed) << outcome.Describe();
  EXPECT_EQ(outcome.signal, SIGSEGV);

  SandboxSpec exit3 = fixture_->Spec("alice", 0, "hostile_bombs", {"exit", "3"});
  absl::StatusOr<std::unique_ptr<Sandbox>> bot = fixture_->host().Start(exit3);
  ASSERT_TRUE(bot.ok()) << bot.status();
  outcome = (*bot)->Wait();
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_THAT((*bot)->Pids(), IsEmpty());  // its cgroup is gone

  SandboxSpec missing = fixture_->Spec("alice", 0, "hostile_bombs", {});
  missing.argv[0] = (fixture_->BotFolder("alice") / "hostile_bombs").string();
  std::filesystem::permissions(missing.argv[0], std::filesystem::perms(0600));
  outcome = fixture_->Run(missing);  // not executable by the bot's uid
  EXPECT_EQ(outcome.reason, EndReason::kStartFailed) << outcome.Describe();
}

TEST_F(HostileTest, ADaemonIsGoneWithItsSandbox) {
  std::string marker = absl::StrCat("cardref-daemon-", getpid());
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_daemon", {"stay", marker});
  absl::StatusOr<std::unique_ptr<Sandbox>> bot = fixture_->host().Start(spec);
  ASSERT_TRUE(bot.ok()) << bot.status();
  for (int i = 0; i < 500 && SandboxFixture::Output(spec).find("daemon started") ==
                                 std::string::npos;
       ++i) {
    ASSERT_FALSE((*bot)->Poll()) << (*bot)->outcome()->Describe();
    absl::SleepFor(absl::Milliseconds(10));
  }
  ASSERT_THAT(SandboxFixture::Output(spec), HasSubstr("daemon started"));
  // The daemon names itself MARKER.daemon (hostile_daemon.cc).
  marker += ".daemon";
  const std::vector<pid_t> daemons = ProcessesWithMarker(marker);
  ASSERT_EQ(daemons.size(), 1u) << "the daemon should be running";
  const std::vector<pid_t> in_box = (*bot)->Pids();
  EXPECT_NE(std::find(in_box.begin(), in_box.end(), daemons[0]), in_box.end());
  (*bot)->Stop();
  EXPECT_EQ((*bot)->outcome()->reason, EndReason::kStopped);
  EXPECT_THAT(ProcessesWithMarker(marker), IsEmpty());
  EXPECT_THAT(ProcessesOfUid(fixture_->Uid(0)), IsEmpty());

  // A bot that leaves its daemon and exits: the daemon goes with it.
  const std::string second = absl::StrCat("cardref-daemon-2-", getpid());
  SandboxSpec leaves = fixture_->Spec("alice", 0, "hostile_daemon", {"exit", second});
  const SandboxOutcome outcome = fixture_->Run(leaves);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe();
  EXPECT_THAT(SandboxFixture::Output(leaves), HasSubstr("daemon started"));
  EXPECT_THAT(ProcessesWithMarker(second + ".daemon"), IsEmpty());
}

TEST_F(HostileTest, RiskierSyscallsAreRefusedAndItIsNobody) {
  SandboxSpec spec = fixture_->Spec("alice", 0, "hostile_syscalls", {});
  const SandboxOutcome outcome = fixture_->Run(spec);
  const std::string out = SandboxFixture::Output(spec);
  EXPECT_EQ(outcome.reason, EndReason::kExited) << outcome.Describe() << out;
  for (const char* call : {"unshare_user", "unshare_net", "io_uring_setup", "bpf",
                           "ptrace", "keyctl", "userfaultfd", "mount"}) {
    EXPECT_THAT(out, HasSubstr(absl::StrCat(call, " EPERM"))) << out;
  }
  EXPECT_THAT(out, HasSubstr("socket_packet EAFNOSUPPORT"));
  EXPECT_THAT(out, HasSubstr("socket_unix ok"));
  EXPECT_THAT(out, HasSubstr(absl::StrCat("uid ", fixture_->Uid(0))));
  EXPECT_THAT(out, HasSubstr("capabilities 0000000000000000"));
  // Its own processes only: bwrap's init and itself.
  EXPECT_THAT(out, HasSubstr("processes 2"));

  // Without the filter, the namespaces and the missing capabilities still
  // refuse what matters (the filter is defence in depth).
  spec.syscall_filter = false;
  fixture_->Run(spec);
  const std::string unfiltered = SandboxFixture::Output(spec);
  EXPECT_THAT(unfiltered, Not(HasSubstr("unshare_user ok")));
  EXPECT_THAT(unfiltered, Not(HasSubstr("mount ok")));
}

TEST_F(HostileTest, TwoBotsAtOnceTakeBothSlotsAndNoMore) {
  SandboxSpec a = fixture_->Spec("alice", 0, "hostile_cpu", {"idle"});
  SandboxSpec b = fixture_->Spec("bob", 1, "hostile_cpu", {"idle"});
  SandboxSpec c = fixture_->Spec("carol", 0, "hostile_cpu", {"idle"});
  absl::StatusOr<std::unique_ptr<Sandbox>> first = fixture_->host().Start(a);
  absl::StatusOr<std::unique_ptr<Sandbox>> second = fixture_->host().Start(b);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_NE((*first)->cpu().cpus, (*second)->cpu().cpus);
  EXPECT_EQ(fixture_->host().Start(c).status().code(),
            absl::StatusCode::kResourceExhausted);
  first->reset();  // gives its slot back
  absl::StatusOr<std::unique_ptr<Sandbox>> third = fixture_->host().Start(c);
  EXPECT_TRUE(third.ok()) << third.status();
}

// A runner killed outright leaves its cgroups and whatever ran in them;
// the next runner's host removes them.
TEST(LeftoversTest, ADeadRunnersCgroupsAndProcessesAreCleared) {
  const std::string why = WhyNotHere();
  if (!why.empty()) GTEST_SKIP() << why;
  absl::StatusOr<CgroupLayout> layout = DetectCgroupLayout();
  ASSERT_TRUE(layout.ok()) << layout.status();
  ASSERT_TRUE(layout->Has(Controller::kPids));
  // A pid that no longer runs: a child that exited.
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);
  const std::string prefix = absl::StrCat("cardref-leftover-test-", getpid());
  const std::string box = absl::StrCat(layout->DirOf(Controller::kPids), "/", prefix,
                                       ".", dead, ".0/3-alice");
  ASSERT_TRUE(std::filesystem::create_directories(box));
  const pid_t orphan = fork();
  if (orphan == 0) {
    while (true) pause();
  }
  std::ofstream(box + "/cgroup.procs") << orphan;
  {
    HostOptions options;
    options.cgroup_prefix = prefix;
    absl::StatusOr<std::unique_ptr<SandboxHost>> host = SandboxHost::Create(options);
    ASSERT_TRUE(host.ok()) << host.status();
    // Killed by the host's start; reaped here, its parent.
    int status = 0;
    pid_t reaped = 0;
    for (int i = 0; i < 500 && reaped == 0; ++i) {
      reaped = waitpid(orphan, &status, WNOHANG);
      if (reaped == 0) absl::SleepFor(absl::Milliseconds(10));
    }
    if (reaped != orphan) {
      kill(orphan, SIGKILL);
      waitpid(orphan, &status, 0);
      FAIL() << "the leftover process was not killed";
    }
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    EXPECT_FALSE(std::filesystem::exists(box));
  }
  for (const auto& [controller, dir] : layout->own_dirs) {
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      EXPECT_THAT(entry.path().filename().string(), Not(HasSubstr(prefix)));
    }
  }
}

}  // namespace
}  // namespace cardref::sandbox::testing
