// The JSON adapters of every game, one factory per game (each defined in
// <game>_json.cc). FindJsonAdapter (json_adapter.h) serves them by game id.
#ifndef CARDREF_ANALYZER_CONFORMANCE_ADAPTERS_H_
#define CARDREF_ANALYZER_CONFORMANCE_ADAPTERS_H_

#include <memory>

#include "analyzer/conformance/json_adapter.h"

namespace cardref::conformance {

std::unique_ptr<GameJsonAdapter> NewCraitsJsonAdapter();
std::unique_ptr<GameJsonAdapter> NewKrassKariertJsonAdapter();
std::unique_ptr<GameJsonAdapter> NewKrakenJsonAdapter();

}  // namespace cardref::conformance

#endif  // CARDREF_ANALYZER_CONFORMANCE_ADAPTERS_H_
