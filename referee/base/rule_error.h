// Errors that name the rule they enforce.
//
// Every rejection of a move or a parameter set carries the ID of the rule
// that forbids it (e.g. "CR-4.1") at the start of its message, so a bot author
// can look it up in the spec. The referee maps the code to gRPC unchanged.
#ifndef CARDREF_REFEREE_BASE_RULE_ERROR_H_
#define CARDREF_REFEREE_BASE_RULE_ERROR_H_

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace cardref {

// An action that is well formed but not allowed now: "CR-4.1: <why>".
template <typename... Args>
[[nodiscard]] absl::Status IllegalAction(absl::string_view rule,
                                         const Args&... why) {
  return absl::InvalidArgumentError(absl::StrCat(rule, ": ", why...));
}

// A parameter set the spec does not allow: "KK-0.3: <why>".
template <typename... Args>
[[nodiscard]] absl::Status InvalidParameter(absl::string_view rule,
                                            const Args&... why) {
  return absl::InvalidArgumentError(absl::StrCat(rule, ": ", why...));
}

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_RULE_ERROR_H_
