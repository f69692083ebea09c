#include "tournament/uid_pool.h"

#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace cardref::tournament {

absl::StatusOr<UidRange> ParseUidRange(absl::string_view text) {
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '-');
  uint32_t first = 0, last = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &first) ||
      !absl::SimpleAtoi(parts[1], &last)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_uids must be FIRST-LAST (for example 200000-200099), got '",
        text.substr(0, 40), "'"));
  }
  if (first == 0 || last < first ||
      static_cast<uint64_t>(last) - first + 1 < kMinBotUids ||
      static_cast<uint64_t>(last) - first + 1 > 65536 ||
      last == static_cast<uint32_t>(-1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_uids must be ", kMinBotUids, " to 65536 uids above 0 (one per "
        "seat of a match at least), got ", first, "-", last));
  }
  // Every account once (65,536 getpwuid calls would read the user
  // database as often); called before any thread of ours starts.
  std::string owner;
  uint32_t owned = 0;
  setpwent();
  while (const struct passwd* pw = getpwent()) {
    if (pw->pw_uid >= first && pw->pw_uid <= last) {
      owner = pw->pw_name;
      owned = pw->pw_uid;
      break;
    }
  }
  endpwent();
  if (!owner.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--bot_uids ", first, "-", last, " holds uid ", owned, " of user '",
        owner, "', whose processes would be killed between matches: pick a "
        "range no account uses"));
  }
  return UidRange{first, last};
}

void KillEveryProcessOf(uid_t uid) {
  // kill(-1) reaches every process the caller may signal: as `uid`, all of
  // that uid's and no other's. A process forking meanwhile may leave one
  // child: a few rounds.
  for (int round = 0; round < 3; ++round) {
    const pid_t pid = fork();
    if (pid < 0) return;
    if (pid == 0) {
      if (setgroups(0, nullptr) != 0 || setgid(uid) != 0 || setuid(uid) != 0) {
        _exit(2);
      }
      _exit(kill(-1, SIGKILL) == 0 ? 0 : (errno == ESRCH ? 1 : 2));
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // 1: nothing was left to kill.
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return;
  }
}

UidPool::UidPool(UidRange range) {
  for (uint64_t uid = range.first; uid <= range.last; ++uid) {
    free_.push_back(static_cast<uid_t>(uid));
  }
}

std::vector<uid_t> UidPool::Acquire(int n) {
  std::vector<uid_t> taken, first_use;
  {
    absl::MutexLock lock(&mu_);
    while (static_cast<int>(free_.size()) < n) freed_.Wait(&mu_);
    taken.assign(free_.end() - n, free_.end());
    free_.resize(free_.size() - n);
    for (uid_t uid : taken) {
      if (used_.insert(uid).second) first_use.push_back(uid);
    }
  }
  // A uid first used in this run may hold leftovers of a run that was
  // killed: nothing may wait for the new bot under it. Later uses follow a
  // Release, which left none.
  for (uid_t uid : first_use) KillEveryProcessOf(uid);
  return taken;
}

void UidPool::Release(const std::vector<uid_t>& uids) {
  for (uid_t uid : uids) KillEveryProcessOf(uid);
  absl::MutexLock lock(&mu_);
  // At the front: Acquire takes from the back, so a uid rests a while.
  free_.insert(free_.begin(), uids.begin(), uids.end());
  freed_.SignalAll();
}

}  // namespace cardref::tournament
