#include "games/api/params.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace cardref {

std::string ParamValueToString(const ParamValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const int64_t* i = std::get_if<int64_t>(&value)) return absl::StrCat(*i);
  return std::get<std::string>(value);
}

namespace {

absl::string_view TypeName(ParamType type) {
  switch (type) {
    case ParamType::kBool:
      return "bool";
    case ParamType::kInt:
      return "integer";
    case ParamType::kEnum:
      return "enum";
  }
  return "?";
}

bool HasType(const ParamValue& value, ParamType type) {
  switch (type) {
    case ParamType::kBool:
      return std::holds_alternative<bool>(value);
    case ParamType::kInt:
      return std::holds_alternative<int64_t>(value);
    case ParamType::kEnum:
      return std::holds_alternative<std::string>(value);
  }
  return false;
}

}  // namespace

ParamSpec ParamSpec::Bool(std::string name, bool def, std::string rule,
                          std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kBool;
  s.default_value = def;
  s.rule = std::move(rule);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::Int(std::string name, int64_t def, int64_t min,
                         int64_t max, std::string rule, std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kInt;
  s.default_value = def;
  s.min = min;
  s.max = max;
  s.rule = std::move(rule);
  s.help = std::move(help);
  return s;
}

ParamSpec ParamSpec::Enum(std::string name, std::string def,
                          std::vector<std::string> values, std::string rule,
                          std::string help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::kEnum;
  s.default_value = std::move(def);
  s.enum_values = std::move(values);
  s.rule = std::move(rule);
  s.help = std::move(help);
  return s;
}

absl::Status ParamSpec::Check(const ParamValue& value) const {
  if (!HasType(value, type)) {
    return absl::InvalidArgumentError(
        absl::StrCat(rule, ": parameter '", name, "' must be a ",
                     TypeName(type), ", got '", ParamValueToString(value), "'"));
  }
  if (type == ParamType::kInt) {
    int64_t v = std::get<int64_t>(value);
    if (v < min || v > max) {
      return absl::InvalidArgumentError(
          absl::StrCat(rule, ": parameter '", name, "' must be in ", min, "..",
                       max, ", got ", v));
    }
  }
  if (type == ParamType::kEnum) {
    const std::string& v = std::get<std::string>(value);
    for (const std::string& allowed : enum_values) {
      if (v == allowed) return absl::OkStatus();
    }
    return absl::InvalidArgumentError(
        absl::StrCat(rule, ": parameter '", name, "' must be one of ",
                     absl::StrJoin(enum_values, ", "), ", got '", v, "'"));
  }
  return absl::OkStatus();
}

void GameParams::Set(absl::string_view name, ParamValue value) {
  values_[std::string(name)] = std::move(value);
}

bool GameParams::Has(absl::string_view name) const {
  return values_.find(name) != values_.end();
}

bool GameParams::GetBool(absl::string_view name) const {
  return std::get<bool>(values_.find(name)->second);
}

int64_t GameParams::GetInt(absl::string_view name) const {
  return std::get<int64_t>(values_.find(name)->second);
}

const std::string& GameParams::GetEnum(absl::string_view name) const {
  return std::get<std::string>(values_.find(name)->second);
}

std::string GameParams::ToString() const {
  return absl::StrJoin(values_, ",", [](std::string* out, const auto& kv) {
    absl::StrAppend(out, kv.first, "=", ParamValueToString(kv.second));
  });
}

const ParamSpec* FindParamSpec(const std::vector<ParamSpec>& schema,
                               absl::string_view name) {
  for (const ParamSpec& s : schema) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string ParamNames(const std::vector<ParamSpec>& schema) {
  return absl::StrJoin(schema, ", ", [](std::string* out, const ParamSpec& s) {
    out->append(s.name);
  });
}

absl::StatusOr<GameParams> ParseParams(absl::string_view text,
                                       const std::vector<ParamSpec>& schema) {
  GameParams params;
  if (absl::StripAsciiWhitespace(text).empty()) return params;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    absl::string_view name = absl::StripAsciiWhitespace(kv.first);
    absl::string_view raw = absl::StripAsciiWhitespace(kv.second);
    if (item.find('=') == absl::string_view::npos || name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("parameter '", item, "' is not of the form name=value"));
    }
    const ParamSpec* spec = FindParamSpec(schema, name);
    if (spec == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown parameter '", name, "'; known: ", ParamNames(schema)));
    }
    switch (spec->type) {
      case ParamType::kBool:
        if (raw == "true" || raw == "1") {
          params.Set(name, true);
        } else if (raw == "false" || raw == "0") {
          params.Set(name, false);
        } else {
          return absl::InvalidArgumentError(absl::StrCat(
              spec->rule, ": parameter '", name, "' must be true or false"));
        }
        break;
      case ParamType::kInt: {
        int64_t v;
        if (!absl::SimpleAtoi(raw, &v)) {
          return absl::InvalidArgumentError(absl::StrCat(
              spec->rule, ": parameter '", name, "' must be an integer"));
        }
        params.Set(name, v);
        break;
      }
      case ParamType::kEnum:
        params.Set(name, std::string(raw));
        break;
    }
  }
  return params;
}

absl::StatusOr<GameParams> CompleteParams(const GameParams& given,
                                          const std::vector<ParamSpec>& schema,
                                          absl::string_view rule_for_unknown) {
  for (const auto& [name, value] : given.values()) {
    if (FindParamSpec(schema, name) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(rule_for_unknown, ": unknown parameter '", name,
                       "'; known: ", ParamNames(schema)));
    }
  }
  GameParams complete;
  for (const ParamSpec& s : schema) {
    auto it = given.values().find(s.name);
    const ParamValue& v =
        it == given.values().end() ? s.default_value : it->second;
    if (absl::Status st = s.Check(v); !st.ok()) return st;
    complete.Set(s.name, v);
  }
  return complete;
}

}  // namespace cardref
