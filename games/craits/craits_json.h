// Craits in the conformance transcripts' JSON (../shared/conformance/README.md).
#ifndef CARDREF_GAMES_CRAITS_CRAITS_JSON_H_
#define CARDREF_GAMES_CRAITS_CRAITS_JSON_H_

#include "analyzer/conformance/json_adapter.h"

#include <memory>

namespace cardref::craits {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter();

}  // namespace cardref::craits

#endif  // CARDREF_GAMES_CRAITS_CRAITS_JSON_H_
