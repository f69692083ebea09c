#include "referee/record/private_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "referee/base/status_macros.h"

namespace cardref::record {

namespace {

// Creates each missing folder of `path`, from the top down, mode 0700
// whatever the umask (which can only take bits away: chmod sets them). A
// folder that already exists is left as it is.
absl::Status CreateMissingFolders(const std::string& path) {
  std::filesystem::path so_far;
  for (const std::filesystem::path& part :
       std::filesystem::path(path).lexically_normal()) {
    if (part.empty()) continue;  // after a trailing slash
    so_far /= part;
    const std::string folder = so_far.string();
    if (::mkdir(folder.c_str(), 0700) == 0) {
      if (::chmod(folder.c_str(), 0700) != 0) {
        return absl::UnavailableError(absl::StrCat(
            "cannot chmod 700 ", folder, ", made for the log directory ", path,
            ": ", std::strerror(errno)));
      }
      continue;
    }
    const int e = errno;
    struct stat st;
    if (e == EEXIST && ::stat(folder.c_str(), &st) == 0 &&
        S_ISDIR(st.st_mode)) {
      continue;
    }
    return absl::UnavailableError(absl::StrCat(
        "cannot create the log directory ", path, ": ", folder, ": ",
        e == EEXIST ? "not a directory" : std::strerror(e)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MakePrivateDirectory(const std::string& path) {
  if (path.empty()) {
    return absl::InvalidArgumentError("the log directory is an empty path");
  }
  RETURN_IF_ERROR(CreateMissingFolders(path));
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
