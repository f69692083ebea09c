#include "ladder/run/refit.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "analyzer/inference/bradley_terry.h"
#include "analyzer/inference/rating_bootstrap.h"
#include "referee/base/status_macros.h"

namespace cardref::ladder::run {

absl::StatusOr<RefitComparison> RefitGame(LadderStore& store,
                                          const LadderGame& game,
                                          const RefitOptions& options) {
  ASSIGN_OR_RETURN(std::vector<MatchResult> results,
                   store.ListResults(game.id, MatchKind::kRated));
  // Deal sets group a duplicate group's seatings into one unit.
  std::map<int64_t, std::string> deal_set_of;
  ASSIGN_OR_RETURN(std::vector<Match> finished,
                   store.ListMatches(MatchState::kFinished));
  for (const Match& m : finished) deal_set_of[m.id] = m.deal_set;

  std::map<int64_t, int> player_of;  // version id -> index
  std::vector<int64_t> versions;
  auto index = [&](int64_t version) {
    auto [it, added] =
        player_of.emplace(version, static_cast<int>(versions.size()));
    if (added) versions.push_back(version);
    return it->second;
  };
  std::map<std::string, std::vector<inference::Comparison>> by_unit;
  for (const MatchResult& r : results) {
    // Sides: a team's seats together, or each seat alone.
    std::map<int, std::vector<const SeatResult*>> sides;
    for (const SeatResult& s : r.seats) {
      const int side = game.teams.empty() || s.seat >= static_cast<int>(
                                                           game.teams.size())
                           ? s.seat
                           : game.teams[s.seat];
      sides[side].push_back(&s);
    }
    std::vector<inference::Comparison>& unit =
        by_unit[deal_set_of.count(r.match_id) != 0
                    ? deal_set_of[r.match_id]
                    : absl::StrCat("m", r.match_id)];
    for (auto a = sides.begin(); a != sides.end(); ++a) {
      for (auto b = std::next(a); b != sides.end(); ++b) {
        inference::Comparison c;
        for (const SeatResult* s : a->second) c.a.push_back(index(s->version_id));
        for (const SeatResult* s : b->second) c.b.push_back(index(s->version_id));
        const int rank_a = a->second.front()->rank;
        const int rank_b = b->second.front()->rank;
        c.score = rank_a < rank_b ? 1.0 : rank_a == rank_b ? 0.5 : 0.0;
        unit.push_back(std::move(c));
      }
    }
  }
  std::vector<std::vector<inference::Comparison>> units;
  for (auto& [key, comparisons] : by_unit) {
    units.push_back(std::move(comparisons));
  }
  inference::BootstrapOptions bootstrap;
  bootstrap.resamples = options.resamples;
  bootstrap.seed = options.seed;
  const inference::RatingFit fit = inference::FitRatings(
      static_cast<int>(versions.size()), units, bootstrap);
  std::vector<BatchStanding> batch;
  for (size_t i = 0; i < versions.size(); ++i) {
    const inference::Estimate estimate =
        inference::PlayerRating(fit, static_cast<int>(i), {});
    BatchStanding standing;
    standing.player = absl::StrCat(versions[i]);
    standing.value = estimate.value.value_or(0);
    standing.low = estimate.ci.low.value_or(
        -std::numeric_limits<double>::infinity());
    standing.high =
        estimate.ci.high.value_or(std::numeric_limits<double>::infinity());
    batch.push_back(std::move(standing));
  }
  ASSIGN_OR_RETURN(std::vector<Rating> ratings, store.Ratings(game.id));
  std::vector<OnlineStanding> online;
  for (const Rating& r : ratings) {
    if (player_of.count(r.version_id) == 0) continue;
    online.push_back({absl::StrCat(r.version_id), r.mu, r.sigma});
  }
  return CompareWithBatch(online, batch, options.z);
}

}  // namespace cardref::ladder::run
