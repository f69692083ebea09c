#include "referee/record/record_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "referee/base/crc32c.h"

namespace cardref::record {
namespace {

constexpr size_t kReadChunk = 1 << 20;

uint32_t DecodeFixed32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}
uint64_t DecodeFixed64(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | u[i];
  return v;
}

}  // namespace

absl::StatusOr<std::unique_ptr<RecordStream>> RecordStream::Open(
    const std::string& path, uint64_t max_record_size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("open ", path));
  return std::unique_ptr<RecordStream>(
      new RecordStream(fd, path, max_record_size));
}

RecordStream::~RecordStream() { ::close(fd_); }

uint64_t RecordStream::Fill(uint64_t n) {
  while (filled_ - begin_ < n && !eof_) {
    if (begin_ > 0) {  // keep only the unread bytes, at the front
      std::memmove(buffer_.data(), buffer_.data() + begin_, filled_ - begin_);
      filled_ -= begin_;
      begin_ = 0;
    }
    const size_t want = std::max<size_t>(static_cast<size_t>(n), kReadChunk);
    if (buffer_.size() < want) buffer_.resize(want);
    const ssize_t got =
        ::read(fd_, buffer_.data() + filled_, buffer_.size() - filled_);
    if (got < 0) {
      if (errno == EINTR) continue;
      eof_ = true;
      Damage(FileEnd::kCorrupt,
             absl::StrCat("read error at byte ", pos_ + (filled_ - begin_),
                          ": ", std::strerror(errno)));
      break;
    }
    if (got == 0) eof_ = true;
    filled_ += static_cast<size_t>(got);
  }
  return filled_ - begin_;
}

void RecordStream::Damage(FileEnd end, std::string what) {
  if (done_) return;
  done_ = true;
  end_ = end;
  damage_offset_ = pos_;
  damage_ = std::move(what);
}

bool RecordStream::Next(absl::string_view* payload, uint64_t* offset) {
  if (done_) return false;
  // The same checks, in the same order, as ProbeAt in record_io.cc.
  const uint64_t present = Fill(kHeaderSize);
  if (done_) return false;
  if (present == 0) {
    done_ = true;  // a clean end
    return false;
  }
  if (present < kHeaderSize) {
    Damage(FileEnd::kTornTail,
           absl::StrCat("file ends inside the header of the record at byte ",
                        pos_, " (", present, " of ", kHeaderSize,
                        " header bytes present)"));
    return false;
  }
  const char* header = buffer_.data() + begin_;
  if (DecodeFixed32(header + 8) != crc32c::Mask(crc32c::Value(header, 8))) {
    Damage(FileEnd::kCorrupt,
           absl::StrCat("length checksum mismatch at byte ", pos_));
    return false;
  }
  const uint64_t length = DecodeFixed64(header);
  if (length > max_record_size_) {
    Damage(FileEnd::kCorrupt,
           absl::StrCat("record length ", length, " at byte ", pos_,
                        " exceeds the maximum record size ", max_record_size_));
    return false;
  }
  const uint64_t total = kHeaderSize + length + kFooterSize;
  const uint64_t have = Fill(total);
  if (done_) return false;
  if (have < total) {
    // Fill stopped at end of file: `have` is the rest of the file.
    Damage(
        FileEnd::kTornTail,
        absl::StrCat("file ends inside the record at byte ", pos_, " (length ",
                     length, " needs ", total, " bytes, ", have, " present)"));
    return false;
  }
  const char* data = buffer_.data() + begin_ + kHeaderSize;
  const size_t n = static_cast<size_t>(length);
  if (DecodeFixed32(data + n) != crc32c::Mask(crc32c::Value(data, n))) {
    Damage(FileEnd::kCorrupt,
           absl::StrCat("payload checksum mismatch at byte ", pos_,
                        " (record length ", length, ")"));
    return false;
  }
  *payload = absl::string_view(data, n);
  *offset = pos_;
  begin_ += static_cast<size_t>(total);
  pos_ += total;
  return true;
}

}  // namespace cardref::record
