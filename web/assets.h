// The files the web front serves under /assets/: its own (web/assets/,
// compiled into the binary by embed_assets.cmake) and the replay page's
// style sheet and script (analyzer/log_tools/replay_page.h). Nothing is
// read from disk or the network.
#ifndef CARDREF_WEB_ASSETS_H_
#define CARDREF_WEB_ASSETS_H_

#include <cstddef>

#include "absl/strings/string_view.h"

namespace cardref::web {

struct EmbeddedAsset {
  const char* name;  // "live.js"
  const char* body;
};
extern const EmbeddedAsset kEmbeddedAssets[];
extern const size_t kEmbeddedAssetCount;

struct Asset {
  absl::string_view content_type;
  absl::string_view body;
};

// The asset called `name` ("live.js", "replay.css"); false if none.
bool FindAsset(absl::string_view name, Asset* asset);

}  // namespace cardref::web

#endif  // CARDREF_WEB_ASSETS_H_
