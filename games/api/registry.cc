#include "games/api/registry.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace cardref {

absl::Status GameRegistry::Register(GameInfo info) {
  std::string id = info.id;
  if (!games_.emplace(id, std::move(info)).second) {
    return absl::AlreadyExistsError(
        absl::StrCat("game '", id, "' is registered twice"));
  }
  return absl::OkStatus();
}

absl::StatusOr<const GameInfo*> GameRegistry::Find(absl::string_view id) const {
  auto it = games_.find(id);
  if (it == games_.end()) {
    return absl::NotFoundError(absl::StrCat("unknown game '", id, "'; known: ",
                                            absl::StrJoin(Ids(), ", ")));
  }
  return &it->second;
}

absl::StatusOr<std::unique_ptr<Game>> GameRegistry::Create(
    absl::string_view id, const GameParams& params) const {
  absl::StatusOr<const GameInfo*> info = Find(id);
  if (!info.ok()) return info.status();
  return (*info)->create(params);
}

std::vector<std::string> GameRegistry::Ids() const {
  std::vector<std::string> ids;
  for (const auto& [id, info] : games_) ids.push_back(id);
  return ids;
}

}  // namespace cardref
