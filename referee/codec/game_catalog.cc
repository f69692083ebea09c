#include "referee/codec/game_catalog.h"

#include <string>

#include "referee/codec/codec.h"

namespace cardref::codec {
namespace {

v1::ParamInfo ParamInfoOf(const ParamSpec& spec) {
  v1::ParamInfo info;
  info.set_name(spec.name);
  switch (spec.type) {
    case ParamType::kBool:
      info.set_type("bool");
      break;
    case ParamType::kInt:
      info.set_type("integer");
      info.set_min(spec.min);
      info.set_max(spec.max);
      break;
    case ParamType::kEnum:
      info.set_type("enum");
      for (const std::string& v : spec.enum_values) info.add_enum_values(v);
      break;
  }
  GameParams one;
  one.Set(spec.name, spec.default_value);
  *info.mutable_default_value() = ParamsToProto(one).values().at(spec.name);
  info.set_rule(spec.rule);
  info.set_help(spec.help);
  return info;
}

}  // namespace

v1::ListGamesResponse GameCatalog(const GameRegistry& registry) {
  v1::ListGamesResponse response;
  for (const std::string& id : registry.Ids()) {
    const GameInfo* info = *registry.Find(id);
    v1::GameInfo* out = response.add_games();
    out->set_id(info->id);
    out->set_display_name(info->display_name);
    out->set_min_seats(info->min_seats);
    out->set_max_seats(info->max_seats);
    out->set_rules_version(info->rules_version);
    for (const ParamSpec& spec : info->params) {
      *out->add_params() = ParamInfoOf(spec);
    }
  }
  return response;
}

}  // namespace cardref::codec
