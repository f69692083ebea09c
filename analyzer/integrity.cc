#include "analyzer/integrity.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "analyzer/replay.h"
#include "referee/base/deal_stream.h"
#include "referee/base/ed25519.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "referee/record/game_log.h"

namespace cardref::analyzer {

namespace {

// Keys and hashes in messages: the full hex, so it can be compared with
// what the referee printed.
std::string Hex(absl::string_view bytes) {
  return bytes.empty() ? "(empty)" : ToHex(bytes);
}

}  // namespace

std::string IntegrityFinding::ToString() const {
  return absl::StrCat("record ", record_index, " at byte ", byte_offset, " (",
                      record_kind, "): ", message);
}

IntegrityChecker::IntegrityChecker(IntegrityOptions options)
    : options_(std::move(options)) {}

void IntegrityChecker::Report(std::string message) {
  IntegrityFinding f;
  f.record_index = index_;
  f.byte_offset = offset_;
  f.record_kind = std::string(kind_);
  f.message = std::move(message);
  findings_.push_back(std::move(f));
}

void IntegrityChecker::ReportAt(const PendingChance& chance,
                                std::string message) {
  IntegrityFinding f;
  f.record_index = chance.index;
  f.byte_offset = chance.offset;
  f.record_kind = "chance";
  f.message = std::move(message);
  findings_.push_back(std::move(f));
}

void IntegrityChecker::Add(absl::string_view payload, uint64_t byte_offset,
                           const v1::LogRecord& record) {
  ++index_;
  offset_ = byte_offset;
  kind_ = RecordKindName(record);
  if (index_ == 0) {
    if (record.has_header()) AddHeader(record.header());
    if (format_version_ >= 2 && !record.prev_hash().empty()) {
      Report("the header has a prev_hash; the chain starts at the header");
    }
  } else if (format_version_ < 2) {
    CheckLegacyRecord(record);
  } else {
    if (format_version_ >= 3) {
      CheckCheckpoint(record);
    } else if (!chain_broken_ && record.prev_hash() != last_hash_) {
      chain_broken_ = true;
      Report(absl::StrCat(
          "prev_hash ", Hex(record.prev_hash()),
          " is not the SHA-256 of record ", index_ - 1, "'s payload (",
          Hex(last_hash_),
          "): the log was changed at or before this record (a record "
          "edited, removed, inserted or moved)"));
    }
    if (reveal_pending_ && !record.has_final_result() && !record.has_aborted()) {
      Report("the seed reveal must be followed by the final result or the "
             "abort notice");
    }
    reveal_pending_ = false;
    switch (record.record_case()) {
      case v1::LogRecord::kChance: {
        if (revealed_) {
          Report("a chance event after the seed was revealed");
          break;
        }
        const int kind = static_cast<int>(record.chance().kind());
        PendingChance c;
        c.index = index_;
        c.offset = offset_;
        c.kind = record.chance().kind();
        c.round = round_;
        c.ordinal = ordinals_[kind]++;
        c.cards.assign(record.chance().cards().begin(),
                       record.chance().cards().end());
        chances_.push_back(std::move(c));
        break;
      }
      case v1::LogRecord::kRoundResult:
        ++round_;
        ordinals_.clear();
        break;
      case v1::LogRecord::kSeedReveal:
        CheckReveal(record.seed_reveal());
        reveal_pending_ = true;
        break;
      case v1::LogRecord::kFinalResult:
      case v1::LogRecord::kAborted:
        // A referee that restarted after a crash closes out the match
        // without its seed (it died with the process): docs/recovery.md.
        if (!revealed_ && !commitment_.empty() &&
            !(record.has_aborted() && record.aborted().cause() ==
                                          v1::ABORT_CAUSE_REFEREE_RESTARTED)) {
          Report("no seed reveal before the end: the deck orders cannot be "
                 "checked against the commitment");
        }
        CheckSignature(payload, record);
        ended_ = true;
        break;
      default:
        break;
    }
    if (!record.signature().empty() && !record.has_final_result() &&
        !record.has_aborted()) {
      Report(absl::StrCat("a signature on a ", kind_,
                          " record; only the last record is signed"));
    }
  }
  if (format_version_ >= 3) {
    chain_.Add(payload);  // a digest only at the checkpoints
  } else {
    chain_hasher_.Update(payload);
    last_hash_ = chain_hasher_.Finish();
  }
}

void IntegrityChecker::CheckCheckpoint(const v1::LogRecord& record) {
  if (chain_broken_) return;
  const bool last = record.has_final_result() || record.has_aborted();
  const bool checkpoint = record::LogChain::IsCheckpoint(index_, last);
  if (record.prev_hash().empty() && !checkpoint) return;  // most records
  const std::string since =
      last_checkpoint_ > 0
          ? absl::StrCat("after record ", last_checkpoint_,
                         ", the last checkpoint that verified")
          : "anywhere before it";
  if (record.prev_hash().empty()) {
    chain_broken_ = true;
    Report(last ? "the last record has no prev_hash: the signature does not "
                  "cover the records before it"
                : absl::StrCat("no prev_hash, but every ",
                               record::kChainCheckpointInterval,
                               "th record is a checkpoint of the chain: the "
                               "log was changed ",
                               since));
    return;
  }
  if (!checkpoint) {
    chain_broken_ = true;
    Report(absl::StrCat("a prev_hash on a record that is not a checkpoint "
                        "(every ",
                        record::kChainCheckpointInterval,
                        "th record and the last): records were removed or "
                        "inserted ",
                        since));
    return;
  }
  const std::string expected = chain_.Digest();
  if (record.prev_hash() != expected) {
    chain_broken_ = true;
    Report(absl::StrCat(
        "prev_hash ", Hex(record.prev_hash()),
        " is not the chain of records 0 to ", index_ - 1, " (", Hex(expected),
        "): the log was changed (a record edited, removed, inserted or "
        "moved) ",
        since));
    return;
  }
  last_checkpoint_ = index_;
}

void IntegrityChecker::AddHeader(const v1::LogHeader& header) {
  format_version_ = header.format_version();
  const std::string& trusted = options_.trusted_public_key;
  if (format_version_ < 2) {
    if (!trusted.empty()) {
      Report(absl::StrCat(
          "an unsigned log (format_version ", format_version_,
          "): nothing proves the trusted referee wrote it"));
    }
    if (!header.seed_commitment().empty() ||
        !header.referee_public_key().empty() ||
        !header.deal_algorithm().empty()) {
      legacy_field_reported_ = true;
      Report(absl::StrCat("a format_version ", format_version_,
                          " header with format 2 fields (seed_commitment, "
                          "referee_public_key or deal_algorithm): was "
                          "format_version rewritten?"));
    }
    return;
  }
  header_key_ = header.referee_public_key();
  commitment_ = header.seed_commitment();
  if (!header_key_.empty() &&
      header_key_.size() != crypto::kEd25519PublicKeySize) {
    Report(absl::StrCat("referee_public_key is ", header_key_.size(),
                        " bytes, not 32"));
  }
  if (header_key_.empty() && !trusted.empty()) {
    Report("an unsigned log (the header names no referee key): nothing "
           "proves the trusted referee wrote it");
  } else if (!trusted.empty() && header_key_ != trusted) {
    Report(absl::StrCat("signed with referee key ", Hex(header_key_),
                        ", not the trusted key ", Hex(trusted)));
  }
  if (commitment_.size() != crypto::kSha256Size) {
    Report(absl::StrCat("seed_commitment is ", commitment_.size(),
                        " bytes, not a SHA-256 (32)"));
  }
  deal_algorithm_known_ = header.deal_algorithm() == kDealAlgorithm;
  if (!deal_algorithm_known_) {
    Report(absl::StrCat("deal_algorithm '", header.deal_algorithm(),
                        "' is not ", kDealAlgorithm,
                        ": the deck orders cannot be re-derived"));
  }
}

void IntegrityChecker::CheckLegacyRecord(const v1::LogRecord& record) {
  if (legacy_field_reported_) return;
  const char* field = !record.prev_hash().empty()   ? "prev_hash"
                      : !record.signature().empty() ? "signature"
                      : record.has_seed_reveal()    ? "seed_reveal"
                                                    : nullptr;
  if (field == nullptr) return;
  legacy_field_reported_ = true;
  Report(absl::StrCat("a ", field, " in a format_version ", format_version_,
                      " log, which has none: was format_version rewritten?"));
}

void IntegrityChecker::CheckSignature(absl::string_view payload,
                                      const v1::LogRecord& record) {
  if (header_key_.empty()) {
    if (!record.signature().empty()) {
      Report("a signature, but the header names no referee key");
    }
    return;
  }
  if (record.signature().empty()) {
    Report("the last record is not signed, but the header names a referee "
           "key");
    return;
  }
  absl::string_view prefix, signature;
  if (!record::SplitSignature(payload, &prefix, &signature) ||
      signature != record.signature()) {
    Report("the signature is not the payload's last field (64 bytes, field "
           "100)");
    return;
  }
  const std::string message = record::SignedMessage(prefix);
  if (absl::Status st = crypto::VerifyEd25519(header_key_, message, signature);
      !st.ok()) {
    Report(absl::StrCat("the signature does not verify with the header's "
                        "referee key ",
                        Hex(header_key_), ": ", st.message()));
    return;
  }
  // The same key verifies the same signature the same way: a second check
  // would double the audit's costliest step per log. Another key
  // is checked, though a mismatch was reported at the header: a crafted key
  // can share valid signatures with another.
  const std::string& trusted = options_.trusted_public_key;
  if (!trusted.empty() && trusted != header_key_ &&
      !crypto::VerifyEd25519(trusted, message, signature).ok()) {
    return;  // reported at the header: another key
  }
  signature_verified_ = true;
}

void IntegrityChecker::CheckReveal(const v1::SeedReveal& reveal) {
  if (revealed_) {
    Report("a second seed reveal");
    return;
  }
  revealed_ = true;
  const std::string& seed = reveal.seed();
  if (seed.size() != kDealSeedSize) {
    Report(absl::StrCat("the revealed seed is ", seed.size(),
                        " bytes, not 32"));
    return;
  }
  const std::string hash = crypto::Sha256(seed);
  if (hash != commitment_) {
    // Orders derived from a seed nobody committed to prove nothing.
    Report(absl::StrCat("the revealed seed's SHA-256 is ", Hex(hash),
                        " but the header commits to ", Hex(commitment_),
                        "; the deck orders are not checked"));
    chances_.clear();
    return;
  }
  seed_verified_ = true;
  if (!deal_algorithm_known_) return;
  for (const PendingChance& c : chances_) {
    std::vector<uint32_t> derived = c.cards;
    DeriveDealOrder(seed,
                    ChanceLabel{static_cast<uint32_t>(c.kind), c.round,
                                c.ordinal},
                    absl::MakeSpan(derived));
    if (derived == c.cards) {
      ++deal_orders_verified_;
      continue;
    }
    size_t at = 0;
    while (derived[at] == c.cards[at]) ++at;
    ReportAt(c, absl::StrCat(
                    v1::ChanceKind_Name(c.kind), " order (round index ",
                    c.round, ", ordinal ", c.ordinal,
                    ") is not the one ", kDealAlgorithm,
                    " derives from the revealed seed: card ", at,
                    " is recorded as ", c.cards[at], ", derived ", derived[at]));
  }
  chances_.clear();
}

void IntegrityChecker::Finish() {
  std::stable_sort(findings_.begin(), findings_.end(),
                   [](const IntegrityFinding& a, const IntegrityFinding& b) {
                     return a.record_index < b.record_index;
                   });
}

std::string IntegrityChecker::Label() const {
  if (!header_names_key()) return "unsigned";
  if (trusted_key_verified()) return "signed by the trusted key";
  if (signature_verified_) return "signed";
  // A key in the header proves nothing until the signature on the closing
  // record verifies: a log cut short has none.
  return ended_ ? "signature NOT verified" : "no signed last record";
}

std::string IntegrityChecker::Summary() const {
  if (format_version_ < 2) {
    return absl::StrCat("unsigned: format_version ", format_version_,
                        " logs have no hash chain, commitment or signature");
  }
  std::string s;
  if (header_key_.empty()) {
    s = "unsigned (no referee key)";
  } else if (signature_verified_) {
    s = absl::StrCat("signature by ",
                     trusted_key_verified() ? "the trusted key " : "key ",
                     Hex(header_key_), " verified");
  } else {
    s = ended_ ? "signature NOT verified" : "no signed last record";
  }
  absl::StrAppend(&s, chain_broken_ ? "; hash chain BROKEN" : "; hash chain intact");
  if (seed_verified_) {
    absl::StrAppend(&s, "; seed matches its commitment; ",
                    deal_orders_verified_, " deck orders re-derived");
  } else if (!revealed_) {
    absl::StrAppend(&s, "; seed not revealed (deck orders not checked)");
  } else {
    absl::StrAppend(&s, "; seed does NOT match its commitment");
  }
  return s;
}

}  // namespace cardref::analyzer
