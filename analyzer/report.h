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

// 95% Wilson score interval of `successes` out of `trials` ([0, 1] when
// trials is 0).
v1::Interval WilsonInterval(int64_t successes, int64_t trials);

// Every file's audit, in order, with the files per verdict and per ending.
v1::AuditReportProto BuildAuditReport(
    const std::vector<v1::GameSummary>& summaries);

// Statistics over the logs that audit OK (the others are listed as
// skipped), per game, then per player (sorted by key), head to head, per
// seat, and the game-specific tables.
v1::StatsReportProto BuildStatsReport(
    const std::vector<v1::GameSummary>& summaries);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_REPORT_H_
