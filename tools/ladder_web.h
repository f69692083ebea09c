// The ladder's web front as cardref_ladder starts it: beside `run`'s
// workers with --http_port, or alone (`serve`). docs/web.md, "Ladder pages".
#ifndef CARDREF_TOOLS_LADDER_WEB_H_
#define CARDREF_TOOLS_LADDER_WEB_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "web/ladder/ladder_front.h"

namespace cardref::tools {

struct LadderWebOptions {
  std::string db;   // --db
  std::string dir;  // --dir: the ladder's folder (empty: <db>.d)
  std::string host = "127.0.0.1";
  int port = -1;  // -1: no front
  std::string port_file;
};

// The front, serving (it prints "web: http://HOST:PORT/" and writes the
// port file); nullptr when port is -1. INVALID_ARGUMENT for a port outside
// -1..65535.
[[nodiscard]] absl::StatusOr<std::unique_ptr<web::LadderFront>>
StartLadderWeb(const LadderWebOptions& options);

// Serves until `stop`; INVALID_ARGUMENT without a port.
[[nodiscard]] absl::Status ServeLadderWeb(const LadderWebOptions& options,
                                          const std::atomic<bool>& stop);

}  // namespace cardref::tools

#endif  // CARDREF_TOOLS_LADDER_WEB_H_
