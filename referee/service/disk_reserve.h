// The free space the log directory must keep for matches already in
// progress: below it, no new match is created (docs/operations.md, "Disk
// reserve"), so a filling disk stops new games before it aborts old ones.
#ifndef CARDREF_REFEREE_SERVICE_DISK_RESERVE_H_
#define CARDREF_REFEREE_SERVICE_DISK_RESERVE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace cardref::service {

// Bytes an unprivileged writer may still use on the filesystem of `dir`
// (statvfs: f_bavail * f_frsize). UNAVAILABLE naming `dir` if statvfs fails.
absl::StatusOr<uint64_t> FreeDiskBytes(const std::string& dir);

// OK if `dir` has at least `min_free_mb` MiB free (always, for 0);
// otherwise UNAVAILABLE naming the directory, what is free and the reserve.
absl::Status CheckDiskReserve(const std::string& dir, int64_t min_free_mb);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_DISK_RESERVE_H_
