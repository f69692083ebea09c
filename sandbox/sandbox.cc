#include "sandbox/sandbox.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sandbox/cgroup_files.h"
#include "sandbox/spawn.h"
#include "sandbox/syscall_filter.h"

namespace cardref::sandbox {
namespace {

// Closes a file descriptor at the end of a scope unless released.
class FdCloser {
 public:
  explicit FdCloser(int fd = -1) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) close(fd_);
  }
  FdCloser(FdCloser&& other) noexcept : fd_(other.release()) {}
  FdCloser& operator=(FdCloser&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) close(fd_);
      fd_ = other.release();
    }
    return *this;
  }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

absl::Status Errno(absl::string_view what) {
  return absl::InternalError(absl::StrCat(what, ": ", std::strerror(errno)));
}

// A memory file holding `text`, at offset 0, for bwrap --ro-bind-data.
absl::StatusOr<int> MemoryFile(const char* name, const std::string& text) {
  const int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return Errno("memfd_create");
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
      lseek(fd, 0, SEEK_SET) != 0) {
    const absl::Status status = Errno("writing a memory file");
    close(fd);
    return status;
  }
  return fd;
}

// Built, not inherited: the runner's environment may hold secrets.
std::vector<std::string> BotEnvironment(const SandboxSpec& spec,
                                        bool with_referee) {
  std::vector<std::string> env = {
      absl::StrCat("PATH=", kSandboxPath),
      absl::StrCat("HOME=", kScratchInside),
      absl::StrCat("TMPDIR=", kScratchInside),
      "LANG=C.UTF-8",
      "USER=bot"};
  if (with_referee) {
    env.push_back(absl::StrCat("CARDREF_REFEREE=", kRefereeAddressInside));
  }
  for (const auto& [key, value] : spec.env) {
    env.push_back(absl::StrCat(key, "=", value));
  }
  return env;
}

std::string CgroupName(absl::string_view name) {
  std::string out;
  for (char c : name) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
        c == '_' || c == '.') {
      out += c;
    }
  }
  return out.substr(0, 64);
}

}  // namespace

absl::StatusOr<std::unique_ptr<SandboxHost>> SandboxHost::Create(
    const HostOptions& options) {
  if (geteuid() != 0) {
    return absl::FailedPreconditionError(
        "the bot sandbox needs root (to make cgroups and run each bot as a "
        "uid of its own); run as root, or trust the bots");
  }
  if (access(options.bwrap.c_str(), X_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "bubblewrap is not at ", options.bwrap,
        ": apt-get install bubblewrap (scripts/install_deps.sh)"));
  }
  absl::StatusOr<CgroupLayout> layout = DetectCgroupLayout();
  if (!layout.ok()) return layout.status();
  std::vector<std::string> missing;
  for (Controller c : {Controller::kMemory, Controller::kPids}) {
    if (!layout->Has(c)) missing.emplace_back(ControllerName(c));
  }
  if (!missing.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the bot sandbox needs the cgroup controllers ",
        absl::StrJoin(missing, " and "),
        ", which this machine does not offer this process (cgroup ",
        CgroupVersionName(layout->version), "); cardref_envcheck says more"));
  }
  auto host = std::unique_ptr<SandboxHost>(new SandboxHost());
  host->options_ = options;
  absl::StatusOr<std::unique_ptr<CgroupParent>> parent =
      CgroupParent::Create(*layout, options.cgroup_prefix);
  if (!parent.ok()) return parent.status();
  host->parent_ = *std::move(parent);

  CpuPlanOptions cpu;
  cpu.cpus = host->parent_->cpus();
  cpu.bots = options.bot_slots;
  cpu.reserved_cores = options.reserved_cores;
  cpu.cores_per_bot = options.cores_per_bot;
  absl::StatusOr<CpuPlan> plan = PlanCpus(cpu);
  if (!plan.ok()) return plan.status();
  host->plan_ = *std::move(plan);
  if (!layout->Has(Controller::kCpuset)) {
    host->unenforced_.emplace_back(
        "no cpuset controller: bots are not kept to their cores");
  }
  if (host->plan_.mode == CpuMode::kQuota && !layout->Has(Controller::kCpu)) {
    host->unenforced_.emplace_back(
        "no cpu controller: bots sharing cores have no CPU quota, so one "
        "bot's load can slow another's");
  }
  if (!layout->Has(Controller::kCpuacct)) {
    host->unenforced_.emplace_back(
        "no cpuacct controller: no CPU time limit and no CPU time reported");
  }
  if (!layout->Has(Controller::kFreezer)) {
    host->unenforced_.emplace_back(
        "no freezer: a bot's processes are killed one by one (a fork bomb "
        "is still held by its process limit)");
  }
  host->slot_taken_.assign(host->plan_.slots.size(), false);
  host->system_ = ListSystemEntries();
  host->etc_ = ListEtcEntries();

  if (!options.work_dir.empty()) {
    host->work_dir_ = options.work_dir;
    if (mkdir(host->work_dir_.c_str(), 0711) != 0 && errno != EEXIST) {
      return Errno(absl::StrCat("cannot make ", host->work_dir_));
    }
  } else {
    for (const char* base : {"/run", "/tmp"}) {
      std::string templ = absl::StrCat(base, "/cardref-sandbox.XXXXXX");
      if (mkdtemp(templ.data()) != nullptr) {
        host->work_dir_ = templ;
        host->own_work_dir_ = true;
        break;
      }
    }
    if (host->work_dir_.empty()) return Errno("cannot make a work folder");
  }
  // Each bot may pass through to its own folder (0700, its own), and no
  // further.
  if (chmod(host->work_dir_.c_str(), 0711) != 0) {
    return Errno(absl::StrCat("chmod ", host->work_dir_));
  }
  return host;
}

