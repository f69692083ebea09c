#include "tools/ladder_web.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "games/all_games.h"
#include "ladder/run/play_match.h"
#include "referee/base/status_macros.h"

namespace cardref::tools {

absl::StatusOr<std::unique_ptr<web::LadderFront>> StartLadderWeb(
    const LadderWebOptions& options) {
  if (options.port == -1) return nullptr;
  if (options.port < -1 || options.port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--http_port must be 0 to 65535 (or -1: none), got ", options.port));
  }
  ASSIGN_OR_RETURN(ladder::run::LadderPaths paths,
                   ladder::run::LadderFolder(options.db, options.dir));
  web::LadderFrontOptions front;
  front.db = options.db;
  front.routes.files.logs = paths.logs;
  front.routes.files.bots = paths.bots;
  front.http.host = options.host;
  front.http.port = options.port;
  ASSIGN_OR_RETURN(std::unique_ptr<web::LadderFront> started,
                   web::LadderFront::Start(front, &AllGames()));
  RETURN_IF_ERROR(web::WritePortFile(options.port_file, started->port()));
  std::printf("web: http://%s:%d/\n", options.host.c_str(), started->port());
  std::fflush(stdout);
  return started;
}

absl::Status ServeLadderWeb(const LadderWebOptions& options,
                            const std::atomic<bool>& stop) {
  if (options.port < 0) {
    return absl::InvalidArgumentError(
        "serve needs --http_port=P (0: a free port)");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<web::LadderFront> front,
                   StartLadderWeb(options));
  while (!stop.load()) absl::SleepFor(absl::Milliseconds(100));
  front->Stop();
  return absl::OkStatus();
}

}  // namespace cardref::tools
