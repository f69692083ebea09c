#include "analyzer/conformance/adapters.h"

#include <memory>
#include <vector>

namespace cardref::conformance {
namespace {

// Every adapter, created once. Each entry is guarded by the definition
// CMake sets when that game's <game>_json.cc exists
// (analyzer/conformance/CMakeLists.txt); the guards go away once all three
// games are in. To add a game, add its block:
//   #ifdef CARDREF_HAS_KRASS_KARIERT_JSON
//     adapters->push_back(NewKrassKariertJsonAdapter());
//   #endif
const std::vector<std::unique_ptr<GameJsonAdapter>>& Adapters() {
  static const auto* adapters = [] {
    auto* adapters = new std::vector<std::unique_ptr<GameJsonAdapter>>;
#ifdef CARDREF_HAS_CRAITS_JSON
    adapters->push_back(NewCraitsJsonAdapter());
#endif
#ifdef CARDREF_HAS_KRAKEN_JSON
    adapters->push_back(NewKrakenJsonAdapter());
#endif
#ifdef CARDREF_HAS_KRASS_KARIERT_JSON
    adapters->push_back(NewKrassKariertJsonAdapter());
#endif
    return adapters;
  }();
  return *adapters;
}

}  // namespace

const GameJsonAdapter* FindJsonAdapter(absl::string_view game_id) {
  for (const auto& adapter : Adapters()) {
    if (adapter->game_id() == game_id) return adapter.get();
  }
  return nullptr;
}

}  // namespace cardref::conformance
