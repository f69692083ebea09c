#include "web/match_json.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "analyzer/log_tools/playback.h"
#include "analyzer/render.h"

namespace cardref::web {

using nlohmann::json;

std::string StatusName(v1::MatchStatus status) {
  absl::string_view name = v1::MatchStatus_Name(status);
  absl::ConsumePrefix(&name, "MATCH_STATUS_");
  return absl::AsciiStrToLower(name);
}

namespace {

bool Over(v1::MatchStatus status) {
  return status == v1::MATCH_STATUS_FINISHED ||
         status == v1::MATCH_STATUS_ABORTED;
}

}  // namespace

std::string ReplayKind(const v1::MatchInfo& info, bool events_public) {
  if (!events_public) return "none";
  return Over(info.status()) && !info.seed().empty() ? "full" : "public";
}

json MatchJson(const v1::MatchInfo& info, bool events_public,
               const GameRegistry& registry) {
  const std::string& id = info.match_id();
  json out = {{"id", id},
              {"status", StatusName(info.status())},
              {"public", events_public},
              {"replay", ReplayKind(info, events_public)}};
  if (!events_public) return out;
  absl::StatusOr<const GameInfo*> game = registry.Find(info.game());
  out["game"] = info.game();
  out["game_name"] = game.ok() ? (*game)->display_name : info.game();
  out["num_seats"] = info.num_seats();
  json seats = json::array();
  for (const v1::SeatInfo& seat : info.seats()) {
    seats.push_back(
        {{"seat", seat.seat()},
         {"name", seat.player_name()},
         {"display_name", log_tools::DisplayName(seat.player_name())},
         {"version", seat.player_version()}});
  }
  out["seats"] = seats;
  if (!info.deal_set_id().empty()) out["deal_set_id"] = info.deal_set_id();
  out["decision_time_limit_millis"] = info.decision_time_limit_millis();
  if (!info.end_reason().empty()) {
    out["end_reason"] = analyzer::Sanitize(info.end_reason());
  }
  if (info.forfeited_seats_size() > 0) {
    out["forfeited_seats"] = json(std::vector<int>(
        info.forfeited_seats().begin(), info.forfeited_seats().end()));
  }
  if (info.status() == v1::MATCH_STATUS_FINISHED) {
    const v1::FinalResult& r = info.result();
    out["result"] = {
        {"scores", std::vector<int64_t>(r.scores().begin(), r.scores().end())},
        {"ranks", std::vector<int32_t>(r.ranks().begin(), r.ranks().end())},
        {"winners",
         std::vector<int32_t>(r.winners().begin(), r.winners().end())},
        {"higher_score_is_better", r.higher_score_is_better()}};
  }
  out["links"] = {{"page", absl::StrCat("/matches/", id)},
                  {"api", absl::StrCat("/api/matches/", id)},
                  {"events", absl::StrCat("/api/matches/", id, "/events")}};
  return out;
}

std::string JsonText(const json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/true,
                    json::error_handler_t::replace) +
         "\n";
}

}  // namespace cardref::web
