#include "referee/codec/logged_actions.h"

#include <memory>
#include <utility>
#include <vector>

#include "referee/codec/codec.h"
#include "games/all_games.h"

namespace cardref::codec {

int64_t DeriveTypedActions(record::GameLog* log, const GameRegistry& registry) {
  if (!log->has_header() || log->header().format_version() < 3) return 0;
  const v1::LogHeader& header = log->header();
  absl::StatusOr<std::unique_ptr<Game>> game =
      registry.Create(header.game(), ParamsFromProto(header.params()));
  if (!game.ok()) return 0;
  std::unique_ptr<State> state = (*game)->NewInitialState();
  int64_t derived = 0;
  std::vector<Card> order;
  for (size_t i = 1; i < log->records.size(); ++i) {
    v1::LogRecord& record = log->records[i];
    if (record.has_chance()) {
      if (!state->IsChance()) break;
      order.assign(record.chance().cards().begin(),
                   record.chance().cards().end());
      if (!state->ApplyChance(state->chance_kind(), order).ok()) break;
      continue;
    }
    if (!record.has_action()) continue;
    v1::ActionEvent& event = *record.mutable_action();
    if (!event.has_engine_action()) break;  // not a format 3 action
    if (state->node_type() != NodeType::kDecision ||
        event.seat() != state->current_seat()) {
      break;
    }
    const Action action = event.engine_action();
    if (!state->IsLegalAction(action)) break;
    if (!event.has_action()) {
      *event.mutable_action() = EncodeAction(*state, action);
      ++derived;
    }
    state->ApplyLegalAction(action);
  }
  return derived;
}

absl::StatusOr<record::GameLog> ReadGameLogWithActions(
    const std::string& path) {
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(path);
  if (log.ok()) DeriveTypedActions(&*log, AllGames());
  return log;
}

}  // namespace cardref::codec
