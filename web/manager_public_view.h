// The referee's answer to PublicMatchView: the twin rule of its
// MatchManager (MatchManager::CheckPublic; docs/auth.md, "Twins").
#ifndef CARDREF_WEB_MANAGER_PUBLIC_VIEW_H_
#define CARDREF_WEB_MANAGER_PUBLIC_VIEW_H_

#include <string>

#include "absl/status/status.h"
#include "referee/service/match_manager.h"
#include "web/public_match_view.h"

namespace cardref::web {

// Thread-safe. The manager outlives it.
class ManagerPublicView : public PublicMatchView {
 public:
  explicit ManagerPublicView(service::MatchManager* manager)
      : manager_(manager) {}

  // A match in memory: MatchManager::CheckPublic. One over and out of
  // memory: what the manager shows the public of it (Info without the
  // organiser's rights is its id and status only while its deal set is
  // not done). NOT_FOUND for a match the referee does not know.
  absl::Status CheckPublic(const std::string& match_id) const override;

 private:
  service::MatchManager* const manager_;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_MANAGER_PUBLIC_VIEW_H_
