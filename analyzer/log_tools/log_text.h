// cardref_log cat and head: a game log as text for people.
#ifndef CARDREF_ANALYZER_LOG_TOOLS_LOG_TEXT_H_
#define CARDREF_ANALYZER_LOG_TOOLS_LOG_TEXT_H_

#include <string>

#include "analyzer/log_tools/playback.h"
#include "cardref/v1/log.pb.h"

namespace cardref::log_tools {

// The replay, round by round: the header, each deal with the hands the
// viewer may see, every record numbered as in the file (record 0 is the
// header) with its effects, round results, the final result and how the
// file ends.
std::string RenderText(const Playback& transcript);

// The header in words: game, match, seats with player names and versions,
// parameters (by name), proof-of-deal fields when present.
std::string HeaderText(const v1::LogHeader& header);

// "parameters: a=1, b=SHORT, c=false" in name order (protobuf maps have no
// order of their own).
std::string ParamsText(const v1::GameParams& params);

}  // namespace cardref::log_tools

#endif  // CARDREF_ANALYZER_LOG_TOOLS_LOG_TEXT_H_
