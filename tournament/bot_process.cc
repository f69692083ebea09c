#include "tournament/bot_process.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "tournament/process_tree.h"

extern char** environ;

namespace cardref::tournament {
namespace {

constexpr char kOrganiserTokenEnv[] = "CARDREF_ORGANISER_TOKEN";

void WriteError(const char* message, size_t size) {
  (void)!write(2, message, size);
}

}  // namespace

std::optional<ChildProcess> ChildProcess::Start(const ChildSpec& spec) {
  // Everything the child needs is prepared before fork(): gRPC's threads
  // may hold locks (malloc's too) the child would wait on.
  std::vector<char*> argv;
  for (const std::string& a : spec.argv) {
    argv.push_back(const_cast<char*>(a.c_str()));
  }
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const absl::string_view entry(*e);
    bool drop = absl::StartsWith(entry, "CARDREF_JOIN_TICKET=") ||
                absl::StartsWith(entry, "CARDREF_BOT_CREDENTIAL=") ||
                absl::StartsWith(entry, absl::StrCat(kOrganiserTokenEnv, "="));
    for (const auto& [name, value] : spec.env) {
      drop = drop || absl::StartsWith(entry, absl::StrCat(name, "="));
    }
    if (!drop) env_strings.emplace_back(entry);
  }
  for (const auto& [name, value] : spec.env) {
    env_strings.push_back(absl::StrCat(name, "=", value));
  }
  std::vector<char*> envp;
  envp.reserve(env_strings.size() + 1);
  for (std::string& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const int err_fd = open(spec.stderr_path.c_str(),
                          O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (err_fd < 0) return std::nullopt;
  const rlimit output_limit = {
      static_cast<rlim_t>(spec.max_output_bytes),
      static_cast<rlim_t>(spec.max_output_bytes)};
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(err_fd);
    return std::nullopt;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(125);  // the parent died before prctl
    dup2(err_fd, 1);
    dup2(err_fd, 2);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, 0);
    setpgid(0, 0);
    // A bot's output must not fill the organiser's disk: the kernel ends
    // it (SIGXFSZ, back to its default action) at the limit.
    if (spec.max_output_bytes > 0) {
      signal(SIGXFSZ, SIG_DFL);
      if (setrlimit(RLIMIT_FSIZE, &output_limit) != 0) {
        static constexpr char kMessage[] =
            "cardref_tournament: cannot limit the bot's output\n";
        WriteError(kMessage, sizeof(kMessage) - 1);
        _exit(126);
      }
    }
    // Drop privileges for good, then run the program.
    if (spec.user.set &&
        (setgroups(0, nullptr) != 0 || setgid(spec.user.gid) != 0 ||
         setuid(spec.user.uid) != 0)) {
      static constexpr char kMessage[] =
          "cardref_tournament: cannot switch to --bot_user\n";
      WriteError(kMessage, sizeof(kMessage) - 1);
      _exit(126);
    }
    execvpe(argv[0], argv.data(), envp.data());
    static constexpr char kMessage[] =
        "cardref_tournament: cannot execute the program\n";
    WriteError(kMessage, sizeof(kMessage) - 1);
    _exit(127);
  }
  close(err_fd);
  ChildProcess child;
  child.pid_ = pid;
  child.stderr_path_ = spec.stderr_path;
  child.max_memory_bytes_ = spec.max_memory_bytes;
  child.max_tasks_ = spec.max_tasks;
  return child;
}

bool ChildProcess::Reap(bool block) {
  int status = 0;
  if (waitpid(pid_, &status, block ? 0 : WNOHANG) == pid_) {
    exited_ = true;
    status_ = status;
  }
  return exited_;
}

void ChildProcess::Stop() {
  kill(-pid_, SIGKILL);  // its process group: a shell's children too
  kill(pid_, SIGKILL);
  Reap(/*block=*/true);
  exited_ = true;
}

bool ChildProcess::Poll() {
  if (exited_ || pid_ < 0) return true;
  if (Reap(/*block=*/false)) return true;
  // A bot must not take the memory or the process table of the machine
  // (the referee's and the other bots'): checked at every poll, so it may
  // pass a limit by what it can do in one poll period (the match runner's
  // 50 ms). Killing its process group also stops a fork bomb: a process
  // with a fatal signal pending forks no more.
  if (max_memory_bytes_ == 0 && max_tasks_ == 0) return false;
  const TreeUsage usage = MeasureTree(pid_);
  const int64_t memory_limit_kib = static_cast<int64_t>(max_memory_bytes_ >> 10);
  // The resident sum is cheap and never below the proportional size, which
  // counts the pages a bot's processes share once: that decides.
  const int64_t held_kib =
      max_memory_bytes_ > 0 && usage.resident_kib > memory_limit_kib
          ? ProportionalKib(usage.processes)
          : 0;
  if (held_kib > memory_limit_kib) {
    limit_name_ = "memory_limit";
    limit_passed_ = absl::StrCat(
        "it had ", held_kib >> 10, " MiB resident, past its memory limit of ",
        max_memory_bytes_ >> 20, " MiB (--max_bot_memory_mb)");
  } else if (max_tasks_ > 0 && usage.tasks > max_tasks_) {
    limit_name_ = "process_limit";
    limit_passed_ = absl::StrCat(
        "it ran ", usage.tasks, " processes and threads, past its limit of ",
        max_tasks_, " (--max_bot_threads)");
  }
  if (!limit_passed_.empty()) Stop();
  return exited_;
}

void ChildProcess::Kill() {
  if (Poll()) return;
  killed_by_us_ = true;
  Stop();
}

std::string ChildProcess::limit_name() const {
  if (!limit_name_.empty()) return limit_name_;
  if (exited_ && WIFSIGNALED(status_) && WTERMSIG(status_) == SIGXFSZ) {
    return "output_limit";
  }
  return "";
}

bool ChildProcess::succeeded() const {
  return exited_ && WIFEXITED(status_) && WEXITSTATUS(status_) == 0;
}

std::string ChildProcess::Describe() const {
  if (!exited_) return "running";
  std::string text;
  if (WIFEXITED(status_)) {
    text = absl::StrCat("exit status ", WEXITSTATUS(status_));
    if (WEXITSTATUS(status_) == 127) absl::StrAppend(&text, " (cannot start)");
  } else if (WIFSIGNALED(status_)) {
    text = absl::StrCat("killed by signal ", WTERMSIG(status_));
    if (WTERMSIG(status_) == SIGXFSZ) {
      absl::StrAppend(&text, " (SIGXFSZ: it wrote past its output limit, "
                             "--max_bot_output_mb)");
    }
  } else {
    text = "ended";
  }
  if (!limit_passed_.empty()) {
    absl::StrAppend(&text, ", by the tournament: ", limit_passed_);
  } else if (killed_by_us_) {
    absl::StrAppend(&text, ", by the tournament");
  }
  return text;
}

std::string ChildProcess::StderrTail(size_t bytes) const {
  const int fd = open(stderr_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  struct stat st;
  std::string tail;
  if (fstat(fd, &st) == 0 && st.st_size > 0) {
    const off_t size = st.st_size;
    const off_t from = size > static_cast<off_t>(bytes)
                           ? size - static_cast<off_t>(bytes)
                           : 0;
    tail.resize(static_cast<size_t>(size - from));
    size_t got = 0;
    while (got < tail.size()) {
      const ssize_t n = pread(fd, tail.data() + got, tail.size() - got,
                              from + static_cast<off_t>(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    tail.resize(got);
  }
  close(fd);
  return tail;
}

}  // namespace cardref::tournament
