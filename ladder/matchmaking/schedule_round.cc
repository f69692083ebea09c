#include "ladder/matchmaking/schedule_round.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder {

absl::StatusOr<ScheduledRound> ScheduleNextRound(LadderStore& store,
                                                 Matchmaker& matchmaker,
                                                 int64_t game_id,
                                                 int64_t now_micros,
                                                 const SeedSource& new_seed) {
  ASSIGN_OR_RETURN(LadderConfig config, store.GetConfig());
  const LadderGame* game = nullptr;
  for (const LadderGame& g : config.games) {
    if (g.id == game_id) game = &g;
  }
  if (game == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("no ladder game with id ", game_id));
  }
  if (matchmaker.options().seats != game->players ||
      matchmaker.options().duplicate != config.duplicate) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the matchmaker is set for ", matchmaker.options().seats,
        " seats, duplicate=", matchmaker.options().duplicate, "; ",
        game->game, " has ", game->players, " and the ladder duplicate=",
        config.duplicate));
  }
  ASSIGN_OR_RETURN(std::vector<MatchmakingEntry> entries,
                   store.MatchmakingState(game_id));
  std::vector<Candidate> candidates;
  for (const MatchmakingEntry& entry : entries) {
    Candidate c;
    c.id = entry.version_id;
    c.mu = entry.mu;
    c.sigma = entry.sigma;
    c.games = entry.games;
    c.rounds_waited = entry.rounds_waited;
    c.seat_counts = entry.seat_counts;
    candidates.push_back(std::move(c));
  }
  ScheduledRound out;
  ASSIGN_OR_RETURN(out.round, store.NextRound(game_id));
  ASSIGN_OR_RETURN(out.picked, matchmaker.Next(candidates, out.round));
  out.deal_set =
      absl::StrFormat("%s%d-r%06d", game->game, game->players, out.round);
  std::vector<NewMatch> matches;
  std::string seed;
  for (const std::vector<int64_t>& seating : out.picked.seatings) {
    if (seed.empty() || !config.duplicate) {
      ASSIGN_OR_RETURN(seed, new_seed());
    }
    NewMatch match;
    match.game_id = game_id;
    match.kind = MatchKind::kRated;
    match.round = out.round;
    match.deal_set = out.deal_set;
    match.seed = seed;
    match.seat_versions = seating;
    matches.push_back(std::move(match));
  }
  ASSIGN_OR_RETURN(out.match_ids, store.ScheduleMatches(matches, now_micros));
  return out;
}

}  // namespace cardref::ladder
