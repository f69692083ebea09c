#include "referee/record/game_log.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/base/sha256.h"
#include "referee/base/status_macros.h"

namespace cardref::record {

namespace {
int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

absl::StatusOr<SyncPolicy> ParseSyncPolicy(absl::string_view name) {
  if (name == "event") return SyncPolicy::kEveryEvent;
  if (name == "round") return SyncPolicy::kRound;
  if (name == "end") return SyncPolicy::kEnd;
  return absl::InvalidArgumentError(absl::StrCat(
      "log sync policy must be event, round or end, got '",
      name.substr(0, 40), "'"));
}

std::string SignedMessage(absl::string_view prefix) {
  std::string message(kSignatureDomain);
  message.push_back('\0');
  message.append(prefix.data(), prefix.size());
  return message;
}

bool SplitSignature(absl::string_view payload, absl::string_view* prefix,
                    absl::string_view* signature) {
  constexpr size_t kTail = kSignatureFieldTagSize + crypto::kEd25519SignatureSize;
  if (payload.size() < kTail) return false;
  const absl::string_view tail = payload.substr(payload.size() - kTail);
  if (tail.substr(0, kSignatureFieldTagSize) !=
      absl::string_view(kSignatureFieldTag, kSignatureFieldTagSize)) {
    return false;
  }
  *prefix = payload.substr(0, payload.size() - kTail);
  *signature = tail.substr(kSignatureFieldTagSize);
  return true;
}

GameLogWriter::GameLogWriter(
    std::unique_ptr<WritableSink> sink,
    std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key)
    : sink_(std::move(sink)),
      writer_(sink_.get()),
      signing_key_(std::move(signing_key)) {}

absl::StatusOr<std::unique_ptr<GameLogWriter>> GameLogWriter::Create(
    const std::string& path, const v1::LogHeader& header,
    std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key) {
  absl::StatusOr<std::unique_ptr<WritableSink>> sink = NewFileSink(path);
  if (!sink.ok()) return sink.status();
  auto writer =
      std::make_unique<GameLogWriter>(std::move(*sink), std::move(signing_key));
  v1::LogRecord record;
  *record.mutable_header() = header;
  if (absl::Status st = writer->Write(std::move(record)); !st.ok()) return st;
  return writer;
}

void LogChain::Add(absl::string_view payload) {
  const uint64_t n = payload.size();
  for (int i = 0; i < 8; ++i) pending_.push_back(static_cast<char>(n >> (8 * i)));
  if (pending_.size() + payload.size() < kBlock) {
    pending_.append(payload.data(), payload.size());
  } else {
    hasher_.Update(pending_);
    hasher_.Update(payload);
    pending_.clear();
  }
  ++records_;
}

std::string LogChain::Digest() {
  if (!pending_.empty()) {
    hasher_.Update(pending_);
    pending_.clear();
  }
  return hasher_.Digest();
}

absl::Status GameLogWriter::Write(v1::LogRecord record,
                                  v1::LogRecord* written) {
  if (record.has_header() && records_written_ == 0) {
    format_ = record.header().format_version();
    if (format_ >= 3) writer_ = RecordWriter(sink_.get(), Framing::kCompact);
  }
  const bool compact = format_ >= 3;
  const bool last = record.has_final_result() || record.has_aborted();
  const int64_t now =
      record.unix_micros() != 0 ? record.unix_micros() : NowMicros();
  record.set_unix_micros(now);
  record.clear_signature();
  record.clear_micros_since_previous();
  if (record.has_header()) {
    record.clear_prev_hash();
    if (signing_key_ != nullptr) {
      record.mutable_header()->set_referee_public_key(
          signing_key_->public_key());
    }
  } else if (compact) {
    record.clear_unix_micros();
    record.set_micros_since_previous(now - last_micros_);
    if (LogChain::IsCheckpoint(records_written_, last)) {
      record.set_prev_hash(chain_.Digest());
    } else {
      record.clear_prev_hash();
    }
  } else {
    record.set_prev_hash(last_hash_);
  }
  // Format 3 stores an accepted action as the engine's action alone; the
  // typed form (and its notation) is put back for `written`.
  v1::Action typed;
  const bool derived_action = compact && record.has_action() &&
                              record.action().has_engine_action() &&
                              record.action().has_action();
  if (derived_action) {
    typed.Swap(record.mutable_action()->mutable_action());
    record.mutable_action()->clear_action();
  } else if (!compact && record.has_action()) {
    record.mutable_action()->clear_engine_action();
  }
  std::string& payload = payload_;  // its buffer is reused
  if (!record.SerializeToString(&payload)) {
    return absl::InternalError("could not serialise a log record");
  }
  if (signing_key_ != nullptr && last) {
    absl::StatusOr<std::string> signature =
        signing_key_->Sign(SignedMessage(payload));
    if (!signature.ok()) return signature.status();
    // Field 100 is serialised after every other field (proto field order),
    // so the signed payload is the unsigned one plus the signature field.
    record.set_signature(*signature);
    std::string signed_payload;
    absl::string_view prefix, sig;
    if (!record.SerializeToString(&signed_payload) ||
        !SplitSignature(signed_payload, &prefix, &sig) || prefix != payload) {
      return absl::InternalError(
          "the signature field is not serialised last in a LogRecord");
    }
    payload = std::move(signed_payload);
  }
  absl::Status st = writer_.AddRecord(payload);
  if (!st.ok()) return st;
  ++records_written_;
  last_micros_ = now;
  if (compact) {
    chain_.Add(payload);
  } else {
    last_hash_ = crypto::Sha256(payload);
  }
  unsynced_ = true;
  const bool sync = last || sync_policy_ == SyncPolicy::kEveryEvent ||
                    (sync_policy_ == SyncPolicy::kRound &&
                     record.has_round_result());
  // Synced before the caller tells anyone: a reported result is on disk.
  // The last record seals the sink: the same one sync, and nothing can
  // follow it. Its record reached the OS, so the game is over and its log
  // whole: a failed seal is Close's error (a finished game stays finished,
  // docs/operations.md), not this record's.
  if (sync && last) {
    seal_error_ = sink_->Seal();
    unsynced_ = false;
    sync_due_ = false;
  } else if (sync && defer_syncs_) {
    sync_due_ = true;
  } else if (sync) {
    RETURN_IF_ERROR(sink_->Sync());
    unsynced_ = false;
    sync_due_ = false;
  }
  if (written != nullptr) {
    if (derived_action) {
      record.mutable_action()->mutable_action()->Swap(&typed);
    }
    if (compact && !record.has_header()) record.set_unix_micros(now);
    *written = std::move(record);
  }
  return absl::OkStatus();
}

void GameLogWriter::ContinueAfter(const GameLog& log, uint64_t size) {
  if (log.records.empty()) return;
  format_ = log.has_header() ? log.header().format_version() : format_;
  records_written_ = static_cast<int64_t>(log.records.size());
  last_micros_ = log.records.back().unix_micros();
  writer_ = RecordWriter(sink_.get(), log.framing, size);
  if (format_ >= 3) {
    for (const std::string& payload : log.payloads) chain_.Add(payload);
  } else {
    last_hash_ = crypto::Sha256(log.payloads.back());
  }
}

absl::Status GameLogWriter::SyncDue() {
  if (!sync_due_) return absl::OkStatus();
  sync_due_ = false;
  unsynced_ = false;
  return sink_->Sync();
}

absl::Status GameLogWriter::Close() {
  absl::Status st = unsynced_ ? sink_->Sync() : seal_error_;
  absl::Status closed = sink_->Close();
  return st.ok() ? closed : st;
}

bool GameLog::finished() const {
  if (records.empty()) return false;
  const v1::LogRecord& last = records.back();
  return last.has_final_result() || last.has_aborted();
}

void ToStoredForm(v1::LogRecord* record) {
  record->clear_unix_micros();
  if (record->has_action() && record->action().has_engine_action()) {
    record->mutable_action()->clear_action();
  }
}

GameLog ParseGameLog(absl::string_view bytes, const ReadOptions& options) {
  RecordFile file = ParseRecords(bytes, options);
  GameLog log;
  log.framing = file.framing;
  log.end = file.end;
  log.damage_offset = file.damage_offset;
  log.damage = file.damage;
  log.file_size = file.file_size;
  bool compact_times = false;  // format 3: unix_micros from the deltas
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
    if (log.records.empty()) {
      compact_times = record.header().format_version() >= 3;
    } else if (compact_times) {
      record.set_unix_micros(log.records.back().unix_micros() +
                             record.micros_since_previous());
    }
    log.records.push_back(std::move(record));
    log.payloads.push_back(r.payload);
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
