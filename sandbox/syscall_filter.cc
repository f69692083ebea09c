#include "sandbox/syscall_filter.h"

#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace cardref::sandbox {
namespace {

// Owns a libseccomp context.
class FilterContext {
 public:
  FilterContext() : ctx_(seccomp_init(SCMP_ACT_ALLOW)) {}
  ~FilterContext() {
    if (ctx_ != nullptr) seccomp_release(ctx_);
  }
  FilterContext(const FilterContext&) = delete;
  FilterContext& operator=(const FilterContext&) = delete;
  scmp_filter_ctx get() const { return ctx_; }

 private:
  scmp_filter_ctx ctx_;
};

// One comparison of a call's argument `arg` (libseccomp's SCMP_A0..5
// macros leave a field to its default, which -Wextra flags).
scmp_arg_cmp Arg(unsigned arg, scmp_compare op, uint64_t a, uint64_t b = 0) {
  scmp_arg_cmp cmp{};
  cmp.arg = arg;
  cmp.op = op;
  cmp.datum_a = a;
  cmp.datum_b = b;
  return cmp;
}

absl::Status RuleError(int rc, absl::string_view what) {
  return absl::InternalError(
      absl::StrCat("cannot add the syscall rule for ", what, ": ",
                   std::strerror(-rc)));
}

}  // namespace

const std::vector<std::string>& RefusedSyscalls() {
  static const std::vector<std::string>* const kRefused =
      new std::vector<std::string>{
          // Kernel interfaces with a history of exploits.
          "bpf", "io_uring_setup", "io_uring_enter", "io_uring_register",
          "userfaultfd", "perf_event_open", "keyctl", "add_key",
          "request_key",
          // Debugging and other processes' memory.
          "ptrace", "process_vm_readv", "process_vm_writev",
          // Namespaces and mounts of its own.
          "unshare", "setns", "mount", "umount2", "pivot_root", "chroot",
          "fsopen", "fsmount", "fspick", "open_tree", "move_mount",
          "mount_setattr", "open_by_handle_at", "name_to_handle_at",
          "fanotify_init",
          // The machine's administration.
          "swapon", "swapoff", "reboot", "kexec_load", "kexec_file_load",
          "init_module", "finit_module", "delete_module", "acct",
          "quotactl", "syslog", "iopl", "ioperm", "settimeofday",
          "clock_settime", "clock_adjtime", "adjtimex", "vhangup",
          "lookup_dcookie"};
  return *kRefused;
}

absl::StatusOr<int> SyscallFilterFd() {
  FilterContext ctx;
  if (ctx.get() == nullptr) {
    return absl::InternalError("libseccomp could not make a filter");
  }
  for (const std::string& name : RefusedSyscalls()) {
    const int nr = seccomp_syscall_resolve_name(name.c_str());
    if (nr == __NR_SCMP_ERROR) continue;  // not on this architecture
    const int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EPERM), nr, 0);
    if (rc != 0) return RuleError(rc, name);
  }
  const int clone3 = seccomp_syscall_resolve_name("clone3");
  if (clone3 != __NR_SCMP_ERROR) {
    const int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), clone3, 0);
    if (rc != 0) return RuleError(rc, "clone3");
  }
  // clone's flags are its first argument on x86-64 and arm64 alike.
  for (const uint64_t flag :
       {uint64_t{CLONE_NEWNS}, uint64_t{CLONE_NEWCGROUP}, uint64_t{CLONE_NEWUTS},
        uint64_t{CLONE_NEWIPC}, uint64_t{CLONE_NEWUSER}, uint64_t{CLONE_NEWPID},
        uint64_t{CLONE_NEWNET}}) {
    const int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EPERM),
                                    SCMP_SYS(clone), 1,
                                    Arg(0, SCMP_CMP_MASKED_EQ, flag, flag));
    if (rc != 0) return RuleError(rc, "clone");
  }
  // Socket families: Unix (the referee's socket), IPv4 and IPv6 (its own
  // loopback, harmless without a network), netlink (the C library asks it
  // for addresses). The others (raw packets, Bluetooth, vsock, crypto
  // sockets, ...) are refused.
  for (int family = 0; family < AF_MAX; ++family) {
    if (family == AF_UNIX || family == AF_INET || family == AF_INET6 ||
        family == AF_NETLINK) {
      continue;
    }
    const int rc = seccomp_rule_add(
        ctx.get(), SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1,
        Arg(0, SCMP_CMP_EQ, static_cast<uint64_t>(family)));
    if (rc != 0) return RuleError(rc, "socket");
  }
  {
    const int rc = seccomp_rule_add(
        ctx.get(), SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
        Arg(1, SCMP_CMP_MASKED_EQ, 0xffffffffu, static_cast<uint64_t>(TIOCSTI)));
    if (rc != 0) return RuleError(rc, "ioctl");
  }
  const int fd = memfd_create("cardref-seccomp", MFD_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(
        absl::StrCat("memfd_create: ", std::strerror(errno)));
  }
  const int rc = seccomp_export_bpf(ctx.get(), fd);
  if (rc != 0 || lseek(fd, 0, SEEK_SET) != 0) {
    close(fd);
    return absl::InternalError(absl::StrCat(
        "cannot export the syscall filter: ", std::strerror(rc != 0 ? -rc : errno)));
  }
  return fd;
}

}  // namespace cardref::sandbox
