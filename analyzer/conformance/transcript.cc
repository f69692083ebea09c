#include "analyzer/conformance/transcript.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace cardref::conformance {
namespace {

TranscriptReport SetupDifference(int line_number, std::string game_id,
                                 std::string subject, std::string detail) {
  TranscriptReport report;
  report.line = line_number;
  report.game_id = std::move(game_id);
  report.difference =
      Difference{Stage::kSetup, -1, std::move(subject), "", std::move(detail)};
  return report;
}

}  // namespace

TranscriptReport ReplayTranscript(absl::string_view line_json_text,
                                  int line_number, const GameSources& sources) {
  nlohmann::json transcript;
  // The parser reports by exception; its message names the column.
  try {
    transcript =
        nlohmann::json::parse(line_json_text.begin(), line_json_text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return SetupDifference(line_number, "", "malformed JSON", e.what());
  }
  if (!transcript.is_object()) {
    return SetupDifference(line_number, "", "transcript",
                           "the line is not a JSON object");
  }
  auto game = transcript.find("game");
  if (game == transcript.end() || !game->is_string()) {
    return SetupDifference(line_number, "", "game",
                           "no \"game\" string naming the game");
  }
  const std::string game_id = game->get<std::string>();
  absl::StatusOr<const GameInfo*> info = sources.games->Find(game_id);
  if (!info.ok()) {
    return SetupDifference(line_number, game_id, "game",
                           std::string(info.status().message()));
  }
  const GameJsonAdapter* adapter =
      sources.adapter ? sources.adapter(game_id) : nullptr;
  if (adapter == nullptr || adapter->game_id() != game_id) {
    return SetupDifference(
        line_number, game_id, "game",
        absl::StrCat("no JSON adapter for game '", game_id, "'"));
  }
  return ReplayGame(transcript, **info, *adapter, line_number);
}

int FileReport::num_ok() const {
  int n = 0;
  for (const TranscriptReport& g : games) n += g.ok();
  return n;
}

int FileReport::num_differ() const {
  return static_cast<int>(games.size()) - num_ok();
}

FileReport CheckFile(const std::string& path, const GameSources& sources) {
  FileReport report;
  report.path = path;
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    report.status = absl::InvalidArgumentError(
        absl::StrCat(path, ": is a directory, not a transcript file"));
    return report;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report.status = absl::NotFoundError(
        absl::StrCat(path, ": cannot open: ", std::strerror(errno)));
    return report;
  }
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    report.games.push_back(ReplayTranscript(line, line_number, sources));
  }
  if (in.bad()) {
    report.status = absl::DataLossError(
        absl::StrCat(path, ": read error after line ", line_number));
  } else if (report.games.empty()) {
    // Most likely a wrong path or an empty download: never a silent pass.
    report.status =
        absl::InvalidArgumentError(absl::StrCat(path, ": holds no game"));
  }
  return report;
}

std::string FormatGameLine(absl::string_view path,
                           const TranscriptReport& report) {
  if (report.ok()) {
    return absl::StrCat("OK ", path, ":", report.line, " ", report.game_id,
                        " (", report.decisions, " decisions)");
  }
  return absl::StrCat("DIFF ", path, ":", report.line, " ",
                      report.difference->ToString());
}

}  // namespace cardref::conformance
