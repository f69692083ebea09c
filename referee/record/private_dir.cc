#include "referee/record/private_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace cardref::record {

absl::Status MakePrivateDirectory(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) {
    return absl::UnavailableError(absl::StrCat(
        "cannot create the log directory ", path, ": ", ec.message()));
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("the log directory ", path, " is not a directory"));
  }
  if (st.st_uid != ::geteuid()) {
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the log directory ", path,
          " belongs to another user and others may open it; logs hold "
          "every hand, so use a directory of the referee's own user"));
    }
    return absl::OkStatus();
  }
  if ((st.st_mode & 07777) != 0700 && ::chmod(path.c_str(), 0700) != 0) {
    return absl::UnavailableError(absl::StrCat(
        "cannot chmod 700 the log directory ", path, ": ",
        std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace cardref::record
