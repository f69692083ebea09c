// Helpers of the POSIX file code of record_io.h (posix_file.cc,
// mapped_sink.cc): errno as an absl::Status that names the operation and
// the path, a retry of calls that EINTR interrupted, and what both sinks
// say and do alike.
#ifndef CARDREF_REFEREE_RECORD_POSIX_UTIL_H_
#define CARDREF_REFEREE_RECORD_POSIX_UTIL_H_

#include <unistd.h>

#include <cerrno>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace cardref::record::internal {

// "<op> <path>: <strerror>", with the code absl derives from errno.
inline absl::Status PosixError(int error_number, absl::string_view op,
                               absl::string_view path) {
  return absl::ErrnoToStatus(error_number, absl::StrCat(op, " ", path));
}

template <typename F>
int RetryOnEintr(F f) {
  int rc;
  do {
    rc = f();
  } while (rc < 0 && errno == EINTR);
  return rc;
}

// fdatasync, retried on EINTR.
inline absl::Status DataSync(int fd, absl::string_view path) {
  if (RetryOnEintr([&] { return ::fdatasync(fd); }) != 0) {
    return PosixError(errno, "fdatasync", path);
  }
  return absl::OkStatus();
}

// A sink used after its Close.
inline absl::Status ClosedError(absl::string_view op, absl::string_view path) {
  return absl::FailedPreconditionError(
      absl::StrCat(op, " ", path, ": file already closed"));
}

}  // namespace cardref::record::internal

#endif  // CARDREF_REFEREE_RECORD_POSIX_UTIL_H_
