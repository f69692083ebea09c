// The ladder's web front (docs/web.md, "Ladder pages"): served by
// `cardref_ladder run --http_port=P` beside its workers, or alone by
// `cardref_ladder serve`. It reads the ladder through a store connection of
// its own and the ladder's folder (logs, bots' output); it writes nothing.
#ifndef CARDREF_WEB_LADDER_LADDER_FRONT_H_
#define CARDREF_WEB_LADDER_LADDER_FRONT_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "games/api/registry.h"
#include "ladder/store/store.h"
#include "web/http_server.h"
#include "web/ladder/ladder_routes.h"

namespace cardref::web {

struct LadderFrontOptions {
  std::string db;  // as OpenStore takes it; the ladder must exist
  LadderRoutesOptions routes;  // the ladder's folder
  HttpServerOptions http;      // host, port (0: a free one), TLS
};

// Thread-safe. The registry outlives it.
class LadderFront {
 public:
  // FAILED_PRECONDITION for a store without a ladder; UNAVAILABLE if the
  // address cannot be bound.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<LadderFront>> Start(
      LadderFrontOptions options, const GameRegistry* registry);
  ~LadderFront();

  int port() const { return server_->port(); }
  bool tls() const { return server_->tls(); }
  void Stop() { server_->Stop(); }

 private:
  LadderFront() = default;
  std::unique_ptr<ladder::LadderStore> store_;
  std::unique_ptr<LadderRoutes> routes_;
  std::unique_ptr<HttpServer> server_;  // destroyed first
};

// Writes `port` and a line break to `path` (as --port_file); nothing for
// an empty path.
[[nodiscard]] absl::Status WritePortFile(const std::string& path, int port);

}  // namespace cardref::web

#endif  // CARDREF_WEB_LADDER_LADDER_FRONT_H_
