// The one question the web front asks about a match before it shows anyone
// more than its id and status: may the public see its events now?
//
// The referee answers it with the twin rule of duplicate play
// (ManagerPublicView, manager_public_view.h: until every match of a deal
// set is over, nothing about one of them but its id and status reaches
// anyone but the organiser). The web front asks it for every page, API
// answer and event stream of a match: a match it says no to is shown by id
// and status only, and its event stream is refused (403, with the reason).
#ifndef CARDREF_WEB_PUBLIC_MATCH_VIEW_H_
#define CARDREF_WEB_PUBLIC_MATCH_VIEW_H_

#include <string>

#include "absl/status/status.h"

namespace cardref::web {

// Thread-safe; called on the web front's threads, several at once, with no
// lock of the web front held.
class PublicMatchView {
 public:
  virtual ~PublicMatchView() = default;
  // OK: the public may see the match's events. FAILED_PRECONDITION with a
  // message a person can read: not yet. Other errors (NOT_FOUND...) as the
  // referee gives them.
  [[nodiscard]] virtual absl::Status CheckPublic(
      const std::string& match_id) const = 0;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_PUBLIC_MATCH_VIEW_H_
