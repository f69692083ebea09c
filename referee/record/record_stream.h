// Reads a record file (record_io.h framing) one record at a time, so memory
// is bounded by the largest record, never by the file. Classifies the end
// of the file exactly as ParseRecords does, with the same damage messages.
// No salvage: reading past damage needs the whole file (ParseRecords).
#ifndef CARDREF_REFEREE_RECORD_RECORD_STREAM_H_
#define CARDREF_REFEREE_RECORD_RECORD_STREAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "referee/record/framing.h"
#include "referee/record/record_io.h"

namespace cardref::record {

// Not thread-safe.
class RecordStream {
 public:
  // Opens `path` for reading. NOT_FOUND and other errors name the path.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<RecordStream>> Open(
      const std::string& path,
      uint64_t max_record_size = kDefaultMaxRecordSize);
  ~RecordStream();
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;

  // The next intact record: true and its payload (valid until the next
  // call) and offset; false at end of file or at damage (see end()).
  bool Next(absl::string_view* payload, uint64_t* offset);

  // After Next returned false: how the file ends.
  FileEnd end() const { return end_; }
  uint64_t damage_offset() const { return damage_offset_; }
  const std::string& damage() const { return damage_; }
  // A read error (EIO...) stops the stream, reported as corruption there.
  // Bytes of the records returned so far (and of the file's magic).
  uint64_t bytes_read() const { return pos_; }

 private:
  RecordStream(int fd, std::string path, uint64_t max_record_size)
      : fd_(fd), path_(std::move(path)), max_record_size_(max_record_size) {}

  // Makes at least `n` bytes from pos_ available in the buffer, unless the
  // file ends first. Returns the bytes available (<= n only at EOF).
  uint64_t Fill(uint64_t n);
  void Damage(FileEnd end, std::string what);
  // ProbeAt on the `present` bytes buffered at pos_.
  ProbeResult ProbeBuffered(uint64_t present) const;

  int fd_;
  std::string path_;
  uint64_t max_record_size_;
  size_t read_chunk_ = 1 << 20;  // bytes asked of read(2) at a time
  std::string buffer_;
  size_t begin_ = 0;  // buffer_[begin_, end_) holds the bytes at pos_
  size_t filled_ = 0;
  bool eof_ = false;
  uint64_t pos_ = 0;  // file offset of buffer_[begin_]
  FileEnd end_ = FileEnd::kComplete;
  uint64_t damage_offset_ = 0;
  std::string damage_;
  bool done_ = false;
  bool started_ = false;  // the file's magic has been read
  Framing framing_ = Framing::kTfRecord;
};

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_RECORD_STREAM_H_
