// The reports printed: aligned text tables (the default), JSON through
// protobuf's JSON mapping, and CSV. Text and CSV escape control characters
// in every string taken from a log (Sanitize), so a bot named
// "x\n\x1b[31mOK" cannot forge a line or colour a terminal. JSON escapes
// them itself.
#ifndef CARDREF_ANALYZER_RENDER_H_
#define CARDREF_ANALYZER_RENDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "cardref/v1/analysis.pb.h"
#include "google/protobuf/message.h"

namespace cardref::analyzer {

enum class Format { kText, kJson, kCsv };

// `s` with backslash, C0 controls, DEL and the C1 controls (U+0080..U+009F)
// escaped C-style: "\\", "\n", "\r", "\t", "\x1b", "\xc2\x9b"; bytes of
// invalid UTF-8 as "\xNN" too. Characters that would fool a reader without
// being controls, bidirectional controls (U+202E reverses what follows),
// default-ignorable code points (U+200B is invisible) and the line and
// paragraph separators, as their code point: "\u202e". Other printable text
// is unchanged.
std::string Sanitize(absl::string_view s);

// "\u202e" (4 hex digits) or "\U0001f0cf" (8, past U+FFFF).
std::string CodePointEscape(int32_t cp);

// One CSV field (RFC 4180): sanitised, quoted when it holds a comma, quote
// or space at either end.
std::string CsvField(absl::string_view s);

// Characters (UTF-8 code points) of `s`: the columns it takes on a
// terminal for the text this analyzer prints (no wide or combining
// characters but those a log's names bring).
size_t DisplayWidth(absl::string_view s);

// A column of a text table: its title, and text left-aligned (numbers are
// right-aligned).
struct Column {
  std::string title;
  bool left = false;
};

// The analyzer's one text table: aligned columns separated by two spaces,
// a title row, no trailing blanks; widths in characters (DisplayWidth).
// Cells are sanitised already; each row has one cell per column.
std::string RenderTable(const std::vector<Column>& columns,
                        const std::vector<std::vector<std::string>>& rows);

// Protobuf's JSON mapping with the proto field names and every field
// printed (zeros included, and every unset `optional` field as null), so
// the keys are stable. `pretty`: indented and ending in a newline;
// otherwise one line (no newline).
std::string ToJson(const google::protobuf::Message& message, bool pretty);

// `audit`: text is one line per file ("OK <file> (<game>, <n> rounds, <m>
// records)" or "<VERDICT> <file>: <message>") and a last "summary:" line;
// JSON is one FileAudit object per line (JSON Lines); CSV has a header row
// and one row per file.
std::string RenderAudit(const v1::AuditReportProto& report, Format format);

// `stats`.
std::string RenderStats(const v1::StatsReportProto& report, Format format);

// The text report's list of logs left out, one audit line each; "" for
// none.
std::string SkippedSection(
    const google::protobuf::RepeatedPtrField<v1::FileAudit>& skipped);

}  // namespace cardref::analyzer

#endif  // CARDREF_ANALYZER_RENDER_H_
