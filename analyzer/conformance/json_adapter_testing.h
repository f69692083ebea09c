// Test support for the per-game JSON adapters (json_adapter.h). Test-only
// (uses GoogleTest assertions).
#ifndef CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_TESTING_H_
#define CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_TESTING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analyzer/conformance/json_adapter.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "games/api/game.h"

namespace cardref::conformance::adapter_testing {

// The error message of ActionFromJson on JSON `text`; "ok" if it parses.
inline std::string ActionError(const GameJsonAdapter& adapter,
                               const char* text) {
  absl::StatusOr<Action> a =
      adapter.ActionFromJson(nlohmann::json::parse(text));
  return a.ok() ? std::string("ok") : std::string(a.status().message());
}

// Every legal action of `state` goes to JSON and back unchanged; adds their
// number to *checked.
inline void ExpectLegalActionsRoundTrip(const GameJsonAdapter& adapter,
                                        const State& state, int* checked) {
  ActionList legal;
  state.LegalActions(legal);
  for (Action a : legal) {
    absl::StatusOr<Action> back =
        adapter.ActionFromJson(adapter.ActionToJson(a));
    ASSERT_TRUE(back.ok()) << adapter.ActionToJson(a).dump();
    ASSERT_EQ(*back, a);
    ++*checked;
  }
}

// The keys of a JSON object, in its (sorted) order.
inline std::vector<std::string> Keys(const nlohmann::json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) {
    keys.push_back(it.key());
  }
  return keys;
}

}  // namespace cardref::conformance::adapter_testing

#endif  // CARDREF_ANALYZER_CONFORMANCE_JSON_ADAPTER_TESTING_H_
