// cardref_log head: a log's header and result, without replaying the game.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_HEAD_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_HEAD_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace cardref::log_tools {

// The header in words (log_text.h's HeaderText), the number of records and
// how the file ends, and the last record's result: the final result, the
// abort reason, or "no result" for an unfinished log. Reads the framing of
// every record but parses only the first and the last. INVALID_ARGUMENT if
// the first record is not a header.
[[nodiscard]] absl::StatusOr<std::string> HeadText(absl::string_view bytes);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_HEAD_H_
