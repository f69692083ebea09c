// The integrity of a game log (docs/log_format.md, "Proof of the deal" and
// "Signed logs"): the hash chain, the referee's signature on the last
// record, the seed's commitment and every deck order derived from the
// revealed seed. Needs neither a replay nor the whole file: it is fed each
// record's exact payload bytes in file order and keeps only the previous
// record's hash and the chance events awaiting the seed reveal. Used by the
// audit (audit.h) and `cardref_log verify`.
//
// Logs of format_version 1 carry none of this: they are reported as
// unsigned, with no finding, unless a trusted key is given (then being
// unsigned is itself a finding: nothing proves who wrote the log).
#ifndef CARDREF_ANALYZER_INTEGRITY_H_
#define CARDREF_ANALYZER_INTEGRITY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "cardref/v1/log.pb.h"
#include "referee/base/sha256.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {

struct IntegrityOptions {
  // The referee public key the auditor trusts (32 bytes; cardref_analyze
  // audit --referee_key). Empty: signatures are checked against the key the
  // header names, which shows the log is unchanged since it was signed, but
  // not by whom.
  std::string trusted_public_key;
};

struct IntegrityFinding {
  int64_t record_index = -1;  // 0 = the header
  uint64_t byte_offset = 0;
  std::string record_kind;
  std::string message;
  // "record 12 at byte 3021 (action): prev_hash is not ...".
  std::string ToString() const;
};

// Not thread-safe.
class IntegrityChecker {
 public:
  explicit IntegrityChecker(IntegrityOptions options = {});

  // The next record of the log: the header (record 0) first, then every
  // record in file order, each with its payload exactly as framed.
  void Add(absl::string_view payload, uint64_t byte_offset,
           const v1::LogRecord& record);
  // After the last record: sorts the findings by record.
  void Finish();

  // What was found, in record order after Finish (at most one chain break:
  // the first).
  const std::vector<IntegrityFinding>& findings() const { return findings_; }
  const IntegrityFinding* first_finding() const {
    return findings_.empty() ? nullptr : &findings_.front();
  }

  // The header names a referee key and the last record's signature
  // verifies with it (and with the trusted key, if one was given).
  bool signature_verified() const { return signature_verified_; }
  bool trusted_key_verified() const {
    return signature_verified_ && !options_.trusted_public_key.empty();
  }
  // The header names a referee key: the log must end with a signed record.
  bool header_names_key() const {
    return format_version_ >= 2 && !header_key_.empty();
  }
  // The revealed seed matches the header's commitment.
  bool seed_verified() const { return seed_verified_; }
  // Chance events whose order the revealed seed derives.
  int deal_orders_verified() const { return deal_orders_verified_; }
  // For a report line: "signed by the trusted key", "signed" (a signature
  // verified), "unsigned" (no key in the header), "no signed last record"
  // (cut short or in play) or "signature NOT verified".
  std::string Label() const;
  // One sentence for people: what was verified and what could not be.
  std::string Summary() const;

 private:
  struct PendingChance {
    int64_t index;
    uint64_t offset;
    v1::ChanceKind kind;
    uint32_t round;
    uint32_t ordinal;
    std::vector<uint32_t> cards;
  };

  void AddHeader(const v1::LogHeader& header);
  void CheckLegacyRecord(const v1::LogRecord& record);
  // Format 3: a prev_hash exactly on the checkpoints, each the chain of
  // every payload before it.
  void CheckCheckpoint(const v1::LogRecord& record);
  void CheckSignature(absl::string_view payload, const v1::LogRecord& record);
  void CheckReveal(const v1::SeedReveal& reveal);
  void Report(std::string message);
  void ReportAt(const PendingChance& chance, std::string message);

  const IntegrityOptions options_;
  std::vector<IntegrityFinding> findings_;

  // The record being added.
  int64_t index_ = -1;
  uint64_t offset_ = 0;
  absl::string_view kind_;  // RecordKindName: static storage

  uint32_t format_version_ = 0;
  std::string header_key_;
  std::string commitment_;
  bool deal_algorithm_known_ = false;
  std::string last_hash_;       // SHA-256 of the previous payload
  crypto::Sha256Hasher chain_hasher_;  // reused: a fresh one per record costs
  record::LogChain chain_;             // format 3
  int64_t last_checkpoint_ = 0;        // format 3: the last that verified
  bool chain_broken_ = false;
  bool legacy_field_reported_ = false;
  bool signature_verified_ = false;
  bool seed_verified_ = false;
  int deal_orders_verified_ = 0;
  bool revealed_ = false;
  bool reveal_pending_ = false;  // the last record was the seed reveal
  bool ended_ = false;           // a final result or abort notice was added
  uint32_t round_ = 0;           // RoundResult records so far
  std::map<int, uint32_t> ordinals_;  // per ChanceKind, in round_
  std::vector<PendingChance> chances_;  // awaiting the seed reveal
};

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_INTEGRITY_H_
