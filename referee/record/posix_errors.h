// Helpers of the POSIX file code of record_io.h (posix_file.cc,
// mapped_sink.cc): errno as an absl::Status that names the operation and
// the path, and a retry of calls that EINTR interrupted.
#ifndef CARDREF_REFEREE_RECORD_POSIX_ERRORS_H_
#define CARDREF_REFEREE_RECORD_POSIX_ERRORS_H_

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

}  // namespace cardref::record::internal

#endif  // CARDREF_REFEREE_RECORD_POSIX_ERRORS_H_
