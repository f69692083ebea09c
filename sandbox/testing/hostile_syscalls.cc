// A hostile bot that tries the kernel's riskier doors and looks around:
// for each attempt it prints "NAME ok" or "NAME ERRNO"; then
// "uid N", "capabilities HEX" (effective) and "processes N" (how many it
// sees in /proc).
#include <dirent.h>
#include <linux/io_uring.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace {

void Report(const char* name, long rc) {
  std::printf("%s %s\n", name, rc >= 0 ? "ok" : strerrorname_np(errno));
}

}  // namespace

int main() {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Report("unshare_user", unshare(CLONE_NEWUSER));
  Report("unshare_net", unshare(CLONE_NEWNET));
  io_uring_params params{};
  Report("io_uring_setup", syscall(SYS_io_uring_setup, 4, &params));
  Report("bpf", syscall(SYS_bpf, 0, nullptr, 0));
  Report("ptrace", ptrace(PTRACE_TRACEME, 0, nullptr, nullptr));
  Report("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
  Report("userfaultfd", syscall(SYS_userfaultfd, 0));
  Report("mount", mount("none", "/tmp", "tmpfs", 0, nullptr));
  Report("socket_packet", socket(AF_PACKET, SOCK_RAW, 0));
  Report("socket_unix", socket(AF_UNIX, SOCK_STREAM, 0));
  std::printf("uid %d\n", static_cast<int>(getuid()));
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("CapEff:", 0) == 0) {
      std::printf("capabilities %s\n", line.substr(line.find_first_not_of(" \t", 7)).c_str());
    }
  }
  int processes = 0;
  if (DIR* proc = opendir("/proc")) {
    while (const dirent* e = readdir(proc)) {
      if (std::isdigit(static_cast<unsigned char>(e->d_name[0]))) ++processes;
    }
    closedir(proc);
  }
  std::printf("processes %d\n", processes);
  return 0;
}
