// Reading the fields of a conformance action object
// (../shared/conformance/README.md), shared by the per-game JSON adapters:
// errors name the game and the field, e.g.
// "<game> action field 'card': must be in 0..51, got 52".
#ifndef CARDREF_ANALYZER_CONFORMANCE_JSON_UTIL_H_
#define CARDREF_ANALYZER_CONFORMANCE_JSON_UTIL_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace cardref::conformance {

// INVALID_ARGUMENT "<game> action field '<field>': <why>".
absl::Status BadActionField(absl::string_view game, absl::string_view field,
                            absl::string_view why);

// The "type" string of action `a`; an error unless `a` is an object with
// one.
absl::StatusOr<std::string> ActionType(absl::string_view game,
                                       const nlohmann::json& a);

// The integer `field` of `a`, which must be present and in 0..max.
absl::StatusOr<int> IntField(absl::string_view game, const nlohmann::json& a,
                             const char* field, int max);

// The boolean `field` of `a`; `absent` if `a` does not have it.
absl::StatusOr<bool> OptionalBoolField(absl::string_view game,
                                       const nlohmann::json& a,
                                       const char* field, bool absent);

}  // namespace cardref::conformance

#endif  // CARDREF_ANALYZER_CONFORMANCE_JSON_UTIL_H_
