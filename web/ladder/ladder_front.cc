#include "web/ladder/ladder_front.h"

#include <cstdio>
#include <fstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ladder/store/open_store.h"
#include "referee/base/status_macros.h"

namespace cardref::web {

absl::StatusOr<std::unique_ptr<LadderFront>> LadderFront::Start(
    LadderFrontOptions options, const GameRegistry* registry) {
  std::unique_ptr<LadderFront> front(new LadderFront);
  ladder::OpenStoreOptions open;
  open.create = false;
  ASSIGN_OR_RETURN(front->store_, ladder::OpenStore(options.db, open));
  // A store without a ladder is a mistake of the caller's: said now.
  RETURN_IF_ERROR(front->store_->GetConfig().status());
  front->routes_ = std::make_unique<LadderRoutes>(
      front->store_.get(), registry, std::move(options.routes));
  ASSIGN_OR_RETURN(front->server_, HttpServer::Start(std::move(options.http),
                                                     front->routes_.get()));
  return front;
}

LadderFront::~LadderFront() {
  if (server_ != nullptr) server_->Stop();
  server_.reset();
}

absl::Status WritePortFile(const std::string& path, int port) {
  if (path.empty()) return absl::OkStatus();
  // Whole or absent: a reader polling the file never sees half a number.
  const std::string temp = absl::StrCat(path, ".tmp");
  std::ofstream out(temp);
  out << port << "\n";
  out.close();
  if (!out || std::rename(temp.c_str(), path.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

}  // namespace cardref::web
