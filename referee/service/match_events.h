// What each audience of a match's event stream may see of a log record.
//
// The organiser's stream (WatchMatchFull) carries every record as logged.
// The spectators' stream (WatchMatch) carries only what every seat may know
// when it happens: chance events keep their kind but lose their cards (the
// deck order is the secret of the deal; chance_cards says how many), rejected
// submissions are left out (a refused card can reveal a hand), and the hash
// chain and signature are dropped (the hash of a record that holds a deck
// order is derived from that order; the chain is checked on the full log),
// and so is the seed of a SeedReveal: a match dealt from the same seed may
// still be in play (GetMatch shows the seed once none is).
#ifndef CARDREF_REFEREE_SERVICE_MATCH_EVENTS_H_
#define CARDREF_REFEREE_SERVICE_MATCH_EVENTS_H_

#include <cstdint>
#include <optional>

#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"
#include "referee/service/match_journal.h"

namespace cardref::service {

// The event at `index` (1-based log position) for `audience`, or nullopt if
// that audience does not see this record at all.
std::optional<v1::MatchEvent> MakeMatchEvent(uint64_t index,
                                             const v1::LogRecord& record,
                                             Audience audience);

}  // namespace cardref::service

#endif  // CARDREF_REFEREE_SERVICE_MATCH_EVENTS_H_
