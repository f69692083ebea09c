// The log's integrity (hash chain, signature, seed commitment and deal
// orders: analyzer/integrity.h) as a check of `cardref_log verify`. It
// parses each record (the chain and the commitment live in fields) and
// hands it, with its exact payload, to an IntegrityChecker.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_INTEGRITY_CHECK_H_
#define CARDREF_ANALYZER_LOG_TOOLS_INTEGRITY_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "analyzer/integrity.h"
#include "analyzer/log_tools/log_verify.h"

namespace cardref::log_tools {

// One per file. Add never stops the walk (so a framing fault further on is
// still the file's first fault): a payload that is not a LogRecord is noted
// (problem()) and ends the checking; integrity findings are read after the
// walk.
class IntegrityCheck : public RecordCheck {
 public:
  explicit IntegrityCheck(const analyzer::IntegrityOptions& options)
      : checker_(options) {}

  [[nodiscard]] absl::Status Add(int64_t index, uint64_t offset,
                                 absl::string_view payload) override;
  [[nodiscard]] absl::Status Finish() override;

  // The first finding, once the walk is over (Finish, or a framing fault:
  // then call Finish yourself first).
  const analyzer::IntegrityFinding* first_finding() const {
    return checker_.first_finding();
  }
  // IntegrityChecker::Label(): "signed by the trusted key", "signed",
  // "unsigned", "no signed last record"...
  std::string Label() const { return checker_.Label(); }
  // A closing record (final result or abort notice) was seen: the record a
  // signed log's signature is on.
  bool ended() const { return ended_; }
  bool header_names_key() const { return checker_.header_names_key(); }
  // The last record seen: its index (-1: none), offset and kind.
  int64_t last_index() const { return last_index_; }
  uint64_t last_offset() const { return last_offset_; }
  absl::string_view last_kind() const { return last_kind_; }

  // The first record that is not a usable LogRecord, if any.
  struct Problem {
    int64_t index = -1;
    uint64_t offset = 0;
    std::string message;
  };
  const std::optional<Problem>& problem() const { return problem_; }

 private:
  analyzer::IntegrityChecker checker_;
  std::optional<Problem> problem_;
  bool finished_ = false;
  bool ended_ = false;
  int64_t last_index_ = -1;
  uint64_t last_offset_ = 0;
  absl::string_view last_kind_;  // RecordKindName: static storage
};

// Verifies `path` with an IntegrityCheck: framing and checksums first (the
// same first fault as the audit's framing check), then the hash chain,
// signature and seed (a TAMPERED fault at the first finding's record), then
// the end: intact records without a closing record are INCOMPLETE (the
// audit's verdict), never OK. A signed log's signature is on its closing
// record, so a log cut there is not verified, whatever key is trusted.
VerifyReport VerifyFileIntegrity(const std::string& path,
                                 const analyzer::IntegrityOptions& options);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_INTEGRITY_CHECK_H_
