#include "web/ladder/ladder_routes.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "analyzer/log_tools/playback.h"
#include "ladder/tools/entrant_credential.h"
#include "nlohmann/json.hpp"
#include "referee/codec/logged_actions.h"
#include "referee/record/game_log.h"
#include "web/http_answers.h"
#include "web/ladder/ladder_pages.h"
#include "web/pages.h"

namespace cardref::web {
namespace {

using nlohmann::json;

constexpr int kDefaultApiMatches = 100;
constexpr int kMaxApiMatches = 1000;
constexpr int kPageMatches = 100;

std::optional<int64_t> MatchId(absl::string_view text) {
  int64_t id = 0;
  if (text.empty() || text.size() > 18 || !absl::SimpleAtoi(text, &id) ||
      id <= 0) {
    return std::nullopt;
  }
  return id;
}

HttpAnswer HtmlError(int status, const std::string& text) {
  return HtmlAnswer(status, MessagePage(status == 404 ? "Not found" : "Error",
                                        text));
}

HttpAnswer Unauthenticated(absl::string_view message) {
  HttpAnswer a = JsonErrorAnswer(401, message);
  a.response.headers.emplace_back("WWW-Authenticate",
                                  "Bearer realm=\"cardref ladder\"");
  return a;
}

// The last `max` bytes of a file; nullopt if it cannot be read.
std::optional<std::string> Tail(const std::string& path, size_t max,
                                bool* truncated) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  const std::streamoff size = in.tellg();
  const std::streamoff start =
      size > static_cast<std::streamoff>(max) ? size - static_cast<std::streamoff>(max) : 0;
  *truncated = start > 0;
  in.seekg(start);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace

HttpAnswer LadderRoutes::Handle(const HttpRequest& request) {
  if (!IsReadMethod(request.method)) return MethodNotAllowed();
  return Route(request);
}

HttpAnswer LadderRoutes::Route(const HttpRequest& request) {
  const std::string& path = request.path;
  if (absl::StartsWith(path, "/assets/")) {
    return AssetAnswer(path.substr(sizeof("/assets/") - 1));
  }
  const bool api = absl::StartsWith(path, "/api/");
  absl::StatusOr<LadderSnapshot> snapshot = LadderSnapshot::Read(*store_);
  if (!snapshot.ok()) {
    const int status = HttpStatusOf(snapshot.status());
    return api ? JsonErrorAnswer(status, snapshot.status().message())
               : HtmlError(status, std::string(snapshot.status().message()));
  }
  const std::string& ladder_name = snapshot->config().name;
  auto fail = [&](const absl::Status& status) {
    const int code = HttpStatusOf(status);
    return api ? JsonErrorAnswer(code, status.message())
               : HtmlError(code, std::string(status.message()));
  };
  absl::StatusOr<std::map<std::string, std::string>> query =
      ParseQuery(request.query);
  if (!query.ok()) return fail(query.status());

  if (path == "/" || path == "/api/standings") {
    absl::StatusOr<json> standings = StandingsJson(*store_, *snapshot);
    if (!standings.ok()) return fail(standings.status());
    if (api) return JsonAnswer(200, *standings);
    return HtmlAnswer(200,
                      LadderIndexPage(*standings, EntrantsJson(*snapshot)));
  }
  if (path == "/api/entrants") return JsonAnswer(200, EntrantsJson(*snapshot));
  if (path == "/matches" || path == "/api/matches") {
    int limit = api ? kDefaultApiMatches : kPageMatches;
    if (auto it = query->find("limit"); api && it != query->end()) {
      if (!absl::SimpleAtoi(it->second, &limit) || limit < 1 ||
          limit > kMaxApiMatches) {
        return JsonErrorAnswer(400, "'limit' must be a number from 1 to 1000");
      }
    }
    absl::StatusOr<json> matches = RecentMatchesJson(*store_, *snapshot, limit);
    if (!matches.ok()) return fail(matches.status());
    if (api) return JsonAnswer(200, *matches);
    return HtmlAnswer(200, LadderMatchesPage(ladder_name, *matches));
  }
  absl::string_view rest = path;
  if (absl::ConsumePrefix(&rest, "/entrants/") ||
      absl::ConsumePrefix(&rest, "/api/entrants/")) {
    absl::StatusOr<json> entrant =
        EntrantJson(*store_, *snapshot, options_.files, std::string(rest),
                    options_.recent_matches, options_.fault_window);
    if (!entrant.ok()) return fail(entrant.status());
    if (api) return JsonAnswer(200, *entrant);
    return HtmlAnswer(200, LadderEntrantPage(ladder_name, *entrant));
  }
  if (absl::ConsumePrefix(&rest, "/api/matches/")) {
    std::string what;
    for (const char* suffix : {"/stderr", "/timings", "/log"}) {
      if (absl::ConsumeSuffix(&rest, suffix)) what = suffix + 1;
    }
    const std::optional<int64_t> id = MatchId(rest);
    if (!what.empty()) {
      return OwnerOnly(request, *snapshot, id.value_or(0), what);
    }
    const ladder::Match* match =
        id.has_value() ? snapshot->FindMatch(*id) : nullptr;
    if (match == nullptr) return JsonErrorAnswer(404, "no such match");
    absl::StatusOr<json> one = LadderMatchJson(*store_, *snapshot, *match);
    if (!one.ok()) return fail(one.status());
    return JsonAnswer(200, *one);
  }
  if (absl::ConsumePrefix(&rest, "/matches/")) {
    const std::optional<int64_t> id = MatchId(rest);
    if (!id.has_value()) return HtmlError(404, "No such match.");
    return ReplayPage(*snapshot, *id);
  }
  return api ? JsonErrorAnswer(404, "no such address")
             : HtmlError(404, "No such page.");
}

HttpAnswer LadderRoutes::ReplayPage(const LadderSnapshot& snapshot,
                                    int64_t match_id) {
  const ladder::Match* match = snapshot.FindMatch(match_id);
  if (match == nullptr) return HtmlError(404, "No such match.");
  const std::string title = absl::StrCat(
      "Match ", match_id, ": ", ladder::MatchStateName(match->state));
  if (!snapshot.DealSetOver(*match)) {
    return HtmlAnswer(
        200, MessagePage(title,
                         "This match is not shown yet: it is dealt like other "
                         "matches of its deal set, and they are shown once "
                         "every one of them is over."));
  }
  if (match->state == ladder::MatchState::kVoided) {
    return HtmlAnswer(
        200, MessagePage(title, absl::StrCat("Voided: ", match->reason)));
  }
  absl::StatusOr<std::optional<ladder::MatchResult>> result =
      store_->ResultOfMatch(match_id);
  if (!result.ok()) return HtmlError(500, std::string(result.status().message()));
  if (!result->has_value()) {
    return HtmlAnswer(200, MessagePage(title, "No result is recorded."));
  }
  absl::StatusOr<record::GameLog> log =
      record::ReadGameLog(LogPathOf(options_.files, (*result)->log_hash));
  if (!log.ok()) {
    return HtmlAnswer(200, MessagePage(title, "Its log is not here."));
  }
  codec::DeriveTypedActions(&*log, *registry_);
  absl::StatusOr<log_tools::Playback> playback =
      log_tools::BuildPlayback(*log, *registry_, -1);
  if (!playback.ok()) {
    return HtmlAnswer(200, MessagePage(title, "Its log cannot be drawn."));
  }
  return HtmlAnswer(200, web::ReplayPage(*playback));
}

HttpAnswer LadderRoutes::OwnerOnly(const HttpRequest& request,
                                   const LadderSnapshot& snapshot,
                                   int64_t match_id, const std::string& what) {
  const std::string credential = BearerCredential(request);
  if (credential.empty()) {
    return Unauthenticated(
        "this address is its entrant's author's only: send the entrant's "
        "credential as 'Authorization: Bearer <credential>' (cardref_ladder "
        "credential issues one)");
  }
  absl::StatusOr<std::optional<ladder::EntrantCredential>> owner =
      ladder::CheckEntrantCredential(*store_, credential);
  if (!owner.ok()) {
    return JsonErrorAnswer(HttpStatusOf(owner.status()),
                           owner.status().message());
  }
  if (!owner->has_value()) {
    return Unauthenticated("the credential is unknown or revoked");
  }
  const ladder::Match* match =
      match_id > 0 ? snapshot.FindMatch(match_id) : nullptr;
  if (match == nullptr) return JsonErrorAnswer(404, "no such match");
  const std::string& entrant = (*owner)->entrant_name;
  std::vector<int> seats;
  for (size_t s = 0; s < match->seat_versions.size(); ++s) {
    if (snapshot.EntrantOfSeat(*match, s) == entrant) {
      seats.push_back(static_cast<int>(s));
    }
  }
  if (seats.empty()) {
    return JsonErrorAnswer(
        403, absl::StrCat("match ", match_id, " is not a game of entrant '",
                          entrant,
                          "': a credential shows its own entrant's games "
                          "only"));
  }
  if (what == "stderr") {
    json out = json::array();
    for (int seat : seats) {
      bool truncated = false;
      std::optional<std::string> text =
          Tail(absl::StrCat(options_.files.bots, "/m", match_id, ".seat", seat,
                            ".stderr"),
               options_.max_stderr_bytes, &truncated);
      out.push_back({{"seat", seat},
                     {"version_id", match->seat_versions[seat]},
                     {"found", text.has_value()},
                     {"truncated", truncated},
                     {"stderr", text.value_or("")}});
    }
    return JsonAnswer(200, {{"match", match_id},
                            {"entrant", entrant},
                            {"seats", out}});
  }
  if (match->state != ladder::MatchState::kFinished) {
    return JsonErrorAnswer(
        403, absl::StrCat("match ", match_id, " is ",
                          ladder::MatchStateName(match->state),
                          ": its log is there once it has finished"));
  }
  absl::StatusOr<std::optional<ladder::MatchResult>> result =
      store_->ResultOfMatch(match_id);
  if (!result.ok()) {
    return JsonErrorAnswer(500, result.status().message());
  }
  if (!result->has_value()) {
    return JsonErrorAnswer(404, "the match has no recorded result");
  }
  const std::string log_path =
      LogPathOf(options_.files, (*result)->log_hash);
  if (what == "log") {
    if (!snapshot.DealSetOver(*match)) {
      return JsonErrorAnswer(
          403, absl::StrCat("match ", match_id,
                            "'s deal set is still being played: its log "
                            "(which holds the deal) is there once every "
                            "match of the set is over"));
    }
    std::ifstream in(log_path, std::ios::binary);
    if (!in) return JsonErrorAnswer(404, "the match's log is not here");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    HttpAnswer a = TextAnswer(200, "application/octet-stream", bytes.str());
    a.response.headers.emplace_back(
        "Content-Disposition",
        absl::StrCat("attachment; filename=\"ladder-m", match_id,
                     ".cardlog\""));
    return a;
  }
  // Timings: each own seat's decisions, from the log.
  absl::StatusOr<record::GameLog> log = record::ReadGameLog(log_path);
  if (!log.ok()) return JsonErrorAnswer(404, "the match's log is not here");
  json out = json::array();
  for (int seat : seats) {
    json moves = json::array();
    int64_t total = 0, most = 0;
    for (size_t i = 0; i < log->records.size(); ++i) {
      const v1::LogRecord& r = log->records[i];
      if (!r.has_action() || r.action().seat() != seat) continue;
      const int64_t micros = r.action().time_taken_micros();
      total += micros;
      most = std::max(most, micros);
      moves.push_back({{"record", i},
                       {"micros", micros},
                       {"by_referee", r.action().by_referee()}});
    }
    out.push_back({{"seat", seat},
                   {"version_id", match->seat_versions[seat]},
                   {"decisions", moves.size()},
                   {"total_micros", total},
                   {"max_micros", most},
                   {"moves", moves}});
  }
  return JsonAnswer(200, {{"match", match_id},
                          {"entrant", entrant},
                          {"seats", out}});
}

}  // namespace cardref::web
