// Game logs: LogRecord messages (proto/cardref/v1/log.proto), one per
// framed record (record_io.h), written as the game is played.
#ifndef CARDREF_REFEREE_RECORD_GAME_LOG_H_
#define CARDREF_REFEREE_RECORD_GAME_LOG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "cardref/v1/log.pb.h"
#include "referee/record/record_io.h"

namespace cardref::record {

inline constexpr uint32_t kLogFormatVersion = 1;

// Appends LogRecords to a sink, each flushed to the OS as it is written, so
// a referee crash loses at most the record being written (a torn tail).
// Not thread-safe.
class GameLogWriter {
 public:
  explicit GameLogWriter(std::unique_ptr<WritableSink> sink);

  // Creates `path` (never overwrites) and writes `header` as record 0.
  static absl::StatusOr<std::unique_ptr<GameLogWriter>> Create(
      const std::string& path, const v1::LogHeader& header);

  // Stamps unix_micros if unset, then appends.
  [[nodiscard]] absl::Status Write(v1::LogRecord record);
  // Syncs to disk (fdatasync) and closes.
  [[nodiscard]] absl::Status Close();
  int64_t records_written() const { return records_written_; }

 private:
  std::unique_ptr<WritableSink> sink_;
  RecordWriter writer_;
  int64_t records_written_ = 0;
};

// A log as read back. records[0] is the header record when the file has one.
struct GameLog {
  std::vector<v1::LogRecord> records;
  std::vector<uint64_t> offsets;  // byte offset of each record
  std::vector<bool> salvaged;     // read past damage (salvage mode only)
  FileEnd end = FileEnd::kComplete;
  uint64_t damage_offset = 0;
  std::string damage;             // empty unless end != kComplete
  uint64_t file_size = 0;

  bool has_header() const {
    return !records.empty() && records[0].has_header();
  }
  const v1::LogHeader& header() const { return records[0].header(); }
  // The game reached its end: the last intact record is a final result or
  // an abort notice.
  bool finished() const;
};

// Parses framed bytes into LogRecords. A payload that is not a LogRecord
// (or a record 0 that is not a header) is reported as corruption at that
// record's offset, like a checksum failure.
GameLog ParseGameLog(absl::string_view bytes, const ReadOptions& options = {});
absl::StatusOr<GameLog> ReadGameLog(const std::string& path,
                                    const ReadOptions& options = {});

// One line describing how a log ends, e.g. "complete (412 records)" or
// "corrupt at byte 1234: payload checksum mismatch (57 intact records)".
std::string DescribeEnd(const GameLog& log);

}  // namespace cardref::record

#endif  // CARDREF_REFEREE_RECORD_GAME_LOG_H_
