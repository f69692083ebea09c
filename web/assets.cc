#include "web/assets.h"

#include "absl/strings/match.h"
#include "analyzer/log_tools/replay_page.h"

namespace cardref::web {
namespace {

absl::string_view ContentType(absl::string_view name) {
  if (absl::EndsWith(name, ".js")) return "text/javascript; charset=utf-8";
  if (absl::EndsWith(name, ".css")) return "text/css; charset=utf-8";
  if (absl::EndsWith(name, ".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

}  // namespace

bool FindAsset(absl::string_view name, Asset* asset) {
  if (name == "replay.js") {
    *asset = {ContentType(name), log_tools::kReplayPageScript};
    return true;
  }
  if (name == "replay.css") {
    *asset = {ContentType(name), log_tools::kReplayPageStyle};
    return true;
  }
  for (size_t i = 0; i < kEmbeddedAssetCount; ++i) {
    if (name == kEmbeddedAssets[i].name) {
      *asset = {ContentType(name), kEmbeddedAssets[i].body};
      return true;
    }
  }
  return false;
}

}  // namespace cardref::web
