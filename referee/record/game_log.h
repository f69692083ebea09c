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
#include "absl/strings/string_view.h"
#include "cardref/v1/log.pb.h"
#include "referee/base/ed25519.h"
#include "referee/base/sha256.h"
#include "referee/record/record_io.h"

namespace cardref::record {

// 3: compact framing, times as deltas, accepted actions as the engine's
// action only, the hash chain in checkpoints (docs/log_format.md, "Format
// 3"). 2: TFRecord framing, hash chain, seed commitment and reveal, signed
// last record. 1: none of these (unsigned logs). All three are audited.
inline constexpr uint32_t kLogFormatVersion = 3;
// Format 3: every record whose index is a multiple of this, and the last
// record, carries prev_hash (the chain's checkpoints).
inline constexpr int64_t kChainCheckpointInterval = 64;

// Format 3's chain: SHA-256 over every earlier payload, each preceded by
// its length as uint64le. Fed one payload at a time; hashed in blocks of
// a few KiB, since one hash call per small record costs more than the
// hashing.
class LogChain {
 public:
  void Add(absl::string_view payload);
  // The chain of every payload added so far: what a checkpoint's
  // prev_hash must be.
  std::string Digest();
  int64_t records() const { return records_; }
  // Whether record `index` (0 = the header) must carry prev_hash.
  static bool IsCheckpoint(int64_t index, bool last) {
    return index > 0 && (last || index % kChainCheckpointInterval == 0);
  }

 private:
  static constexpr size_t kBlock = 4096;
  crypto::Sha256Hasher hasher_;
  std::string pending_;  // added, not yet hashed
  int64_t records_ = 0;
};

// Signed logs (docs/log_format.md, "Signed logs"): the last record's
// signature is LogRecord field 100, serialised last, so its payload is
//   prefix | kSignatureFieldTag | 64 signature bytes
// and the signature is over SignedMessage(prefix) =
//   "cardref-log-signature-v1" 0x00 prefix.
inline constexpr char kSignatureDomain[] = "cardref-log-signature-v1";
// Field 100, wire type 2 (varint 0xa2 0x06), then the length 64.
inline constexpr char kSignatureFieldTag[] = "\xa2\x06\x40";
inline constexpr size_t kSignatureFieldTagSize = 3;

std::string SignedMessage(absl::string_view prefix);
// Splits a signed payload into the signed prefix and the signature. False
// if the payload does not end with a 64-byte signature field.
bool SplitSignature(absl::string_view payload, absl::string_view* prefix,
                    absl::string_view* signature);

struct GameLog;

// When a log writer fdatasyncs (cardref_referee --log_sync). Every record
// reaches the OS (write(2)) before Write returns whatever the policy; the
// policy decides what survives a crash of the machine, not of the referee.
enum class SyncPolicy {
  kEveryEvent,  // after every record
  kRound,       // after every round result and the last record (default)
  kEnd,         // after the last record (final result or abort notice) only
};
// "event", "round" or "end"; INVALID_ARGUMENT naming them otherwise.
absl::StatusOr<SyncPolicy> ParseSyncPolicy(absl::string_view name);

// Appends LogRecords to a sink, each flushed to the OS as it is written, so
// a referee crash loses at most the record being written (a torn tail).
// The header's format_version decides the form:
//   3: compact framing; every record after the header stores
//      micros_since_previous instead of unix_micros; an ActionEvent with
//      engine_action stores no typed action (it is derived); prev_hash on
//      the checkpoints (LogChain).
//   2: TFRecord framing; every record after the header carries prev_hash,
//      the SHA-256 of the previous record's payload; engine_action is not
//      stored.
// Not thread-safe.
class GameLogWriter {
 public:
  // With a signing key, the header record gets its public key
  // (referee_public_key) and the last record (final_result or aborted) its
  // signature; without one the log is chained but unsigned.
  explicit GameLogWriter(
      std::unique_ptr<WritableSink> sink,
      std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key = nullptr);

  // Creates `path` (never overwrites) and writes `header` as record 0.
  static absl::StatusOr<std::unique_ptr<GameLogWriter>> Create(
      const std::string& path, const v1::LogHeader& header,
      std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key = nullptr);

  // Stamps unix_micros if unset, sets prev_hash (and the header's key, the
  // last record's signature), then appends. Any prev_hash or signature
  // the caller set is replaced. `written`, if given, receives the record
  // once it is written, as a reader sees it: unix_micros absolute and the
  // typed action kept (format 3 stores neither). The last record
  // (final_result or aborted) seals the sink (WritableSink::Seal): nothing
  // can be written after it, and if the seal fails once the record was
  // appended, Close returns that error.
  [[nodiscard]] absl::Status Write(v1::LogRecord record,
                                   v1::LogRecord* written = nullptr);
  // Syncs to disk (fdatasync) and closes; the error of a failed seal.
  [[nodiscard]] absl::Status Close();
  int64_t records_written() const { return records_written_; }
  uint64_t bytes_written() const { return writer_.bytes_written(); }
  // After a failed Write: RecordWriter::DropTornTail.
  [[nodiscard]] absl::Status DropTornTail() { return writer_.DropTornTail(); }
  // The closing records come next: WritableSink::UseClosingReserve.
  void UseClosingReserve() { sink_->UseClosingReserve(); }

  void set_sync_policy(SyncPolicy policy) { sync_policy_ = policy; }
  // While deferred, a sync the policy calls for (other than the last
  // record's seal) is left due instead of done in Write: the caller must
  // SyncDue before it tells anyone of the records (a referee thread that
  // serves the network must not wait for the disk).
  void set_defer_syncs(bool defer) { defer_syncs_ = defer; }
  bool sync_due() const { return sync_due_; }
  // The due sync, if any (fdatasync).
  [[nodiscard]] absl::Status SyncDue();
  // Appending to an existing log (recovery): `log` is what the file holds,
  // every record intact, and the file is `size` bytes (cut to the end of
  // its last record). The next record chains to them.
  void ContinueAfter(const GameLog& log, uint64_t size);

 private:
  std::unique_ptr<WritableSink> sink_;
  RecordWriter writer_;
  const std::shared_ptr<const crypto::Ed25519PrivateKey> signing_key_;
  uint32_t format_ = kLogFormatVersion;  // the header's
  std::string last_hash_;  // format 2: SHA-256 of the last payload written
  std::string payload_;    // Write's, kept for its buffer
  LogChain chain_;         // format 3
  int64_t last_micros_ = 0;  // unix_micros of the last record written
  int64_t records_written_ = 0;
  SyncPolicy sync_policy_ = SyncPolicy::kRound;
  bool unsynced_ = false;  // records written since the last Sync
  bool defer_syncs_ = false;
  bool sync_due_ = false;  // the policy's sync, deferred
  absl::Status seal_error_;  // the last record's seal, for Close
};

// A log as read back. records[0] is the header record when the file has one.
// In a format 3 log every record's unix_micros is filled in from the
// header's and the deltas (micros_since_previous stays as stored); the
// typed actions are not (codec::DeriveTypedActions derives them).
struct GameLog {
  Framing framing = Framing::kTfRecord;
  std::vector<v1::LogRecord> records;
  // Each record's payload exactly as framed: what the hash chain and the
  // signature cover (analyzer/integrity.h).
  std::vector<std::string> payloads;
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

// A record of a format 3 log (not its header) as read, with what it
// derives removed again, as the referee stores it: unix_micros, and the
// typed action of an ActionEvent that has engine_action.
void ToStoredForm(v1::LogRecord* record);

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
