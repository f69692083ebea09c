// Kraken in the conformance transcripts' JSON (../shared/conformance/README.md).
#ifndef CARDREF_GAMES_KRAKEN_KRAKEN_JSON_H_
#define CARDREF_GAMES_KRAKEN_KRAKEN_JSON_H_

#include "analyzer/conformance/json_adapter.h"

#include <memory>

namespace cardref::kraken {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter();

}  // namespace cardref::kraken

#endif  // CARDREF_GAMES_KRAKEN_KRAKEN_JSON_H_
