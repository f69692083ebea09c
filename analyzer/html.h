// `--html FILE`: the whole analysis as one self-contained HTML page with
// inline SVG charts (no script, no stylesheet or font from the network):
// per game a panel with the ratings and their intervals, score histograms
// per player, a head-to-head heat map, the player table and the seat
// effect; and the audit's verdicts.
#ifndef CARDREF_ANALYZER_HTML_H_
#define CARDREF_ANALYZER_HTML_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "cardref/v1/analysis.pb.h"

namespace cardref::analyzer {

// `s` with & < > " ' as character references.
std::string HtmlEscape(absl::string_view s);

std::string RenderHtml(const v1::AnalysisReport& report);

// Writes RenderHtml(report) to `path` (replacing it). Errors name the path.
[[nodiscard]] absl::Status WriteHtmlReport(const std::string& path,
                                           const v1::AnalysisReport& report);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_HTML_H_
