// MappedAppendSink (record_io.h, OpenAppendSink): a match's log written
// through a shared memory map instead of one write(2) per record.
//
// Why: the write(2) of every record was the referee's largest cost beside
// gRPC itself (8-9% of its CPU per decision on ext4, most of it
// the filesystem's write path and the inode time update of every call). A
// copy into a MAP_SHARED page puts the bytes in the page cache as the copy
// returns, exactly where write(2) put them: a crash of the referee (kill -9)
// loses nothing it copied, and fdatasync writes the mapped pages back as it
// wrote the written ones.
//
// The space is reserved with fallocate in chunks ahead of the data, so a
// full disk is an error from Append (ENOSPC, before anything is copied),
// never a SIGBUS on a page the filesystem cannot back. While the log is
// open the file is longer than its records: the reserved space reads as
// zeros, which readers call unwritten space (framing.h, Probe::kUnwritten)
// and recovery cuts off like a torn tail. Close (or Seal, after the last
// record) cuts the file to its records.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
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

class MappedAppendSink : public WritableSink {
 public:
  MappedAppendSink(std::string path, int fd, uint64_t size,
                   uint64_t first_chunk)
      : path_(std::move(path)),
        fd_(fd),
        size_(size),
        file_size_(size),
        next_chunk_(first_chunk) {}

  // Not closed (an error path): cut to the records all the same, unsynced.
  ~MappedAppendSink() override { Close().IgnoreError(); }

  absl::Status Append(absl::string_view data) override {
    if (fd_ < 0) return Closed("append to");
    if (sealed_) return Sealed("append to");
    // Until the log closes, records leave the closing reserve alone: a
    // full disk fails them with room left for the seed and the abort.
    const uint64_t keep = use_reserve_ ? 0 : kClosingReserve;
    if (size_ + data.size() + keep > capacity_) {
      if (absl::Status st = Reserve(size_ + data.size() + keep); !st.ok()) {
        return st;
      }
    }
    std::memcpy(map_ + size_, data.data(), data.size());
    size_ += data.size();
    return absl::OkStatus();
  }

  // Every Append is in the page cache already.
  absl::Status Flush() override {
    return fd_ < 0 ? Closed("flush") : absl::OkStatus();
  }

  absl::Status Sync() override {
    if (fd_ < 0) return Closed("sync");
    // fdatasync writes back the file's dirty pages, mapped ones included.
    if (absl::Status st = DataSync(fd_, path_); !st.ok()) return st;
    synced_size_ = size_;
    return absl::OkStatus();
  }

  absl::Status Truncate(uint64_t size) override {
    if (fd_ < 0) return Closed("truncate");
    if (sealed_) return Sealed("truncate");
    if (size > size_) {
      return absl::InvalidArgumentError(
          absl::StrCat("truncate ", path_, " to ", size, " bytes: it has ",
                       size_));
    }
    // Zeros again, so a crash now shows unwritten space, not the torn
    // bytes.
    std::memset(map_ + size, 0, size_ - size);
    size_ = size;
    synced_size_ = std::min(synced_size_, size_);
    return absl::OkStatus();
  }

  // Cuts the file to its records, then syncs once: the records and the
  // new length together (a sync before the cut and another after it cost
  // two). Read-only only once that sync succeeded, so a read-only log is
  // always a whole one.
  absl::Status Seal() override {
    if (fd_ < 0) return Closed("seal");
    if (sealed_) return absl::OkStatus();
    sealed_ = true;
    if (absl::Status st = CutToRecords(); !st.ok()) return st;
    if (absl::Status st = DataSync(fd_, path_); !st.ok()) return st;
    synced_size_ = size_;
    if (::fchmod(fd_, S_IRUSR) != 0) {
      return PosixError(errno, "make read-only", path_);
    }
    return absl::OkStatus();
  }

  // Cuts the file to its records. If the records were synced, the new
  // length is synced too: a synced log must not read as longer after a
  // crash of the machine.
  absl::Status Close() override {
    if (fd_ < 0) return absl::OkStatus();
    const bool cut = file_size_ != size_;
    absl::Status st = CutToRecords();
    if (st.ok() && cut && synced_size_ == size_) st = DataSync(fd_, path_);
    // No retry on EINTR: Linux has released the descriptor either way.
    const int rc = ::close(fd_);
    fd_ = -1;
    if (st.ok() && rc != 0) st = PosixError(errno, "close", path_);
    return st;
  }

