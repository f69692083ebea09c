#include "referee/service/request_shape.h"

#include "absl/strings/str_cat.h"
#include "referee/service/limits.h"
#include "referee/service/text_limits.h"

namespace cardref::service {

namespace {

// Parameter names are identifiers; enum values are short words.
constexpr size_t kMaxParamTextChars = 64;

absl::Status TooMany(absl::string_view field, int size, int limit) {
  return absl::InvalidArgumentError(absl::StrCat(
      "'", field, "' has ", size, " entries; this referee accepts at most ",
      limit, " (docs/limits.md)"));
}

}  // namespace

absl::Status CheckCreateMatchShape(const v1::CreateMatchRequest& request) {
  const int params = request.params().values_size();
  if (params > kMaxParamsEntries) {
    return TooMany("params.values", params, kMaxParamsEntries);
  }
  const int seats = request.seat_assignments_size();
  if (seats > kMaxSeatAssignments) {
    return TooMany("seat_assignments", seats, kMaxSeatAssignments);
  }
  for (const auto& [name, value] : request.params().values()) {
    if (absl::Status st = CheckText("params key", name, kMaxParamTextChars);
        !st.ok()) {
      return st;
    }
    if (value.value_case() == v1::ParamValue::kEnumValue) {
      if (absl::Status st = CheckText("params value", value.enum_value(),
                                      kMaxParamTextChars);
          !st.ok()) {
        return st;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckListMatchesShape(const v1::ListMatchesRequest& request) {
  if (!v1::MatchStatus_IsValid(request.status())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "status ", request.status(),
        " is not a MatchStatus this referee knows: give one of "
        "proto/cardref/v1/game.proto's values, or 0 for all"));
  }
  return absl::OkStatus();
}

}  // namespace cardref::service
