// The analyzer's reports as pure functions of the game summaries
// (summary.h). Callers sort the summaries first (SortSummaries), so a
// report does not depend on how the logs were split or in which order the
// threads finished: merged shards give exactly the single-run report.
#ifndef CARDREF_ANALYZER_REPORT_H_
#define CARDREF_ANALYZER_REPORT_H_

#include <cstdint>
#include <vector>

#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

// By file name (byte order), then by the summary's serialisation, so equal
// names (a file given twice) still sort deterministically.
void SortSummaries(std::vector<v1::GameSummary>* summaries);

// Every file's audit, in order, with the files per verdict and per ending.
v1::AuditReportProto BuildAuditReport(
    const std::vector<v1::GameSummary>& summaries);

// Statistics over the logs that audit OK (the others are listed as
// skipped), each distinct game once (game_units.h: copies are set aside
// and listed), per game, then per player (sorted by key), head to head,
// per seat with the test of "no seat advantage", and the game-specific
// tables. Rates carry 95% intervals clustered by the independent unit.
v1::StatsReportProto BuildStatsReport(
    const std::vector<v1::GameSummary>& summaries);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_REPORT_H_
