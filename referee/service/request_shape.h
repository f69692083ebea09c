// Checks on the shape of a request before anything acts on it: how many
// entries its repeated and map fields have (limits.h), that its free-text
// map keys and values obey text_limits.h, and that its enum fields hold
// values the schema names (proto3 keeps an unknown enum number as-is;
// fault_policy.action is checked with the rest of the policy).
#ifndef CARDREF_REFEREE_SERVICE_REQUEST_SHAPE_H_
#define CARDREF_REFEREE_SERVICE_REQUEST_SHAPE_H_

#include "absl/status/status.h"
#include "cardref/v1/referee.pb.h"

namespace cardref::service {

// INVALID_ARGUMENT naming the field and the limit or the expectation.
[[nodiscard]] absl::Status CheckCreateMatchShape(
    const v1::CreateMatchRequest& request);
[[nodiscard]] absl::Status CheckListMatchesShape(
    const v1::ListMatchesRequest& request);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_REQUEST_SHAPE_H_
