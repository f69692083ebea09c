#include "sandbox/spawn.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref::sandbox {
namespace {

void WriteToFd(int fd, const char* message) {
  (void)!write(fd, message, std::strlen(message));
}

}  // namespace

absl::StatusOr<pid_t> Spawn(const SpawnPlan& plan) {
  std::vector<char*> argv;
  argv.reserve(plan.argv.size() + 1);
  for (const std::string& a : plan.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> env;
  env.reserve(plan.env.size() + 1);
  for (const std::string& e : plan.env) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  const rlimit output_limit = {static_cast<rlim_t>(plan.max_output_bytes),
                               static_cast<rlim_t>(plan.max_output_bytes)};
  const pid_t parent = getpid();
  sigset_t no_signals;
  sigemptyset(&no_signals);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);

  const pid_t pid = fork();
  if (pid < 0) {
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid > 0) return pid;

  // The child: async-signal-safe calls only.
  const int out = plan.output_fd;
  for (int fd : plan.join_fds) {
    if (write(fd, "0", 1) != 1) {
      WriteToFd(out, "sandbox: cannot join the bot's cgroup\n");
      _exit(125);
    }
  }
  if (dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
      (plan.stdin_fd >= 0 && dup2(plan.stdin_fd, 0) < 0)) {
    _exit(125);
  }
  setpgid(0, 0);
  // No descriptor of the runner's reaches the bot but those it is given.
  close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  for (int fd : plan.keep_fds) {
    if (fd >= 0) fcntl(fd, F_SETFD, 0);
  }
  // Signals the runner ignores or blocks would stay so after exec.
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &default_action, nullptr);
  }
  sigprocmask(SIG_SETMASK, &no_signals, nullptr);
  if (plan.max_output_bytes > 0 && setrlimit(RLIMIT_FSIZE, &output_limit) != 0) {
    WriteToFd(2, "sandbox: cannot limit the bot's output\n");
    _exit(125);
  }
  if (setgroups(0, nullptr) != 0 || setgid(plan.gid) != 0 || setuid(plan.uid) != 0) {
    WriteToFd(2, "sandbox: cannot switch to the bot's uid\n");
    _exit(125);
  }
  // After setuid, which clears it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(125);  // the runner died meanwhile
  execve(argv[0], argv.data(), env.data());
  WriteToFd(2, "sandbox: cannot execute ");
  WriteToFd(2, argv[0]);
  WriteToFd(2, "\n");
  _exit(125);
}

}  // namespace cardref::sandbox
