// Test support: real game logs, written by the referee's service layer
// (service::MatchManager) while random bots play, so tests audit exactly
// what the referee writes. Also helpers to take a log apart and re-frame it
// after tampering with a record. Test-only.
#ifndef CARDREF_ANALYZER_TESTING_TEST_LOGS_H_
#define CARDREF_ANALYZER_TESTING_TEST_LOGS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cardref/v1/log.pb.h"
#include "referee/base/ed25519.h"

namespace cardref::analyzer::testlogs {

struct RandomMatchOptions {
  std::string game = "craits";
  v1::GameParams params;  // as CreateMatch takes them (defaults filled in)
  uint64_t dealing_seed = 1;
  uint64_t bot_seed = 1;
  // Per seat; empty: "p0", "p1", ...
  std::vector<std::string> player_names;
  // Per decision, chances in 1/1000 that before answering the bots
  //   submit a well-formed action the engine refuses (INVALID_ARGUMENT);
  //   let another seat submit out of turn (FAILED_PRECONDITION);
  //   do not answer, so the referee's clock plays for the seat (a fault and
  //   a by_referee action).
  int illegal_per_mille = 0;
  int out_of_turn_per_mille = 0;
  int timeout_per_mille = 0;
  // Stop after this many accepted actions and shut the referee down, which
  // aborts the match; -1: play to the end.
  int stop_after_actions = -1;
};

// The fixed Ed25519 key (secret 32 bytes of 0x42) that signs every log
// PlayRandomMatch writes.
std::shared_ptr<const crypto::Ed25519PrivateKey> TestSigningKey();

// Plays one match to its end (or its abort) through a MatchManager logging
// into `log_dir` (which must exist), signed with TestSigningKey(), and
// returns the log's path.
absl::StatusOr<std::string> PlayRandomMatch(const std::string& log_dir,
                                            const RandomMatchOptions& options);

// A match played by PlayAndRead: its log's path and raw payloads.
struct PlayedLog {
  std::string path;
  std::vector<std::string> payloads;
};

// PlayRandomMatch into a fresh MakeTempDir(), then ReadPayloads of its log.
absl::StatusOr<PlayedLog> PlayAndRead(const RandomMatchOptions& options);

// Craits parameters for CreateMatch.
v1::GameParams CraitsParams(int num_players, bool short_game);

// A fresh empty directory under the test's temporary directory.
std::string MakeTempDir();

// The raw payloads of a log file, in order (every record intact).
absl::StatusOr<std::vector<std::string>> ReadPayloads(const std::string& path);
// Frames payloads again (record::FrameRecord) into a file image.
std::string Frame(const std::vector<std::string>& payloads);
v1::LogRecord ParseRecord(const std::string& payload);
std::string Serialize(const v1::LogRecord& record);

absl::Status WriteFile(const std::string& path, const std::string& bytes);

// Writes the payloads' records again through a GameLogWriter signed with
// TestSigningKey(): a fresh hash chain and signature, as if the referee
// itself had written the records in this shape (for tests of the replay's
// checks, which must hold whoever signed the log).
std::vector<std::string> Rechain(const std::vector<std::string>& payloads);
// The records of `payloads` as a reader sees them: times absolute, typed
// actions derived (codec::DeriveTypedActions).
std::vector<v1::LogRecord> ReadBack(const std::vector<std::string>& payloads);
// The payloads of a format 3 log as a format 2 referee would have written
// them: typed actions, absolute times, a prev_hash on every record, signed
// with TestSigningKey().
std::vector<std::string> AsFormat2(const std::vector<std::string>& payloads);
// The payloads as an older referee (format_version 1) would have written
// them: no commitment, key, chain, seed reveal or signature.
std::vector<std::string> AsFormat1(const std::vector<std::string>& payloads);
// Writes `payloads` framed to `path`, with refused submissions (status
// FAILED_PRECONDITION, which the audit does not judge, each `padding`
// bytes of message) inserted before the first action until the file holds
// at least `min_bytes`: a log that still audits OK, as large as wanted,
// written as it goes (never held in memory). Returns the file's size.
absl::StatusOr<uint64_t> WriteInflatedLog(
    const std::string& path, const std::vector<std::string>& payloads,
    uint64_t min_bytes, size_t padding = 4000);

// Which of the records TamperRecord's `match` accepts it changes.
enum class Pick { kFirst, kLast };

// Parses the first (or last) payload whose record `match` accepts, applies
// `change` to the record and serializes it back in place. Returns its index,
// -1 if no record matched (then `payloads` is unchanged).
int TamperRecord(std::vector<std::string>* payloads, Pick pick,
                 const std::function<bool(const v1::LogRecord&)>& match,
                 const std::function<void(v1::LogRecord&)>& change);

}  // namespace cardref::analyzer::testlogs

#endif  // CARDREF_ANALYZER_TESTING_TEST_LOGS_H_
