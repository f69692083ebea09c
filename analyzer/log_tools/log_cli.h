// The subcommands of cardref_log, as functions of their arguments and
// output streams (tools/log_main.cc parses flags and calls these). Exit
// codes as cardref_analyze's (analyzer/cli.h): 0 success, 1 some file is
// not OK (damaged, not a log, an import refused), 2 usage errors.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_CLI_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_CLI_H_

#include <ostream>
#include <string>
#include <vector>

#include "analyzer/log_tools/log_verify.h"
#include "games/api/registry.h"

namespace cardref::log_tools {

// cat FILE [--seat=N]: the text replay (log_text.h) on `out`. seat -1: the
// whole log.
int RunCat(const std::vector<std::string>& args, int seat,
           const GameRegistry& registry, std::ostream& out, std::ostream& err);

// json FILE: one JSON line per record (log_json.h). A damaged file: the
// intact records, then the fault on `err` and exit 1.
// Format 3 records are shown with what the format derives filled in
// (unixMicros, each action's typed form and notation).
int RunJson(const std::vector<std::string>& args, const GameRegistry& registry,
            std::ostream& out, std::ostream& err);

// from-json FILE.jsonl OUT: the binary log. OUT must not exist; nothing is
// written unless every line converts.
int RunFromJson(const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err);

// verify FILE|DIR...: one line per file (log_verify.h). `checks` are run on
// every file's records (reset between files by the caller's factory).
// The hash chain, signature and seed commitment are checked too
// (integrity_check.h), against `referee_key` (analyzer::ReadRefereeKey's
// input) when given.
int RunVerify(const std::vector<std::string>& args, std::ostream& out,
              std::ostream& err, const std::string& referee_key = "");

// head FILE: header and result (log_head.h).
int RunHead(const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err);

// html FILE -o PAGE.html [--seat=N]: the replay page (log_html.h). PAGE is
// replaced if it exists (it is output, not a log).
int RunHtml(const std::vector<std::string>& args, const std::string& page,
            int seat, const GameRegistry& registry, std::ostream& out,
            std::ostream& err);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_CLI_H_
