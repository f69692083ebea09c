#include "analyzer/conformance/json_util.h"

#include <cstdint>

#include "absl/strings/str_cat.h"

namespace cardref::conformance {

absl::Status BadActionField(absl::string_view game, absl::string_view field,
                            absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat(game, " action field '", field, "': ", why));
}

absl::StatusOr<std::string> ActionType(absl::string_view game,
                                       const nlohmann::json& a) {
  if (!a.is_object()) {
    return BadActionField(game, "", "an action must be a JSON object");
  }
  auto it = a.find("type");
  if (it == a.end() || !it->is_string()) {
    return BadActionField(game, "type", "missing or not a string");
  }
  return it->get<std::string>();
}

absl::StatusOr<int> IntField(absl::string_view game, const nlohmann::json& a,
                             const char* field, int max) {
  auto it = a.find(field);
  if (it == a.end()) return BadActionField(game, field, "missing");
  if (!it->is_number_integer()) {
    return BadActionField(game, field, "must be an integer");
  }
  const int64_t v = it->get<int64_t>();
  if (v < 0 || v > max) {
    return BadActionField(game, field,
                          absl::StrCat("must be in 0..", max, ", got ", v));
  }
  return static_cast<int>(v);
}

absl::StatusOr<bool> OptionalBoolField(absl::string_view game,
                                       const nlohmann::json& a,
                                       const char* field, bool absent) {
  auto it = a.find(field);
  if (it == a.end()) return absent;
  if (!it->is_boolean()) {
    return BadActionField(game, field, "must be a boolean");
  }
  return it->get<bool>();
}

}  // namespace cardref::conformance
