// Typed game parameters: a schema per game (name, type, default, allowed
// values, rule ID) and a validated set of values.
//
// A GameParams handed to a Game is always complete: every parameter of the
// game's schema is present, defaults filled in, so a log records the whole
// configuration and a replay never depends on a default that later changed.
#ifndef CARDREF_GAMES_API_PARAMS_H_
#define CARDREF_GAMES_API_PARAMS_H_

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref {

// A parameter value: bool, integer, or an enum given by its spec name
// ("FULL", "CCW", ...).
using ParamValue = std::variant<bool, int64_t, std::string>;

enum class ParamType { kBool, kInt, kEnum };

std::string ParamValueToString(const ParamValue& value);

struct ParamSpec {
  std::string name;          // exactly as in the spec's parameter table
  ParamType type = ParamType::kInt;
  ParamValue default_value;  // may be overridden by a game's default hook
  int64_t min = 0;           // kInt only, inclusive
  int64_t max = 0;           // kInt only, inclusive
  std::vector<std::string> enum_values;  // kEnum only, in spec order
  std::string rule;          // rule ID that defines it, e.g. "CR-0.4"
  std::string help;          // one line for --help and docs

  static ParamSpec Bool(std::string name, bool def, std::string rule,
                        std::string help);
  static ParamSpec Int(std::string name, int64_t def, int64_t min, int64_t max,
                       std::string rule, std::string help);
  static ParamSpec Enum(std::string name, std::string def,
                        std::vector<std::string> values, std::string rule,
                        std::string help);

  // Checks type and range/allowed values of one value, naming `rule`.
  absl::Status Check(const ParamValue& value) const;
};

// An ordered name -> value map. Thread-compatible.
class GameParams {
 public:
  GameParams() = default;

  void Set(absl::string_view name, ParamValue value);
  bool Has(absl::string_view name) const;
  const std::map<std::string, ParamValue, std::less<>>& values() const {
    return values_;
  }

  // Typed getters. Precondition: the value is present and of that type (true
  // for any validated set, since validation checks the schema).
  bool GetBool(absl::string_view name) const;
  int64_t GetInt(absl::string_view name) const;
  const std::string& GetEnum(absl::string_view name) const;

  // "name=value,name=value" in name order; parsed by ParseParams.
  std::string ToString() const;

  bool operator==(const GameParams& other) const {
    return values_ == other.values_;
  }

 private:
  std::map<std::string, ParamValue, std::less<>> values_;
};

// The spec named `name` in `schema`, or nullptr.
const ParamSpec* FindParamSpec(const std::vector<ParamSpec>& schema,
                               absl::string_view name);

// The schema's names in schema order, "a, b, c": what a message about an
// unknown parameter lists.
std::string ParamNames(const std::vector<ParamSpec>& schema);

// Parses "a=1,b=true,c=FULL" against a schema (values typed by the schema).
// Unknown names are an error.
absl::StatusOr<GameParams> ParseParams(absl::string_view text,
                                       const std::vector<ParamSpec>& schema);

// Checks every given value against the schema (unknown name, wrong type,
// out of range) and fills the defaults of the missing ones. Cross-parameter
// constraints are the game's job (GameInfo::validate).
absl::StatusOr<GameParams> CompleteParams(const GameParams& given,
                                          const std::vector<ParamSpec>& schema,
                                          absl::string_view rule_for_unknown);

}  // namespace cardref

#endif  // CARDREF_GAMES_API_PARAMS_H_
