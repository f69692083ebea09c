#include "analyzer/log_tools/log_html.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "analyzer/log_tools/replay_page.h"
#include "nlohmann/json.hpp"

namespace cardref::log_tools {
namespace {

using nlohmann::json;

json CardsJson(const std::vector<CardFace>& cards) {
  json out = json::array();
  for (const CardFace& c : cards) out.push_back(json::array({c.rank, c.suit}));
  return out;
}

}  // namespace

json TableJson(const Table& table) {
  json seats = json::array();
  for (const SeatTable& s : table.seats) {
    seats.push_back({{"name", s.name},
                     {"hand", CardsJson(s.hand)},
                     {"handSize", s.hand_size},
                     {"visible", s.hand_visible},
                     {"extra", CardsJson(s.extra)},
                     {"extraTitle", s.extra_title},
                     {"info", s.info},
                     {"toAct", s.to_act}});
  }
  json piles = json::array();
  for (const Pile& p : table.piles) {
    piles.push_back({{"title", p.title},
                     {"cards", CardsJson(p.cards)},
                     {"labels", p.labels}});
  }
  return {{"seats", seats}, {"piles", piles}, {"status", table.status}};
}

json StepJson(const Step& s, int rounds) {
  return {{"record", s.record_index},
          {"kind", s.kind},
          {"round", s.round},
          {"seat", s.seat},
          {"text", s.text},
          {"effects", s.effects},
          {"details", s.details},
          {"rounds", rounds},
          {"table", TableJson(s.table)}};
}

std::string JsonForPage(const json& data) {
  const std::string text =
      data.dump(-1, ' ', /*ensure_ascii=*/true, json::error_handler_t::replace);
  return absl::StrReplaceAll(
      text, {{"<", "\\u003c"}, {">", "\\u003e"}, {"&", "\\u0026"}});
}

std::string HtmlEscape(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"&", "&amp;"},
                                    {"<", "&lt;"},
                                    {">", "&gt;"},
                                    {"\"", "&quot;"},
                                    {"'", "&#39;"}});
}

std::string PlaybackJson(const Playback& t) {
  json steps = json::array();
  int scores_so_far = 0;
  for (const Step& s : t.steps) {
    if (s.kind == "round_result") ++scores_so_far;
    steps.push_back(StepJson(s, scores_so_far));
  }
  json seats = json::array();
  for (const v1::SeatInfo& seat : t.header.seats()) {
    seats.push_back({{"seat", seat.seat()},
                     {"name", seat.player_name()},
                     {"version", seat.player_version()}});
  }
  const json data = {{"game", t.header.game()},
                     {"gameName", t.game_name},
                     {"matchId", t.header.match_id()},
                     {"viewer", t.viewer},
                     {"seats", seats},
                     {"names", t.seat_names},
                     {"scoreColumns", t.score_columns},
                     {"scoreRows", t.score_rows},
                     {"finalText", t.final_text},
                     {"endText", t.end_text},
                     {"problem", t.problem},
                     {"steps", steps}};
  return JsonForPage(data);
}

std::string RenderHtml(const Playback& t) {
  std::string title =
      absl::StrCat(t.game_name, " replay: ", t.header.match_id());
  return absl::StrCat(kReplayPageHead, "<title>", HtmlEscape(title),
                      "</title>\n<style>\n", kReplayPageStyle,
                      "</style>\n</head>\n", kReplayPageBody,
                      "<script type=\"application/json\" id=\"game-data\">",
                      PlaybackJson(t), "</script>\n<script>\n",
                      kReplayPageScript, "</script>\n</html>\n");
}

}  // namespace cardref::log_tools
