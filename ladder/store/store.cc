#include "ladder/store/store.h"

#include "absl/strings/str_cat.h"

namespace cardref::ladder {

absl::string_view VersionStatusName(VersionStatus status) {
  switch (status) {
    case VersionStatus::kValidating: return "validating";
    case VersionStatus::kRanked: return "ranked";
    case VersionStatus::kRejected: return "rejected";
    case VersionStatus::kRetired: return "retired";
  }
  return "unknown";
}

absl::string_view MatchStateName(MatchState state) {
  switch (state) {
    case MatchState::kScheduled: return "scheduled";
    case MatchState::kClaimed: return "claimed";
    case MatchState::kFinished: return "finished";
    case MatchState::kVoided: return "voided";
  }
  return "unknown";
}

absl::string_view MatchKindName(MatchKind kind) {
  switch (kind) {
    case MatchKind::kRated: return "rated";
    case MatchKind::kValidation: return "validation";
  }
  return "unknown";
}

absl::StatusOr<VersionStatus> ParseVersionStatus(absl::string_view name) {
  for (VersionStatus s : {VersionStatus::kValidating, VersionStatus::kRanked,
                          VersionStatus::kRejected, VersionStatus::kRetired}) {
    if (name == VersionStatusName(s)) return s;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown version status '", name,
      "' (validating, ranked, rejected, retired)"));
}

absl::Status CheckVersionTransition(const Version& version, VersionStatus to) {
  const VersionStatus from = version.status;
  const bool allowed =
      (from == VersionStatus::kValidating &&
       (to == VersionStatus::kRanked || to == VersionStatus::kRejected)) ||
      (from == VersionStatus::kRanked && to == VersionStatus::kRetired);
  if (!allowed) {
    return absl::FailedPreconditionError(absl::StrCat(
        "version ", version.id, " of ", version.entrant_name, " is ",
        VersionStatusName(from), "; it cannot become ",
        VersionStatusName(to),
        " (allowed: validating -> ranked | rejected, ranked -> retired)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<MatchState> ParseMatchState(absl::string_view name) {
  for (MatchState s : {MatchState::kScheduled, MatchState::kClaimed,
                       MatchState::kFinished, MatchState::kVoided}) {
    if (name == MatchStateName(s)) return s;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown match state '", name,
      "' (scheduled, claimed, finished, voided)"));
}

absl::StatusOr<MatchKind> ParseMatchKind(absl::string_view name) {
  for (MatchKind k : {MatchKind::kRated, MatchKind::kValidation}) {
    if (name == MatchKindName(k)) return k;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown match kind '", name, "' (rated, validation)"));
}

}  // namespace cardref::ladder