  void UseClosingReserve() override { use_reserve_ = true; }

  // Maps the file as it is (`size_` bytes of records) with room for more,
  // the closing reserve included.
  absl::Status Start() { return Reserve(size_ + kClosingReserve); }

 private:
  // Grows the reserved space and the map to hold at least `needed` bytes.
  absl::Status Reserve(uint64_t needed) {
    uint64_t capacity = std::max<uint64_t>(capacity_, size_);
    while (capacity < needed + 1) {
      capacity += next_chunk_;
      next_chunk_ = std::min<uint64_t>(next_chunk_ * 2, kMaxChunk);
    }
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    capacity = (capacity + page - 1) / page * page;
    if (capacity > file_size_) {
      // Real blocks, not a hole: a full disk fails here, not as a SIGBUS
      // when a mapped page is first written.
      // posix_fallocate returns the error instead of setting errno.
      int rc;
      do {
        rc = ::posix_fallocate(fd_, static_cast<off_t>(file_size_),
                               static_cast<off_t>(capacity - file_size_));
      } while (rc == EINTR);
      if (rc != 0) return PosixError(rc, "reserve space in", path_);
      file_size_ = capacity;
    }
    void* map = map_ == nullptr
                    ? ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE,
                             MAP_SHARED, fd_, 0)
                    : ::mremap(map_, capacity_, capacity, MREMAP_MAYMOVE);
    if (map == MAP_FAILED) {
      const int map_errno = errno;
      if (map_ == nullptr) capacity_ = 0;
      return PosixError(map_errno, "map", path_);
    }
    map_ = static_cast<char*>(map);
    capacity_ = capacity;
    return absl::OkStatus();
  }

  // Unmaps and gives back the reserved space past the records.
  absl::Status CutToRecords() {
    Unmap();
    if (file_size_ == size_) return absl::OkStatus();
    if (RetryOnEintr([&] {
          return ::ftruncate(fd_, static_cast<off_t>(size_));
        }) != 0) {
      return PosixError(errno, "truncate", path_);
    }
    file_size_ = size_;
    return absl::OkStatus();
  }

  void Unmap() {
    if (map_ != nullptr) ::munmap(map_, capacity_);
    map_ = nullptr;
    capacity_ = 0;
  }

  absl::Status Closed(absl::string_view op) const {
    return ClosedError(op, path_);
  }
  absl::Status Sealed(absl::string_view op) const {
    return absl::FailedPreconditionError(
        absl::StrCat(op, " ", path_, ": the log is sealed (it has its last "
                     "record)"));
  }

  // Chunks double from the first up to this: a long log maps and reserves
  // a few times, a short one (most) once.
  static constexpr uint64_t kMaxChunk = 1 << 20;
  bool use_reserve_ = false;  // the closing records may use the reserve

  const std::string path_;
  int fd_;
  uint64_t size_;              // bytes of records
  uint64_t synced_size_ = 0;   // size_ at the last Sync
  uint64_t file_size_;         // the file's length: records and reserve
  uint64_t next_chunk_;
  char* map_ = nullptr;
  uint64_t capacity_ = 0;  // bytes mapped
  bool sealed_ = false;
};

}  // namespace

bool IsSealedFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return false;
  return S_ISREG(st.st_mode) &&
         (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
}

absl::StatusOr<std::unique_ptr<WritableSink>> OpenAppendSink(
    const std::string& path, uint64_t first_chunk) {
  const int fd =
      RetryOnEintr([&] { return ::open(path.c_str(), O_RDWR | O_CLOEXEC); });
  if (fd < 0) return PosixError(errno, "open for append", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int stat_errno = errno;
    ::close(fd);
    return PosixError(stat_errno, "stat", path);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("open for append ", path, ": not a regular file"));
  }
  auto sink = std::make_unique<MappedAppendSink>(
      path, fd, static_cast<uint64_t>(st.st_size),
      std::max<uint64_t>(first_chunk, 1));
  if (absl::Status started = sink->Start(); !started.ok()) return started;
  return std::unique_ptr<WritableSink>(std::move(sink));
}

}  // namespace cardref::record