SandboxHost::~SandboxHost() {
  // CgroupParent's destructor kills what is left in the cgroups.
  parent_.reset();
  if (own_work_dir_) rmdir(work_dir_.c_str());
}

void SandboxHost::ReleaseSlot(int slot) {
  absl::MutexLock lock(&mu_);
  slot_taken_[static_cast<size_t>(slot)] = false;
}

absl::StatusOr<std::unique_ptr<Sandbox>> SandboxHost::Start(
    const SandboxSpec& spec) {
  if (spec.uid == 0 || spec.gid == 0) {
    return absl::InvalidArgumentError(
        "a sandboxed bot needs a uid and a gid of its own, not root's "
        "(--bot_uids)");
  }
  if (spec.output_path.empty()) {
    return absl::InvalidArgumentError("a sandboxed bot needs an output file");
  }
  absl::StatusOr<BotFolder> folder = ResolveBotFolder(spec.argv, spec.bot_folder);
  if (!folder.ok()) return folder.status();

  auto sandbox = std::unique_ptr<Sandbox>(new Sandbox(this));
  sandbox->folder_ = *std::move(folder);
  sandbox->limits_ = spec.limits;
  sandbox->output_path_ = spec.output_path;
  int64_t number = 0;
  {
    absl::MutexLock lock(&mu_);
    for (size_t i = 0; i < slot_taken_.size(); ++i) {
      if (!slot_taken_[i]) {
        slot_taken_[i] = true;
        sandbox->slot_ = static_cast<int>(i);
        break;
      }
    }
    number = ++started_;
  }
  if (sandbox->slot_ < 0) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "all ", plan_.slots.size(),
        " bot slots are taken: more bots at once than the sandbox host was "
        "made for (HostOptions.bot_slots)"));
  }
  // From here on the sandbox's destructor gives back what it holds.
  const std::string name =
      absl::StrCat(number, spec.name.empty() ? "" : "-", CgroupName(spec.name));
  const CpuSlot& cpu = plan_.slots[static_cast<size_t>(sandbox->slot_)];
  sandbox->cpu_ = cpu;

  if (spec.referee.has_value()) {
    // By number only: a Unix socket's path has at most 107 bytes.
    sandbox->socket_dir_ = absl::StrCat(work_dir_, "/", number);
    if (mkdir(sandbox->socket_dir_.c_str(), 0700) != 0 ||
        chown(sandbox->socket_dir_.c_str(), spec.uid, spec.gid) != 0) {
      return Errno(absl::StrCat("cannot make ", sandbox->socket_dir_));
    }
    ForwarderOptions forward;
    forward.socket_path = sandbox->socket_dir_ + "/referee.sock";
    forward.target_host = spec.referee->host;
    forward.target_port = spec.referee->port;
    forward.source_address = spec.referee->source_address;
    forward.owner_uid = spec.uid;
    forward.owner_gid = spec.gid;
    absl::StatusOr<std::unique_ptr<SocketForwarder>> forwarder =
        SocketForwarder::Start(forward);
    if (!forwarder.ok()) return forwarder.status();
    sandbox->forwarder_ = *std::move(forwarder);
  }

  CgroupLimits cgroup;
  cgroup.memory_bytes = spec.limits.memory_bytes;
  cgroup.max_tasks = spec.limits.max_tasks > 0
                         ? spec.limits.max_tasks + kSandboxOverheadTasks
                         : 0;
  cgroup.cpus = cpu.cpus;
  cgroup.cpu_quota_us = cpu.quota_us;
  cgroup.cpu_period_us = cpu.period_us;
  absl::StatusOr<std::unique_ptr<CgroupBox>> box = parent_->NewBox(name, cgroup);
  if (!box.ok()) return box.status();
  sandbox->box_ = *std::move(box);

  // Everything the child needs is made before fork(): a multi-threaded
  // runner's other threads may hold locks (malloc's) the child would wait
  // on.
  absl::StatusOr<std::vector<int>> join = sandbox->box_->OpenJoinFiles();
  if (!join.ok()) return join.status();
  std::vector<FdCloser> join_fds;
  join_fds.reserve(join->size());
  for (int fd : *join) join_fds.emplace_back(fd);
  FdCloser filter_fd;
  if (spec.syscall_filter) {
    absl::StatusOr<int> fd = SyscallFilterFd();
    if (!fd.ok()) return fd.status();
    filter_fd = FdCloser(*fd);
  }
  absl::StatusOr<int> passwd = MemoryFile("passwd", PasswdFor(spec.uid, spec.gid));
  if (!passwd.ok()) return passwd.status();
  FdCloser passwd_fd(*passwd);
  absl::StatusOr<int> group = MemoryFile("group", GroupFor(spec.gid));
  if (!group.ok()) return group.status();
  FdCloser group_fd(*group);
  int status_pipe[2];
  if (pipe2(status_pipe, O_CLOEXEC) != 0) return Errno("pipe2");
  FdCloser status_write(status_pipe[1]);
  sandbox->status_fd_ = status_pipe[0];
  fcntl(sandbox->status_fd_, F_SETFL, O_NONBLOCK);
  FdCloser out_fd(open(spec.output_path.c_str(),
                       O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (out_fd.get() < 0) {
    return Errno(absl::StrCat("cannot make the bot's output file ",
                              spec.output_path));
  }
  FdCloser null_fd(open("/dev/null", O_RDONLY | O_CLOEXEC));

  BwrapPlan plan;
  plan.bwrap = options_.bwrap;
  plan.system = system_;
  plan.etc_entries = etc_;
  plan.bot_folder = sandbox->folder_.folder;
  plan.extra_read_only = spec.extra_read_only;
  if (sandbox->forwarder_ != nullptr) {
    plan.referee_socket = sandbox->forwarder_->socket_path();
  }
  plan.scratch_bytes = spec.limits.scratch_bytes;
  plan.syscall_filter_fd = filter_fd.get();
  plan.status_fd = status_write.get();
  plan.passwd_fd = passwd_fd.get();
  plan.group_fd = group_fd.get();
  plan.argv = sandbox->folder_.argv;

  SpawnPlan spawn;
  spawn.argv = BwrapArgs(plan);
  spawn.env = BotEnvironment(spec, sandbox->forwarder_ != nullptr);
  for (const FdCloser& fd : join_fds) spawn.join_fds.push_back(fd.get());
  spawn.keep_fds = {filter_fd.get(), status_write.get(), passwd_fd.get(),
                    group_fd.get()};
  spawn.output_fd = out_fd.get();
  spawn.stdin_fd = null_fd.get();
  spawn.max_output_bytes = spec.limits.max_output_bytes;
  spawn.uid = spec.uid;
  spawn.gid = spec.gid;
  absl::StatusOr<pid_t> pid = Spawn(spawn);
  if (!pid.ok()) return pid.status();
  sandbox->pid_ = *pid;
  sandbox->start_ = absl::Now();
  return sandbox;
}

Sandbox::~Sandbox() {
  Stop();
  Release();  // a sandbox whose start failed half-way
  if (status_fd_ >= 0) close(status_fd_);
}

void Sandbox::Release() {
  if (box_ != nullptr) {
    box_->KillAll(absl::Seconds(10));
    (void)box_->Remove();
    box_.reset();
  }
  forwarder_.reset();
  if (!socket_dir_.empty()) {
    rmdir(socket_dir_.c_str());
    socket_dir_.clear();
  }
  if (slot_ >= 0) host_->ReleaseSlot(slot_);
  slot_ = -1;
}

void Sandbox::ReadStatus() {
  if (status_fd_ < 0) return;
  char buffer[1024];
  while (status_text_.size() < 65536) {
    const ssize_t n = read(status_fd_, buffer, sizeof(buffer));
    if (n > 0) {
      status_text_.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
}

SandboxUsage Sandbox::Usage() const {
  if (outcome_.has_value()) return outcome_->usage;
  SandboxUsage usage;
  usage.wall = absl::Now() - start_;
  if (box_ != nullptr) usage.counters = box_->ReadCounters();
  return usage;
}

std::vector<pid_t> Sandbox::Pids() const {
  return box_ != nullptr ? box_->Pids() : std::vector<pid_t>();
}

bool Sandbox::Poll() {
  if (outcome_.has_value()) return true;
  if (pid_ < 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_) {
    Finish(status, std::nullopt);
    return true;
  }
  const SandboxUsage usage = Usage();
  const CgroupCounters& c = usage.counters;
  std::optional<EndReason> passed;
  if (c.oom_kills.value_or(0) > 0) {
    passed = EndReason::kMemoryLimit;
  } else if (c.task_limit_hits.value_or(0) > 0) {
    passed = EndReason::kProcessLimit;
  } else if (c.cpu_ns.has_value() &&
             absl::Nanoseconds(*c.cpu_ns) > limits_.cpu_time) {
    passed = EndReason::kCpuTimeLimit;
  } else if (usage.wall > limits_.wall_time) {
    passed = EndReason::kWallTimeLimit;
  }
  if (!passed.has_value()) return false;
  EndNow(*passed);
  return true;
}

const SandboxOutcome& Sandbox::Wait() {
  while (!Poll()) absl::SleepFor(absl::Milliseconds(10));
  return *outcome_;
}

void Sandbox::Stop() {
  if (outcome_.has_value() || pid_ < 0) return;
  if (Poll()) return;
  EndNow(EndReason::kStopped);
}

void Sandbox::EndNow(EndReason reason) {
  if (box_ != nullptr) box_->KillAll(absl::Seconds(10));
  kill(pid_, SIGKILL);  // outside the cgroup only if joining it failed
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  Finish(status, reason);
}

void Sandbox::Finish(int wait_status, std::optional<EndReason> ended_by) {
  EndFacts facts;
  facts.wait_status = wait_status;
  facts.ended_by_sandbox = ended_by;
  facts.limits = limits_;
  // The pid namespace ended with the bot; whatever escaped it (nothing
  // should) ends with the cgroup.
  if (box_ != nullptr) box_->KillAll(absl::Seconds(10));
  facts.usage.wall = absl::Now() - start_;
  if (box_ != nullptr) facts.usage.counters = box_->ReadCounters();
  ReadStatus();
  facts.started = status_text_.find("\"child-pid\"") != std::string::npos;
  const size_t at = status_text_.find("\"exit-code\":");
  if (at != std::string::npos) {
    size_t begin = at + std::strlen("\"exit-code\":");
    while (begin < status_text_.size() && status_text_[begin] == ' ') ++begin;
    size_t end = begin;
    while (end < status_text_.size() &&
           absl::ascii_isdigit(static_cast<unsigned char>(status_text_[end]))) {
      ++end;
    }
    int code = 0;
    if (absl::SimpleAtoi(status_text_.substr(begin, end - begin), &code)) {
      facts.reported_exit_code = code;
    }
  }
  // bwrap reports the start before it executes the bot's program: one it
  // could not execute shows as bwrap's message and status 1.
  const int status =
      facts.reported_exit_code.value_or(WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : -1);
  if (facts.started && status == 1 &&
      absl::StrContains(OutputTail(512), "bwrap: execvp ")) {
    facts.started = false;
  }
  outcome_ = Attribute(facts);
  Release();
}

std::string Sandbox::OutputTail(size_t bytes) const {
  const int fd = open(output_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string tail;
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    const off_t from = st.st_size > static_cast<off_t>(bytes)
                           ? st.st_size - static_cast<off_t>(bytes)
                           : 0;
    tail.resize(static_cast<size_t>(st.st_size - from));
    const ssize_t n = pread(fd, tail.data(), tail.size(), from);
    tail.resize(n > 0 ? static_cast<size_t>(n) : 0);
  }
  close(fd);
  return tail;
}

}  // namespace cardref::sandbox
