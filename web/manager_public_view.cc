#include "web/manager_public_view.h"

#include <memory>

#include "absl/strings/str_cat.h"

namespace cardref::web {

absl::Status ManagerPublicView::CheckPublic(const std::string& match_id) const {
  absl::StatusOr<std::shared_ptr<service::Match>> match =
      manager_->Find(match_id);
  if (match.ok()) return manager_->CheckPublic(**match);
  if (!absl::IsFailedPrecondition(match.status())) return match.status();
  // Over and out of memory. A match the public may see always names its
  // game; the twin rule's answer is its id and status only.
  absl::StatusOr<v1::MatchInfo> info =
      manager_->Info(match_id, /*for_organiser=*/false);
  if (!info.ok()) return info.status();
  if (!info->game().empty()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "match ", match_id,
      " is dealt like other matches of its deal set that are not all over: "
      "its public events are shown once they are"));
}

}  // namespace cardref::web
