// The ladder's web front's addresses (docs/web.md, "Ladder pages"): GET or
// HEAD only.
//
//   /                         each game's leaderboard, the entrants
//   /entrants/<name>          an entrant: versions, rating history, recent
//                             games, faults by kind
//   /matches                  the recent matches
//   /matches/<id>             a match's replay, once its deal set is over
//   /api/standings            JSON of the same
//   /api/entrants
//   /api/entrants/<name>
//   /api/matches              (?limit=, 1 to 1000, default 100)
//   /api/matches/<id>
//   /api/matches/<id>/stderr  owner-only (Authorization: Bearer): its own
//   /api/matches/<id>/timings seats' output and per-move times; the log
//   /api/matches/<id>/log     once the match's deal set is over
//   /assets/<file>
#ifndef CARDREF_WEB_LADDER_LADDER_ROUTES_H_
#define CARDREF_WEB_LADDER_LADDER_ROUTES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "games/api/registry.h"
#include "ladder/store/store.h"
#include "web/http_server.h"
#include "web/ladder/ladder_view.h"

namespace cardref::web {

struct LadderRoutesOptions {
  LadderFiles files;
  int recent_matches = 30;  // on an entrant's page
  int fault_window = 20;    // logs read for an entrant's faults
  size_t max_stderr_bytes = size_t{256} << 10;  // the tail of each seat's output
};

// Thread-safe (the store is); the store and registry outlive it.
class LadderRoutes : public HttpHandler {
 public:
  LadderRoutes(ladder::LadderStore* store, const GameRegistry* registry,
               LadderRoutesOptions options)
      : store_(store), registry_(registry), options_(std::move(options)) {}
  HttpAnswer Handle(const HttpRequest& request) override;

 private:
  HttpAnswer Route(const HttpRequest& request);
  HttpAnswer ReplayPage(const LadderSnapshot& snapshot, int64_t match_id);
  HttpAnswer OwnerOnly(const HttpRequest& request,
                       const LadderSnapshot& snapshot, int64_t match_id,
                       const std::string& what);

  ladder::LadderStore* store_;
  const GameRegistry* registry_;
  LadderRoutesOptions options_;
};

}  // namespace cardref::web

#endif  // CARDREF_WEB_LADDER_LADDER_ROUTES_H_
