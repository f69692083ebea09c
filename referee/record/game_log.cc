#include "referee/record/game_log.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"

namespace cardref::record {

namespace {
int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

GameLogWriter::GameLogWriter(std::unique_ptr<WritableSink> sink)
    : sink_(std::move(sink)), writer_(sink_.get()) {}

absl::StatusOr<std::unique_ptr<GameLogWriter>> GameLogWriter::Create(
    const std::string& path, const v1::LogHeader& header) {
  absl::StatusOr<std::unique_ptr<WritableSink>> sink = NewFileSink(path);
  if (!sink.ok()) return sink.status();
  auto writer = std::make_unique<GameLogWriter>(std::move(*sink));
  v1::LogRecord record;
  *record.mutable_header() = header;
  if (absl::Status st = writer->Write(std::move(record)); !st.ok()) return st;
  return writer;
}

absl::Status GameLogWriter::Write(v1::LogRecord record) {
  if (record.unix_micros() == 0) record.set_unix_micros(NowMicros());
  std::string payload;
  if (!record.SerializeToString(&payload)) {
    return absl::InternalError("could not serialise a log record");
  }
  absl::Status st = writer_.AddRecord(payload);
  if (st.ok()) ++records_written_;
  return st;
}

absl::Status GameLogWriter::Close() {
  absl::Status st = sink_->Sync();
  absl::Status closed = sink_->Close();
  return st.ok() ? closed : st;
}

bool GameLog::finished() const {
  if (records.empty()) return false;
  const v1::LogRecord& last = records.back();
  return last.has_final_result() || last.has_aborted();
}

GameLog ParseGameLog(absl::string_view bytes, const ReadOptions& options) {
  RecordFile file = ParseRecords(bytes, options);
  GameLog log;
  log.end = file.end;
  log.damage_offset = file.damage_offset;
  log.damage = file.damage;
  log.file_size = file.file_size;
  for (size_t i = 0; i < file.records.size(); ++i) {
    const Record& r = file.records[i];
    v1::LogRecord record;
    std::string problem;
    if (!record.ParseFromString(r.payload)) {
      problem = "payload is not a LogRecord";
    } else if ((log.records.empty()) != record.has_header()) {
      problem = log.records.empty() ? "first record is not a header"
                                    : "a second header record";
    }
    if (!problem.empty()) {
      if (r.salvaged) continue;  // salvage skips what it cannot use
      // Intact framing around an unusable payload is still corruption; keep
      // only the records before it (and later ones only when salvaging).
      log.end = FileEnd::kCorrupt;
      log.damage_offset = r.offset;
      log.damage = absl::StrCat("record ", log.records.size(), " at byte ",
                                r.offset, ": ", problem);
      if (!options.salvage) break;
      continue;
    }
    log.records.push_back(std::move(record));
    log.offsets.push_back(r.offset);
    log.salvaged.push_back(r.salvaged);
  }
  return log;
}

absl::StatusOr<GameLog> ReadGameLog(const std::string& path,
                                    const ReadOptions& options) {
  absl::StatusOr<std::string> bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  return ParseGameLog(*bytes, options);
}

std::string DescribeEnd(const GameLog& log) {
  switch (log.end) {
    case FileEnd::kComplete:
      return absl::StrCat(log.finished() ? "complete" : "incomplete game",
                          " (", log.records.size(), " records)");
    case FileEnd::kTornTail:
      return absl::StrCat("incomplete: torn tail at byte ", log.damage_offset,
                          " (", log.records.size(), " intact records)");
    case FileEnd::kCorrupt:
      return absl::StrCat("corrupt at byte ", log.damage_offset, ": ",
                          log.damage, " (", log.records.size(),
                          " intact records)");
  }
  return "unknown";
}

}  // namespace cardref::record
