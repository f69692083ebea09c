// What the reports count (docs/analyzer.md, "Independent units"): each
// distinct game once, and the independent units those games fall into.
//
// A game is identified by GameSummary.game_digest (the game, parameters,
// seating, chance events and actions): a log copied under another name,
// or a match that replayed another move for move, is one game. The first
// log of a game in the sorted summaries is counted, the others are set
// aside and listed, so a report stays a pure function of the sorted
// summaries (merged shards give the single run's report).
//
// Games of one deal set share their deals, so their results are dependent:
// the unit of every interval and test is the deal set when the logs carry
// one (duplicate play), else the match. Units are numbered in the order of
// their keys (deal set ids; for matches, their game digests, or file names
// without one), never by thread, input order or the logs' names.
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_GAME_UNITS_H_
#define CARDREF_ANALYZER_GAME_UNITS_H_

#include <string>
#include <vector>

#include "analyzer/inference/interval.h"
#include "analyzer/inference/paired.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

struct CountedGames {
  // The summaries that audit OK, each distinct game once, in input order.
  std::vector<const v1::GameSummary*> games;
  // The others of each game, with the one counted.
  std::vector<v1::SetAside> set_aside;
};

// Over summaries sorted by SortSummaries (report.h). Logs that do not
// audit OK are neither counted nor set aside (reports list them as
// skipped). A summary without a digest (a partial from before digests) is
// always counted.
CountedGames CountEachGameOnce(const std::vector<v1::GameSummary>& summaries);

struct GameUnits {
  inference::UnitKind kind = inference::UnitKind::kMatch;
  // unit_of[i]: the unit of games[i], 0 .. count - 1, numbered in the
  // order of the units' keys.
  std::vector<int> unit_of;
  int count = 0;
};

// The units of `games` (one game's summaries): deal sets when any log
// carries a deal_set_id (a log without one is then a unit of its own),
// else matches.
GameUnits AssignUnits(const std::vector<const v1::GameSummary*>& games);

// "deal_set" or "match", as the reports' JSON names a unit.
std::string UnitName(inference::UnitKind kind);

// The seats of a summary as the paired statistics see them: a player index
// in `sorted_players` (player keys, sorted; -1 if absent), the rank, and
// the team from GameTraits (-1 in a game without partnerships).
inference::MatchResult ToMatchResult(
    const v1::GameSummary& summary,
    const std::vector<std::string>& sorted_players);

// The "one line per report" account of the games set aside: "" for none,
// else "2 logs set aside: the same game as another log (deal, seating and
// actions): b.cardlog = a.cardlog; ...\n" (names sanitised).
std::string SetAsideLine(
    const google::protobuf::RepeatedPtrField<v1::SetAside>& set_aside);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_GAME_UNITS_H_
