#include "referee/service/disk_reserve.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref::service {

absl::StatusOr<uint64_t> FreeDiskBytes(const std::string& dir) {
  struct statvfs fs;
  if (::statvfs(dir.c_str(), &fs) != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot tell the free space of the log directory ", dir,
                     ": statvfs: ", std::strerror(errno)));
  }
  return static_cast<uint64_t>(fs.f_bavail) *
         static_cast<uint64_t>(fs.f_frsize);
}

absl::Status CheckDiskReserve(const std::string& dir, int64_t min_free_mb) {
  if (min_free_mb <= 0) return absl::OkStatus();
  absl::StatusOr<uint64_t> free = FreeDiskBytes(dir);
  if (!free.ok()) return free.status();
  const uint64_t reserve = static_cast<uint64_t>(min_free_mb) << 20;
  if (*free >= reserve) return absl::OkStatus();
  return absl::UnavailableError(absl::StrFormat(
      "no new match: the log directory %s has %.1f MiB free, below the "
      "referee's reserve of %d MiB (--min_free_disk_mb) kept for matches in "
      "progress; try again once space is freed",
      dir, static_cast<double>(*free) / (1 << 20), min_free_mb));
}

}  // namespace cardref::service
