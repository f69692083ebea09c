// The POSIX file side of record_io.h: NewFileSink, CreateEmptyFile,
// TruncateFile, ReadWholeFile and ReadRecordFile (OpenAppendSink is in
// mapped_sink.cc).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "referee/record/posix_util.h"
#include "referee/record/record_io.h"

namespace cardref::record {
namespace {

using internal::ClosedError;
using internal::DataSync;
using internal::PosixError;
using internal::RetryOnEintr;

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Creates `path` exclusively, mode 0600 whatever the umask.
absl::StatusOr<int> CreateExclusive(const std::string& path) {
  const int fd = RetryOnEintr([&] {
    return ::open(path.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  });
  if (fd < 0) return PosixError(errno, "create", path);
  // A log holds every hand before it is dealt: owner-only, whatever the
  // umask (which can only remove bits from the mode given to open).
  if (::fchmod(fd, 0600) != 0) {
    const int chmod_errno = errno;
    ::close(fd);
    return PosixError(chmod_errno, "chmod 600", path);
  }
  return fd;
}

absl::Status SyncDirectoryOf(const std::string& path) {
  const std::string dir = DirectoryOf(path);
  const int dir_fd = RetryOnEintr([&] {
    return ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  });
  if (dir_fd < 0) return PosixError(errno, "open directory", dir);
  const int rc = RetryOnEintr([&] { return ::fsync(dir_fd); });
  const int fsync_errno = errno;
  ::close(dir_fd);
  if (rc != 0) return PosixError(fsync_errno, "fsync directory", dir);
  return absl::OkStatus();
}

class FileSink : public WritableSink {
 public:
  FileSink(std::string path, int fd, bool directory_synced = false)
      : path_(std::move(path)), fd_(fd), directory_synced_(directory_synced) {}
  ~FileSink() override {
    if (fd_ >= 0) ::close(fd_);
  }

  absl::Status Append(absl::string_view data) override {
    if (fd_ < 0) return Closed("append to");
    const char* p = data.data();
    size_t left = data.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        return PosixError(errno, "write", path_);
      }
      if (n == 0) {  // not expected for regular files; never spin
        return absl::DataLossError(
            absl::StrCat("write ", path_, ": wrote 0 of ", left, " bytes"));
      }
      p += n;
      left -= static_cast<size_t>(n);
    }
    return absl::OkStatus();
  }

  // Unbuffered: every Append already reached the OS.
  absl::Status Flush() override {
    return fd_ < 0 ? Closed("flush") : absl::OkStatus();
  }

  absl::Status Sync() override {
    if (fd_ < 0) return Closed("sync");
    if (absl::Status st = DataSync(fd_, path_); !st.ok()) return st;
    if (!directory_synced_) {
      // The file is new: its directory entry must be durable too.
      if (absl::Status st = SyncDirectoryOf(path_); !st.ok()) return st;
      directory_synced_ = true;
    }
    return absl::OkStatus();
  }

  absl::Status Truncate(uint64_t size) override {
    if (fd_ < 0) return Closed("truncate");
    const off_t at = static_cast<off_t>(size);
    if (RetryOnEintr([&] { return ::ftruncate(fd_, at); }) != 0) {
      return PosixError(errno, "truncate", path_);
    }
    // The next write goes where the file now ends, not past it (a hole).
    if (::lseek(fd_, at, SEEK_SET) != at) {
      return PosixError(errno, "seek", path_);
    }
    return absl::OkStatus();
  }

  absl::Status Close() override {
    if (fd_ < 0) return absl::OkStatus();
    // No retry on EINTR: Linux has released the descriptor either way.
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) return PosixError(errno, "close", path_);
    return absl::OkStatus();
  }

 private:
  absl::Status Closed(absl::string_view op) const {
    return ClosedError(op, path_);
  }

  const std::string path_;
  int fd_;
  bool directory_synced_;
};

}  // namespace

absl::Status CreateEmptyFile(const std::string& path) {
  absl::StatusOr<int> fd = CreateExclusive(path);
  if (!fd.ok()) return fd.status();
  if (::close(*fd) != 0) return PosixError(errno, "close", path);
  return SyncDirectoryOf(path);
}

absl::Status TruncateFile(const std::string& path, uint64_t size) {
  const int fd =
      RetryOnEintr([&] { return ::open(path.c_str(), O_WRONLY | O_CLOEXEC); });
  if (fd < 0) return PosixError(errno, "open for truncation", path);
  absl::Status st;
  if (RetryOnEintr([&] {
        return ::ftruncate(fd, static_cast<off_t>(size));
      }) != 0) {
    st = PosixError(errno, "truncate", path);
  } else {
    st = DataSync(fd, path);
  }
  ::close(fd);
  return st;
}

absl::StatusOr<std::unique_ptr<WritableSink>> NewFileSink(
    const std::string& path) {
  absl::StatusOr<int> fd = CreateExclusive(path);
  if (!fd.ok()) return fd.status();
  return std::unique_ptr<WritableSink>(new FileSink(path, *fd));
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path,
                                          uint64_t max_bytes) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return PosixError(errno, "open", path);

  const auto too_large = [&path, max_bytes] {
    return absl::OutOfRangeError(absl::StrCat(
        path, " is larger than ", max_bytes >> 20,
        " MiB, more than any cardref log can be: not read"));
  };
  std::string contents;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      ::close(fd);
      return too_large();
    }
    contents.reserve(static_cast<size_t>(st.st_size));
  }
  // Read to end of file rather than to st_size: the file may still grow.
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      const int read_errno = errno;
      ::close(fd);
      return PosixError(read_errno, "read", path);
    }
    if (n == 0) break;
    contents.append(buffer, static_cast<size_t>(n));
    if (contents.size() > max_bytes) {  // still growing, or not a file
      ::close(fd);
      return too_large();
    }
  }
  ::close(fd);
  return contents;
}

absl::StatusOr<RecordFile> ReadRecordFile(const std::string& path,
                                          const ReadOptions& options) {
  absl::StatusOr<std::string> contents = ReadWholeFile(path);
  if (!contents.ok()) return contents.status();
  return ParseRecords(*contents, options);
}

}  // namespace cardref::record
