#include "referee/service/ops_log.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace cardref::service {
namespace {

const absl::Time kTs = absl::FromUnixMillis(1'800'000'000'123);

TEST(OpsLogTest, PlainValuesAreWrittenAsTheyAre) {
  EXPECT_EQ(FormatOpsLine(kTs, {{"event", "match_end"}, {"status", "OK"}}),
            "ts=2027-01-15T08:00:00.123Z event=match_end status=OK");
}

TEST(OpsLogTest, ValuesThatWouldSplitTheLineAreQuotedAndEscaped) {
  EXPECT_EQ(FormatOpsLine(kTs, {{"reason", "disk full: no space"},
                                {"empty", ""},
                                {"q", "say \"hi\"=\\"},
                                {"nl", "a\nb\tc\x01"}}),
            "ts=2027-01-15T08:00:00.123Z reason=\"disk full: no space\" "
            "empty=\"\" q=\"say \\\"hi\\\"=\\\\\" nl=\"a\\nb\\tc\\x01\"");
}

}  // namespace
}  // namespace cardref::service
