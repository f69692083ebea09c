// Intervals of the statistics core (analyzer/inference/interval.h) in the
// reports: to the Interval message, and back to text. A missing bound
// stays missing (null in JSON), with the note that says why. Also the one
// format of a plain number in the reports' text.
#ifndef CARDREF_ANALYZER_INTERVAL_PROTO_H_
#define CARDREF_ANALYZER_INTERVAL_PROTO_H_

#include <string>

#include "analyzer/inference/interval.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

// The interval of `estimate`, with its units; bounds scaled by `scale`.
v1::Interval ToIntervalProto(const inference::Estimate& estimate,
                             double scale = 1);

// Text for a table cell: "41.2..61.8", ">= 1712.3", "<= 1288.0", or
// "— (fewer than 5 deal sets (3))"; bounds multiplied by `scale` (100 for
// a percentage). The note is sanitised.
std::string FormatInterval(const v1::Interval& interval, int decimals,
                           double scale = 1);

// `value` with `decimals` digits after the point ("0.250").
std::string Fixed(double value, int decimals);

// A bound for CSV: the number, or an empty cell when there is none.
std::string CsvBound(bool has, double value, int decimals);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_INTERVAL_PROTO_H_
