#include "analyzer/log_tools/log_head.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "analyzer/log_tools/log_text.h"
#include "analyzer/log_tools/playback.h"
#include "analyzer/render.h"
#include "cardref/v1/log.pb.h"
#include "referee/record/record_io.h"

namespace cardref::log_tools {

absl::StatusOr<std::string> HeadText(absl::string_view bytes) {
  absl::string_view first, last;
  int64_t count = 0;
  const record::RecordFile framing =
      record::ScanRecords(bytes, [&](uint64_t, absl::string_view payload) {
        if (count++ == 0) first = payload;
        last = payload;
        return true;
      });
  v1::LogRecord header;
  if (count == 0 ||
      !header.ParseFromArray(first.data(), static_cast<int>(first.size())) ||
      !header.has_header()) {
    return absl::InvalidArgumentError(
        count == 0 ? absl::StrCat("no intact record: ", framing.damage.empty()
                                                            ? "empty file"
                                                            : framing.damage)
                   : std::string("the first record is not a log header"));
  }
  std::string out = HeaderText(header.header());
  std::string end = "complete";
  if (framing.end == record::FileEnd::kTornTail) end = "torn tail";
  if (framing.end == record::FileEnd::kCorrupt) end = "corrupt";
  absl::StrAppend(
      &out, "records: ", count, " intact, file ", end,
      framing.damage.empty() ? "" : absl::StrCat(": ", framing.damage), "\n");
  v1::LogRecord tail;
  if (count < 2 ||
      !tail.ParseFromArray(last.data(), static_cast<int>(last.size()))) {
    absl::StrAppend(&out, "result: none (the last record is not a result)\n");
    return out;
  }
  if (tail.has_aborted()) {
    absl::StrAppend(&out, "result: aborted: ",
                    analyzer::Sanitize(tail.aborted().reason()), "\n");
  } else if (tail.has_final_result()) {
    const v1::FinalResult& r = tail.final_result();
    std::vector<std::string> parts;
    parts.reserve(r.scores_size());
    for (int s = 0; s < r.scores_size(); ++s) {
      parts.push_back(absl::StrCat(
          SeatName(header.header(), s), " ", r.scores(s),
          s < r.ranks_size() ? absl::StrCat(" (rank ", r.ranks(s), ")") : ""));
    }
    std::vector<std::string> winners;
    for (int w : r.winners()) winners.push_back(SeatName(header.header(), w));
    absl::StrAppend(&out, "result: ", absl::StrJoin(parts, ", "), "\n",
                    "winners: ",
                    winners.empty() ? std::string("none (a draw)")
                                    : absl::StrJoin(winners, ", "),
                    "\n");
    if (!tail.signature().empty()) {
      absl::StrAppend(&out, "signature: ", tail.signature().size(),
                      " bytes on the last record\n");
    }
  } else {
    absl::StrAppend(&out, "result: none (the game did not finish)\n");
  }
  return out;
}

}  // namespace cardref::log_tools
