#include "sandbox/bwrap_args.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace cardref::sandbox {
namespace {

// The parts of /etc programs read to start and to resolve names; nothing
// that is a secret or names the machine's users.
constexpr const char* kEtcFiles[] = {
    "ld.so.cache", "ld.so.conf",    "ld.so.conf.d", "localtime",
    "timezone",    "nsswitch.conf", "host.conf",    "hosts",
    "gai.conf",    "protocols",     "services",     "alternatives",
    "ssl/certs",   "ssl/openssl.cnf", "ca-certificates.conf",
    "mime.types",  "os-release",    "debian_version"};

// Language runtimes' own settings folders (Java's security policy and
// module settings, Python's sitecustomize), by prefix.
constexpr const char* kEtcPrefixes[] = {"java-", "python3"};

}  // namespace

std::vector<std::string> BwrapArgs(const BwrapPlan& plan) {
  std::vector<std::string> a = {
      plan.bwrap,
      "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
      "--unshare-uts", "--unshare-cgroup-try",
      "--disable-userns", "--die-with-parent", "--new-session",
      "--hostname", "cardref-bot"};
  auto add = [&a](std::initializer_list<std::string> items) {
    a.insert(a.end(), items);
  };
  for (const SystemEntry& e : plan.system) {
    if (e.link_target.empty()) {
      add({"--ro-bind", e.path, e.path});
    } else {
      add({"--symlink", e.link_target, e.path});
    }
  }
  for (const std::string& path : plan.etc_entries) {
    add({"--ro-bind", path, path});
  }
  if (plan.passwd_fd >= 0) {
    add({"--ro-bind-data", absl::StrCat(plan.passwd_fd), "/etc/passwd"});
  }
  if (plan.group_fd >= 0) {
    add({"--ro-bind-data", absl::StrCat(plan.group_fd), "/etc/group"});
  }
  add({"--proc", "/proc", "--dev", "/dev"});
  // Before the binds: a bot folder under /tmp is shown inside it.
  add({"--size", absl::StrCat(plan.scratch_bytes), "--perms", "0700",
       "--tmpfs", kScratchInside});
  add({"--ro-bind", plan.bot_folder, plan.bot_folder});
  for (const std::string& path : plan.extra_read_only) {
    add({"--ro-bind", path, path});
  }
  if (plan.referee_socket.has_value()) {
    add({"--ro-bind", *plan.referee_socket, kRefereeSocketInside});
  }
  // Last: nothing but the scratch folder (and the devices' nodes) stays
  // writable, not even the root bwrap builds the view on.
  add({"--remount-ro", "/dev", "--remount-ro", "/"});
  add({"--chdir", plan.bot_folder});
  if (plan.syscall_filter_fd >= 0) {
    add({"--seccomp", absl::StrCat(plan.syscall_filter_fd)});
  }
  if (plan.status_fd >= 0) {
    add({"--json-status-fd", absl::StrCat(plan.status_fd)});
  }
  a.emplace_back("--");
  a.insert(a.end(), plan.argv.begin(), plan.argv.end());
  return a;
}

std::vector<SystemEntry> ListSystemEntries() {
  std::vector<SystemEntry> entries;
  for (const char* path :
       {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX];
      const ssize_t n = readlink(path, target, sizeof(target) - 1);
      if (n <= 0) continue;
      entries.push_back({path, std::string(target, static_cast<size_t>(n))});
    } else if (S_ISDIR(st.st_mode)) {
      entries.push_back({path, ""});
    }
  }
  return entries;
}

std::vector<std::string> ListEtcEntries() {
  std::vector<std::string> entries;
  for (const char* name : kEtcFiles) {
    const std::string path = absl::StrCat("/etc/", name);
    if (access(path.c_str(), F_OK) == 0) entries.push_back(path);
  }
  DIR* etc = opendir("/etc");
  if (etc != nullptr) {
    std::vector<std::string> runtimes;
    while (const dirent* e = readdir(etc)) {
      for (const char* prefix : kEtcPrefixes) {
        if (absl::StartsWith(e->d_name, prefix)) {
          runtimes.push_back(absl::StrCat("/etc/", e->d_name));
        }
      }
    }
    closedir(etc);
    std::sort(runtimes.begin(), runtimes.end());
    entries.insert(entries.end(), runtimes.begin(), runtimes.end());
  }
  return entries;
}

std::string PasswdFor(unsigned uid, unsigned gid) {
  return absl::StrCat("bot:x:", uid, ":", gid, ":cardref bot:", kScratchInside,
                      ":/usr/sbin/nologin\n");
}

std::string GroupFor(unsigned gid) { return absl::StrCat("bot:x:", gid, ":\n"); }

}  // namespace cardref::sandbox
