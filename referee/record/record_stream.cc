#include "referee/record/record_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "referee/record/framing.h"

namespace cardref::record {
namespace {

constexpr size_t kReadChunk = 1 << 20;

}  // namespace

absl::StatusOr<std::unique_ptr<RecordStream>> RecordStream::Open(
    const std::string& path, uint64_t max_record_size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat("open ", path));
  auto stream = std::unique_ptr<RecordStream>(
      new RecordStream(fd, path, max_record_size));
  // A small file gets a small buffer: zeroing a whole chunk for a log of
  // a few KiB cost more than reading it. It still grows.
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size >= 0) {
    stream->read_chunk_ = std::clamp<size_t>(
        static_cast<size_t>(st.st_size) + 1, 4096, kReadChunk);
  }
  return stream;
}

RecordStream::~RecordStream() { ::close(fd_); }

uint64_t RecordStream::Fill(uint64_t n) {
  while (filled_ - begin_ < n && !eof_) {
    if (begin_ > 0) {  // keep only the unread bytes, at the front
      std::memmove(buffer_.data(), buffer_.data() + begin_, filled_ - begin_);
      filled_ -= begin_;
      begin_ = 0;
    }
    const size_t want = std::max<size_t>(static_cast<size_t>(n), read_chunk_);
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
  if (!started_) {
    started_ = true;
    const uint64_t present = Fill(kCompactMagicSize);
    if (done_) return false;
    bool torn = false;
    uint64_t first = 0;
    framing_ = DetectFraming(
        absl::string_view(buffer_.data() + begin_, present), &first, &torn);
    if (torn) {
      Damage(FileEnd::kTornTail, DescribeTornMagic(present));
      return false;
    }
    begin_ += static_cast<size_t>(first);
    pos_ += first;
  }
  // The probe of ParseRecords, on the bytes buffered: first the header
  // (both framings' fit in kHeaderSize bytes), then the whole record.
  uint64_t present = Fill(kHeaderSize);
  if (done_) return false;
  if (present == 0) {
    done_ = true;  // a clean end
    return false;
  }
  ProbeResult r = ProbeBuffered(present);
  if (r.probe == Probe::kTorn && r.header_size > 0) {
    present = Fill(r.total());
    if (done_) return false;
    r = ProbeBuffered(present);
  }
  if (r.probe != Probe::kRecord && r.probe != Probe::kTorn) {
    // A mapped writer's unwritten space is at most kMaxUnwrittenTail long:
    // read that far (one more byte says the file is longer).
    present = Fill(kMaxUnwrittenTail + 1);
    if (done_) return false;
    const absl::string_view rest(buffer_.data() + begin_, present);
    if (eof_ && IsUnwrittenTail(framing_, rest, max_record_size_)) {
      Damage(FileEnd::kTornTail, DescribeUnwrittenTail(rest, pos_));
      return false;
    }
  }
  if (r.probe != Probe::kRecord) {
    // Fill stops short only at end of file: `present` is the rest of it.
    Damage(r.probe == Probe::kTorn ? FileEnd::kTornTail : FileEnd::kCorrupt,
           DescribeProbe(framing_, r, pos_, pos_ + present,
                         max_record_size_));
    return false;
  }
  *payload = absl::string_view(buffer_.data() + begin_ + r.header_size,
                               static_cast<size_t>(r.length));
  *offset = pos_;
  begin_ += static_cast<size_t>(r.total());
  pos_ += r.total();
  return true;
}

ProbeResult RecordStream::ProbeBuffered(uint64_t present) const {
  return ProbeAt(framing_, absl::string_view(buffer_.data() + begin_, present),
                 0, max_record_size_);
}

}  // namespace cardref::record
