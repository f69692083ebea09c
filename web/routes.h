// The web front's addresses (docs/web.md): GET or HEAD only (anything else
// is 405: there is no organiser action over HTTP).
//
//   /                          the matches (HTML)
//   /matches/<id>              a match: live, then its replay
//   /api/matches               the matches (JSON; ?status=, ?page_token=,
//                              ?page_size=)
//   /api/matches/<id>          one match (JSON)
//   /api/matches/<id>/events   its public events (server-sent events;
//                              ?after=, Last-Event-ID, ?delay=)
//   /assets/<file>             scripts, style sheets, the icon
#ifndef CARDREF_WEB_ROUTES_H_
#define CARDREF_WEB_ROUTES_H_

#include <cstdint>
#include <string>

#include "referee/service/match_manager.h"
#include "web/feed_registry.h"
#include "web/http_server.h"
#include "web/public_match_view.h"
#include "web/sse_slots.h"

namespace cardref::web {

struct RoutesContext {
  service::MatchManager* manager = nullptr;
  const PublicMatchView* view = nullptr;
  FeedRegistry* feeds = nullptr;
  SseSlots* slots = nullptr;
  uint32_t delay_decisions = 0;  // the least delay of every stream
};

// Thread-safe; everything in the context outlives it.
class WebRoutes : public HttpHandler {
 public:
  explicit WebRoutes(RoutesContext context) : c_(context) {}
  HttpAnswer Handle(const HttpRequest& request) override;

 private:
  HttpAnswer Index(const HttpRequest& request);
  HttpAnswer Page(const std::string& match_id);
  HttpAnswer ApiList(const HttpRequest& request);
  HttpAnswer ApiMatch(const std::string& match_id);
  HttpAnswer Events(const std::string& match_id, const HttpRequest& request);
  HttpAnswer AssetFile(const std::string& name);
  // Whether the public may see the events of the match `info` (as the
  // manager shows it to the public) tells of.
  bool IsPublic(const v1::MatchInfo& info) const;

  RoutesContext c_;
};

// True for a string that may be a match id (letters, digits, '-', '_',
// '.', at most 128): anything else is not looked up.
bool IsMatchIdShaped(const std::string& id);

}  // namespace cardref::web

#endif  // CARDREF_WEB_ROUTES_H_
