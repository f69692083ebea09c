// The bubblewrap command line of a sandbox: what a bot sees of the machine.
// Built by a pure function from a plan, so what is shown is read (and
// tested) in one place.
//
// Inside: new user, mount, pid, network, IPC, UTS and cgroup namespaces,
// no capabilities, no further user namespaces, a session of its own (no
// TIOCSTI to the runner's terminal), ended with its runner
// (--die-with-parent). Read-only: the system folders (/usr, and /bin, /lib*,
// /sbin as the host has them: links or folders), a minimal /etc (the
// dynamic linker's cache, time zone, name service files, alternatives,
// public certificates, language runtimes' own settings; a passwd and
// group naming the bot only), the bot's folder and any extra folders the
// organiser names, the referee's socket. Its own /proc (its processes
// only) and a minimal /dev. Writable: the scratch tmpfs at /tmp only, of a
// fixed size. The root is read-only.
#ifndef CARDREF_SANDBOX_BWRAP_ARGS_H_
#define CARDREF_SANDBOX_BWRAP_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cardref::sandbox {

// The scratch folder: a tmpfs at /tmp, where programs expect to write (a
// bot folder under the host's /tmp is shown inside it, read-only).
inline constexpr char kScratchInside[] = "/tmp";
inline constexpr char kRefereeSocketInside[] = "/run/cardref/referee.sock";
// What a bot passes to gRPC as the referee's address.
inline constexpr char kRefereeAddressInside[] = "unix:/run/cardref/referee.sock";

// A top-level system path as the host has it.
struct SystemEntry {
  std::string path;         // "/lib64"
  std::string link_target;  // non-empty: a symbolic link to this ("usr/lib64")
};

struct BwrapPlan {
  std::string bwrap = "/usr/bin/bwrap";
  std::vector<SystemEntry> system;       // ListSystemEntries()
  std::vector<std::string> etc_entries;  // ListEtcEntries(): "/etc/hosts", ...
  std::string bot_folder;
  std::vector<std::string> extra_read_only;
  std::optional<std::string> referee_socket;  // host path of its socket
  uint64_t scratch_bytes = 0;
  // File descriptors the child passes on to bwrap: -1 for none.
  int syscall_filter_fd = -1;
  int status_fd = -1;
  int passwd_fd = -1;
  int group_fd = -1;
  std::vector<std::string> argv;  // the bot's command
};

// argv for execve(), bwrap first.
std::vector<std::string> BwrapArgs(const BwrapPlan& plan);

// /usr, /bin, /sbin, /lib, /lib32, /lib64, /libx32 as they exist here.
std::vector<SystemEntry> ListSystemEntries();

// The entries of the host's /etc a bot may see, those that exist: a fixed
// list plus the settings of language runtimes (/etc/java-*, /etc/python3*).
// Never shadow, gshadow, ssh, ssl/private, sudoers or the like.
std::vector<std::string> ListEtcEntries();

// The /etc/passwd and /etc/group a bot sees: itself only, its home the
// scratch folder.
std::string PasswdFor(unsigned uid, unsigned gid);
std::string GroupFor(unsigned gid);

}  // namespace cardref::sandbox

#endif  // CARDREF_SANDBOX_BWRAP_ARGS_H_
