#include "analyzer/game_units.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/render.h"
#include "analyzer/summary.h"
#include "games/all_games.h"

namespace cardref::analyzer {

CountedGames CountEachGameOnce(const std::vector<v1::GameSummary>& summaries) {
  CountedGames out;
  std::map<std::string, const v1::GameSummary*> first;  // digest -> counted
  for (const v1::GameSummary& s : summaries) {
    if (s.audit().verdict() != "OK") continue;
    if (!s.game_digest().empty()) {
      auto [it, inserted] = first.emplace(s.game_digest(), &s);
      if (!inserted) {
        v1::SetAside aside;
        aside.set_file(s.audit().file());
        aside.set_same_as(it->second->audit().file());
        out.set_aside.push_back(std::move(aside));
        continue;
      }
    }
    out.games.push_back(&s);
  }
  return out;
}

GameUnits AssignUnits(const std::vector<const v1::GameSummary*>& games) {
  GameUnits out;
  const bool deal_sets =
      std::any_of(games.begin(), games.end(), [](const v1::GameSummary* s) {
        return !s->deal_set_id().empty();
      });
  out.kind = deal_sets ? inference::UnitKind::kDealSet
                       : inference::UnitKind::kMatch;
  std::vector<std::string> keys;
  keys.reserve(games.size());
  for (const v1::GameSummary* s : games) {
    // A match is keyed by its game's digest where it has one, so that the
    // order of units (and a bootstrap's draws) does not depend on what the
    // logs are called.
    keys.push_back(!s->deal_set_id().empty()
                       ? absl::StrCat("d:", s->deal_set_id())
                   : !s->game_digest().empty()
                       ? absl::StrCat("g:", s->game_digest())
                       : absl::StrCat("f:", s->audit().file()));
  }
  std::map<std::string, int> index;
  for (const std::string& k : keys) index.emplace(k, 0);
  for (auto& [key, i] : index) i = out.count++;
  out.unit_of.reserve(keys.size());
  for (const std::string& k : keys) out.unit_of.push_back(index.at(k));
  return out;
}

std::string UnitName(inference::UnitKind kind) {
  return kind == inference::UnitKind::kDealSet ? "deal_set" : "match";
}

inference::MatchResult ToMatchResult(
    const v1::GameSummary& summary,
    const std::vector<std::string>& sorted_players) {
  inference::MatchResult match;
  const GameTraits& traits = ::cardref::TraitsOf(summary.game());
  const std::vector<int> teams =
      traits.teams ? traits.teams(summary.seats_size()) : std::vector<int>();
  for (int s = 0; s < summary.seats_size(); ++s) {
    const v1::SeatSummary& seat = summary.seats(s);
    inference::SeatResult r;
    const std::string key = PlayerKey(seat);
    auto it = std::lower_bound(sorted_players.begin(), sorted_players.end(),
                               key);
    if (it != sorted_players.end() && *it == key) {
      r.player = static_cast<int>(it - sorted_players.begin());
    }
    r.rank = seat.rank();
    r.team = s < static_cast<int>(teams.size()) ? teams[s] : -1;
    match.seats.push_back(r);
  }
  return match;
}

std::string SetAsideLine(
    const google::protobuf::RepeatedPtrField<v1::SetAside>& set_aside) {
  if (set_aside.empty()) return "";
  constexpr int kShown = 10;
  std::vector<std::string> pairs;
  for (int i = 0; i < set_aside.size() && i < kShown; ++i) {
    pairs.push_back(absl::StrCat(Sanitize(set_aside[i].file()), " = ",
                                 Sanitize(set_aside[i].same_as())));
  }
  if (set_aside.size() > kShown) {
    pairs.push_back(absl::StrCat("and ", set_aside.size() - kShown, " more"));
  }
  return absl::StrCat(set_aside.size(),
                      set_aside.size() == 1 ? " log" : " logs",
                      " set aside, each the same game as a log counted (deal, "
                      "seating and actions): ",
                      absl::StrJoin(pairs, "; "), "\n");
}

}  // namespace cardref::analyzer
