// The optional syscall filter (seccomp, built with libseccomp, loaded by
// bubblewrap): a list of system calls a bot has no use for, each refused
// with an error instead of run. Defence in depth for the namespaces, which
// already deny a bot mounts, devices, the host's processes and network:
// these calls are where kernel exploits have lived (io_uring, bpf,
// userfaultfd, perf events, keyrings) or would let a bot step out of what
// the namespaces give it (ptrace of its own processes is harmless, but a
// debugger's interface is also a large one; namespaces of its own, new
// mounts). Everything else is allowed: bots in any language must run.
#ifndef CARDREF_SANDBOX_SYSCALL_FILTER_H_
#define CARDREF_SANDBOX_SYSCALL_FILTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace cardref::sandbox {

// The calls refused with EPERM (names; those this architecture lacks are
// skipped). clone3 is refused with ENOSYS, so C libraries fall back to
// clone, whose namespace flags the filter can see and refuses; socket()
// of a family other than Unix, IPv4, IPv6 and netlink is refused with
// EAFNOSUPPORT; ioctl(TIOCSTI) (typing into a terminal) with EPERM.
// Calls of another architecture's ABI (32-bit calls from a 64-bit
// process) kill the process.
const std::vector<std::string>& RefusedSyscalls();

// The filter as a compiled classic BPF program in a memory file
// (close-on-exec, at offset 0), as bwrap --seccomp FD reads it. The caller
// closes it.
[[nodiscard]] absl::StatusOr<int> SyscallFilterFd();

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_SYSCALL_FILTER_H_
