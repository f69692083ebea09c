#include "referee/base/public_key_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "referee/base/ed25519.h"
#include "referee/base/hex.h"

namespace cardref::crypto {
namespace {

absl::Status Failed(const std::string& what, const std::string& path) {
  return absl::ErrnoToStatus(
      errno, absl::StrCat("cannot write the public key file ", path, ": ",
                          what));
}

}  // namespace

std::string PublicKeyPath(const std::string& key_file) {
  if (absl::EndsWith(key_file, ".key")) {
    return absl::StrCat(key_file.substr(0, key_file.size() - 4), ".pub");
  }
  return absl::StrCat(key_file, ".pub");
}

absl::Status WritePublicKeyFile(const std::string& path,
                                absl::string_view public_key) {
  if (public_key.size() != kEd25519PublicKeySize) {
    return absl::InvalidArgumentError(
        absl::StrCat("an Ed25519 public key is ", kEd25519PublicKeySize,
                     " bytes, got ", public_key.size()));
  }
  const std::string text = absl::StrCat(ToHex(public_key), "\n");
  {
    std::ifstream in(path);
    std::stringstream held;
    held << in.rdbuf();
    if (in && held.str() == text) return absl::OkStatus();
  }
  const std::string temp = absl::StrCat(path, ".tmp");
  const int fd =
      open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Failed("open", temp);
  const bool written =
      write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  // 0644 whatever the umask: anyone may read a public key.
  const bool done = written && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
  const int saved = errno;
  close(fd);
  if (!done) {
    unlink(temp.c_str());
    errno = saved;
    return Failed("write", temp);
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const int renamed = errno;
    unlink(temp.c_str());
    errno = renamed;
    return Failed("rename", path);
  }
  return absl::OkStatus();
}

}  // namespace cardref::crypto
