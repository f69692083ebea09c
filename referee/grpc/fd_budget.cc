#include "referee/grpc/fd_budget.h"

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace cardref::grpc_service {

absl::StatusOr<uint64_t> RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
    return absl::InternalError(
        absl::StrCat("getrlimit(RLIMIT_NOFILE): ", std::strerror(errno)));
  }
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
      return absl::InternalError(absl::StrCat(
          "setrlimit(RLIMIT_NOFILE, ", limit.rlim_max,
          "): ", std::strerror(errno)));
    }
  }
  return OpenFileLimit();
}

uint64_t OpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  return limit.rlim_cur == RLIM_INFINITY ? UINT64_MAX : limit.rlim_cur;
}

int OpenFileCount() {
  std::error_code error;
  int n = 0;
  for (std::filesystem::directory_iterator it("/proc/self/fd", error), end;
       !error && it != end; it.increment(error)) {
    ++n;
  }
  return error ? -1 : n;
}

int FitConnectionCap(int wanted, uint64_t fd_limit) {
  if (wanted <= 0 || fd_limit == 0) return wanted;
  const uint64_t half = fd_limit / 2;
  return static_cast<int>(std::min<uint64_t>(static_cast<uint64_t>(wanted),
                                             std::max<uint64_t>(half, 1)));
}

}  // namespace cardref::grpc_service
