#include "web/routes.h"

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "analyzer/log_tools/playback.h"
#include "nlohmann/json.hpp"
#include "referee/codec/logged_actions.h"
#include "referee/record/game_log.h"
#include "referee/service/text_limits.h"
#include "web/assets.h"
#include "web/feed_event_source.h"
#include "web/http_answers.h"
#include "web/match_json.h"
#include "web/pages.h"

namespace cardref::web {
namespace {

using nlohmann::json;

// The largest delay a client may ask for: more is a typo.
constexpr uint32_t kMaxDelayDecisions = 100000;
constexpr int kIndexPageSize = 100;
// How long a refused stream should wait before it asks again.
constexpr char kRetryAfterSeconds[] = "10";

// A parameter as an unsigned number in [0, max]; `fallback` when absent.
template <typename T>
absl::StatusOr<T> NumberParam(const std::map<std::string, std::string>& query,
                              const std::string& name, T fallback, T max) {
  auto it = query.find(name);
  if (it == query.end()) return fallback;
  uint64_t value = 0;
  if (!absl::SimpleAtoi(it->second, &value) || value > static_cast<uint64_t>(max)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", name, "' must be a number from 0 to ", max, ", got '",
                     service::QuotePrefix(it->second), "'"));
  }
  return static_cast<T>(value);
}

std::optional<v1::MatchStatus> StatusFromName(const std::string& name) {
  for (int s = v1::MatchStatus_MIN; s <= v1::MatchStatus_MAX; ++s) {
    if (v1::MatchStatus_IsValid(s) && s != v1::MATCH_STATUS_UNSPECIFIED &&
        StatusName(static_cast<v1::MatchStatus>(s)) == name) {
      return static_cast<v1::MatchStatus>(s);
    }
  }
  return std::nullopt;
}

bool Over(v1::MatchStatus status) {
  return status == v1::MATCH_STATUS_FINISHED ||
         status == v1::MATCH_STATUS_ABORTED;
}

}  // namespace

bool WebRoutes::IsPublic(const v1::MatchInfo& info) const {
  // An info the twin rule cut to its id and status names no game: it stays
  // so even if the view has said yes since it was read.
  return !info.game().empty() && c_.view->CheckPublic(info.match_id()).ok();
}

bool IsMatchIdShaped(const std::string& id) {
  if (id.empty() || id.size() > service::kMaxIdChars) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

HttpAnswer WebRoutes::Handle(const HttpRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpAnswer a = JsonErrorAnswer(
        405, "the web front is read-only: GET and HEAD only (organiser "
             "actions are the gRPC API's)");
    a.response.headers.emplace_back("Allow", "GET, HEAD");
    return a;
  }
  const std::string& path = request.path;
  if (path == "/") return Index(request);
  if (path == "/api/matches" || path == "/api/matches/") {
    return ApiList(request);
  }
  if (absl::StartsWith(path, "/assets/")) {
    return AssetFile(path.substr(sizeof("/assets/") - 1));
  }
  if (absl::StartsWith(path, "/api/matches/")) {
    absl::string_view rest = path;
    absl::ConsumePrefix(&rest, "/api/matches/");
    const bool events = absl::ConsumeSuffix(&rest, "/events");
    const std::string id(rest);
    if (!IsMatchIdShaped(id)) return JsonErrorAnswer(404, "no such match");
    return events ? Events(id, request) : ApiMatch(id);
  }
  if (absl::StartsWith(path, "/matches/")) {
    const std::string id = path.substr(sizeof("/matches/") - 1);
    if (!IsMatchIdShaped(id)) {
      return HtmlAnswer(404, MessagePage("Not found", "No such match."));
    }
    return Page(id);
  }
  return HtmlAnswer(404, MessagePage("Not found", "No such page."));
}

HttpAnswer WebRoutes::Index(const HttpRequest& request) {
  absl::StatusOr<std::map<std::string, std::string>> query =
      ParseQuery(request.query);
  if (!query.ok()) return HtmlAnswer(400, MessagePage("Bad request", "Malformed query."));
  v1::ListMatchesRequest list;
  list.set_page_size(kIndexPageSize);
  if (auto it = query->find("page_token"); it != query->end()) {
    list.set_page_token(it->second);
  }
  absl::StatusOr<v1::ListMatchesResponse> found = c_.manager->ListMatches(list);
  if (!found.ok()) {
    return HtmlAnswer(HttpStatusOf(found.status()),
                MessagePage("Cannot list the matches",
                            std::string(found.status().message())));
  }
  std::vector<IndexEntry> entries;
  for (const v1::MatchInfo& info : found->matches()) {
    entries.push_back({info, IsPublic(info)});
  }
  return HtmlAnswer(200, IndexPage(entries, found->next_page_token(),
                             c_.manager->registry()));
}

