// KrassKariert in the conformance transcripts' JSON (../shared/conformance/README.md).
#ifndef CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_JSON_H_
#define CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_JSON_H_

#include "analyzer/conformance/json_adapter.h"

#include <memory>

namespace cardref::krass_kariert {

std::unique_ptr<conformance::GameJsonAdapter> MakeJsonAdapter();

}  // namespace cardref::krass_kariert

#endif  // CARDREF_GAMES_KRASS_KARIERT_KRASS_KARIERT_JSON_H_
