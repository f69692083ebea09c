#include "referee/base/secret_file.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cardref {

namespace {

constexpr size_t kChunk = 4096;

// The user's name, or its number if it has none.
std::string UserName(uid_t uid) {
  passwd entry;
  passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 &&
      found != nullptr) {
    return found->pw_name;
  }
  return absl::StrCat(uid);
}

// "uid 0 (root)", or "uid 1234" for a uid without a name.
std::string UserLabel(uid_t uid) {
  const std::string name = UserName(uid);
  return name == absl::StrCat(uid) ? absl::StrCat("uid ", uid)
                                   : absl::StrCat("uid ", uid, " (", name, ")");
}

}  // namespace

absl::Status CheckSecretFileStat(const struct stat& st, uid_t reader,
                                 absl::string_view what,
                                 const std::string& path) {
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, " ", path, " is not a regular file"));
  }
  const unsigned mode = st.st_mode & 07777;
  if (st.st_uid != reader) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s %s is owned by %s, not by the user reading it, %s: its owner "
        "could replace it. chown %s %s and chmod 600 %s, or run as its owner",
        what, path, UserLabel(st.st_uid), UserLabel(reader), UserName(reader),
        path, path));
  }
  if ((mode & 077) != 0) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s %s has mode %04o (owner %s): group or others may read or write "
        "it; chmod 600 %s",
        what, path, mode, UserLabel(st.st_uid), path));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadSecretFile(const std::string& path,
                                           absl::string_view what,
                                           size_t max_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT) {
      return absl::NotFoundError(
          absl::StrCat(what, " ", path, " does not exist"));
    }
    return absl::ErrnoToStatus(e, absl::StrCat("cannot open ", what, " ",
                                               path));
  }
  // The file opened is the file checked: a name may change in between.
  struct stat st;
  absl::Status status;
  std::string content;
  if (fstat(fd, &st) != 0) {
    status = absl::ErrnoToStatus(errno, absl::StrCat("fstat ", path));
  } else {
    status = CheckSecretFileStat(st, geteuid(), what, path);
    // One allocation: no stray copy of the secret left in freed memory.
    if (status.ok() && st.st_size > 0) {
      content.reserve(std::min(static_cast<size_t>(st.st_size), max_bytes) +
                      kChunk);
    }
  }
  char buffer[kChunk];
  while (status.ok()) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = absl::ErrnoToStatus(errno, absl::StrCat("read ", path));
      break;
    }
    if (n == 0) break;
    content.append(buffer, static_cast<size_t>(n));
    if (content.size() > max_bytes) {
      status = absl::InvalidArgumentError(absl::StrCat(
          what, " ", path, " is larger than ", max_bytes,
          " bytes: not the file expected"));
    }
  }
  close(fd);
  explicit_bzero(buffer, sizeof(buffer));
  if (!status.ok()) {
    explicit_bzero(content.data(), content.size());
    return status;
  }
  return content;
}

}  // namespace cardref