HttpAnswer WebRoutes::Page(const std::string& match_id) {
  absl::StatusOr<v1::MatchInfo> info =
      c_.manager->Info(match_id, /*for_organiser=*/false);
  if (!info.ok()) {
    const int status = HttpStatusOf(info.status());
    return HtmlAnswer(status, MessagePage(status == 404 ? "Not found" : "Error",
                                    status == 404
                                        ? "No such match."
                                        : std::string(info.status().message())));
  }
  const std::string status = StatusName(info->status());
  if (!IsPublic(*info)) {
    return HtmlAnswer(200, MessagePage(
                         absl::StrCat("Match ", match_id, ": ", status),
                         "This match's events are not public yet: it is "
                         "dealt like other matches of its deal set, and "
                         "they are shown once every one of them is over."));
  }
  if (ReplayKind(*info, true) == "full") {
    // The log's location is the organiser's: asked for here, never shown.
    absl::StatusOr<v1::MatchInfo> own =
        c_.manager->Info(match_id, /*for_organiser=*/true);
    absl::StatusOr<record::GameLog> log =
        own.ok() ? record::ReadGameLog(own->log_path())
                 : absl::StatusOr<record::GameLog>(own.status());
    if (log.ok()) {
      codec::DeriveTypedActions(&*log, c_.manager->registry());
      absl::StatusOr<log_tools::Playback> playback =
          log_tools::BuildPlayback(*log, c_.manager->registry(), -1);
      if (playback.ok()) return HtmlAnswer(200, ReplayPage(*playback));
    }
    // Else the public replay, drawn from the events.
  }
  LivePageData data;
  data.match_id = match_id;
  absl::StatusOr<const GameInfo*> game = c_.manager->registry().Find(info->game());
  data.game_name = game.ok() ? (*game)->display_name : info->game();
  data.status = status;
  data.mode = Over(info->status()) ? "public-replay" : "live";
  data.delay_decisions = c_.delay_decisions;
  return HtmlAnswer(200, LivePage(data));
}

HttpAnswer WebRoutes::ApiList(const HttpRequest& request) {
  absl::StatusOr<std::map<std::string, std::string>> query =
      ParseQuery(request.query);
  if (!query.ok()) return JsonErrorAnswer(400, query.status().message());
  v1::ListMatchesRequest list;
  absl::StatusOr<int32_t> size =
      NumberParam<int32_t>(*query, "page_size", 0, 1000);
  if (!size.ok()) return JsonErrorAnswer(400, size.status().message());
  list.set_page_size(*size);
  if (auto it = query->find("page_token"); it != query->end()) {
    list.set_page_token(it->second);
  }
  if (auto it = query->find("status"); it != query->end()) {
    std::optional<v1::MatchStatus> status = StatusFromName(it->second);
    if (!status.has_value()) {
      return JsonErrorAnswer(
          400, absl::StrCat("'status' must be waiting_for_players, "
                            "in_progress, finished, aborted or cancelled, got '",
                            service::QuotePrefix(it->second), "'"));
    }
    list.set_status(*status);
  }
  absl::StatusOr<v1::ListMatchesResponse> found = c_.manager->ListMatches(list);
  if (!found.ok()) {
    return JsonErrorAnswer(HttpStatusOf(found.status()), found.status().message());
  }
  json matches = json::array();
  for (const v1::MatchInfo& info : found->matches()) {
    matches.push_back(
        MatchJson(info, IsPublic(info), c_.manager->registry()));
  }
  json out = {{"matches", matches}};
  if (!found->next_page_token().empty()) {
    out["next_page_token"] = found->next_page_token();
  }
  return JsonAnswer(200, out);
}

HttpAnswer WebRoutes::ApiMatch(const std::string& match_id) {
  absl::StatusOr<v1::MatchInfo> info =
      c_.manager->Info(match_id, /*for_organiser=*/false);
  if (!info.ok()) {
    return JsonErrorAnswer(HttpStatusOf(info.status()), info.status().message());
  }
  return JsonAnswer(200,
              MatchJson(*info, IsPublic(*info), c_.manager->registry()));
}

HttpAnswer WebRoutes::Events(const std::string& match_id,
                             const HttpRequest& request) {
  absl::StatusOr<std::map<std::string, std::string>> query =
      ParseQuery(request.query);
  if (!query.ok()) return JsonErrorAnswer(400, query.status().message());
  // A browser that reconnects sends the last event it received.
  absl::StatusOr<uint64_t> after = NumberParam<uint64_t>(
      *query, "after", 0, std::numeric_limits<uint64_t>::max());
  if (!after.ok()) return JsonErrorAnswer(400, after.status().message());
  if (!request.last_event_id.empty()) {
    uint64_t last = 0;
    if (!absl::SimpleAtoi(request.last_event_id, &last)) {
      return JsonErrorAnswer(400, "Last-Event-ID must be an event index");
    }
    after = last;
  }
  absl::StatusOr<uint32_t> delay = NumberParam<uint32_t>(
      *query, "delay", c_.delay_decisions, kMaxDelayDecisions);
  if (!delay.ok()) return JsonErrorAnswer(400, delay.status().message());
  if (absl::Status open = c_.view->CheckPublic(match_id); !open.ok()) {
    // The match's existence and status are public; its events are not yet
    // (FAILED_PRECONDITION: 403, saying why).
    return JsonErrorAnswer(HttpStatusOf(open), open.message());
  }
  // Refused before the feed is made: a refusal costs nothing.
  absl::StatusOr<SseSlot> slot = c_.slots->Acquire(request.client);
  if (!slot.ok()) {
    HttpAnswer a =
        JsonErrorAnswer(HttpStatusOf(slot.status()), slot.status().message());
    a.response.headers.emplace_back("Retry-After", kRetryAfterSeconds);
    return a;
  }
  absl::StatusOr<std::shared_ptr<MatchFeed>> feed = c_.feeds->Get(match_id);
  if (!feed.ok()) {
    return JsonErrorAnswer(HttpStatusOf(feed.status()), feed.status().message());
  }
  HttpAnswer a;
  a.response.status = 200;
  a.response.headers.emplace_back("Cache-Control", "no-store");
  AddSecurityHeaders(&a.response);
  a.events = std::make_unique<FeedEventSource>(
      *std::move(feed), *after, std::max(*delay, c_.delay_decisions),
      *std::move(slot));
  return a;
}

HttpAnswer WebRoutes::AssetFile(const std::string& name) {
  return AssetAnswer(name);
}

}  // namespace cardref::web
