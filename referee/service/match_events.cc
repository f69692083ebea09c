#include "referee/service/match_events.h"

namespace cardref::service {

std::optional<v1::MatchEvent> MakeMatchEvent(uint64_t index,
                                             const v1::LogRecord& record,
                                             Audience audience) {
  v1::MatchEvent event;
  event.set_index(index);
  if (audience == Audience::kOrganiser) {
    *event.mutable_record() = record;
    return event;
  }
  switch (record.record_case()) {
    case v1::LogRecord::kRejected:
    case v1::LogRecord::kRejectionsNotLogged:
      return std::nullopt;
    case v1::LogRecord::kChance: {
      v1::LogRecord* out = event.mutable_record();
      out->set_unix_micros(record.unix_micros());
      out->mutable_chance()->set_kind(record.chance().kind());
      event.set_chance_cards(record.chance().cards_size());
      return event;
    }
    default: {
      v1::LogRecord* out = event.mutable_record();
      *out = record;
      out->clear_prev_hash();
      out->clear_signature();
      // The seed can deal another match of the same seed (duplicate play)
      // still in progress: spectators get it from GetMatch, which withholds
      // it until every such match is over.
      if (out->has_seed_reveal()) out->mutable_seed_reveal()->clear_seed();
      return event;
    }
  }
}

}  // namespace cardref::service
