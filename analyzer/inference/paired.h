// Paired statistics for duplicate play (docs/analyzer.md, "Inference"):
// two players A and B compared within each independent unit (a deal set:
// the same deals played in several seatings, or a match without deal
// sets), so that the luck of the deal cancels inside the unit.
//
// A's outcome against B in one match is the mean, over the pairs (a seat
// of A, a seat of B) whose players are opponents and both ranked, of 1
// (A's seat finished ahead), 0.5 (level: the same rank) or 0 (behind);
// partners (seats of one team) are not head to head, and in a team game
// the rank of a seat is its team's result. A's outcome in a unit is the
// mean of its matches' outcomes (the matches where A and B meet). The
// unit outcomes are independent; their mean estimates A's expected
// score against B over deal sets, with a t interval over units.
//
// Pure functions; thread-safe.
#ifndef CARDREF_ANALYZER_INFERENCE_PAIRED_H_
#define CARDREF_ANALYZER_INFERENCE_PAIRED_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/inference/interval.h"

namespace cardref::inference {

// One seat of a finished match.
struct SeatResult {
  int player = -1;  // player index; < 0: no known player
  int rank = 0;     // finishing position, 1 first; equal ranks are level;
                    // 0: no result (not compared)
  int team = -1;    // seats with the same team >= 0 are partners; -1: alone
};

struct MatchResult {
  std::vector<SeatResult> seats;
};

// One independent unit: the matches of a deal set, or a single match.
using UnitResults = std::vector<MatchResult>;

struct OutcomeCounts {
  int64_t ahead = 0;
  int64_t level = 0;
  int64_t behind = 0;
};

// A's outcome against B in `match` (the mean above), or nullopt if no seat
// of A meets a seat of B as opponents with both ranked. Adds each compared
// seat pair to `pairs` when it is not null: these are exactly the counts
// of the stats report's head_to_head row of A against B.
std::optional<double> HeadToHead(const MatchResult& match, int a, int b,
                                 OutcomeCounts* pairs);

struct PairedComparison {
  UnitKind unit = UnitKind::kDealSet;
  // Per unit where A and B met, in input order: its index in the input,
  // A's mean outcome, and the outcome of each of its matches where they
  // met (variance_reduction.h reads these).
  std::vector<int> unit_index;
  std::vector<double> unit_outcomes;
  std::vector<std::vector<double>> match_outcomes;
  OutcomeCounts pairs;    // seat pairs, as stats' head_to_head counts them
  OutcomeCounts matches;  // matches, by their outcome against 1/2
  OutcomeCounts units;    // units, by their mean outcome against 1/2
  // The mean unit outcome, with its t interval over units (clipped to
  // [0, 1]).
  Estimate score;
  // The same on the logistic Elo scale, EloFromScore (bradley_terry.h):
  // the interval's bounds transformed (monotone). A score bound at 0 or 1
  // gives no Elo bound on that side, and a score of 0 or 1 no finite
  // value; the note says so.
  Estimate elo;
};

// Compares players a and b over `units` (they need not meet in every unit;
// units where they do not meet are left out).
PairedComparison ComparePaired(const std::vector<UnitResults>& units, int a,
                               int b, const IntervalOptions& options);

}  // namespace cardref::inference

#endif  // CARDREF_ANALYZER_INFERENCE_PAIRED_H_
