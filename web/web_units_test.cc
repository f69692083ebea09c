// The web front's parts on their own: the stream caps, the JSON of a
// match, the escaping of every page, the assets, match ids.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "analyzer/log_tools/log_html.h"
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "web/assets.h"
#include "web/match_feed.h"
#include "web/match_json.h"
#include "web/pages.h"
#include "web/routes.h"
#include "web/sse_slots.h"

namespace cardref::web {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(SseSlotsTest, CapsPerClientAndInAll) {
  SseSlots slots(3, 2);
  absl::StatusOr<SseSlot> a1 = slots.Acquire("10.0.0.1");
  absl::StatusOr<SseSlot> a2 = slots.Acquire("10.0.0.1");
  ASSERT_TRUE(a1.ok() && a2.ok());
  absl::StatusOr<SseSlot> a3 = slots.Acquire("10.0.0.1");
  EXPECT_EQ(a3.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(a3.status().message(),
              HasSubstr("this client address has 2 streams open"));
  absl::StatusOr<SseSlot> b1 = slots.Acquire("10.0.0.2");
  ASSERT_TRUE(b1.ok());
  // The front is full: another client is refused for that, and the
  // refusal takes no slot of its own.
  absl::StatusOr<SseSlot> c1 = slots.Acquire("10.0.0.3");
  EXPECT_EQ(c1.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(c1.status().message(), HasSubstr("the web front has 3 streams"));
  EXPECT_EQ(slots.open("10.0.0.3"), 0);
  EXPECT_EQ(slots.open_total(), 3);
  *a1 = SseSlot();  // given back
  EXPECT_EQ(slots.open("10.0.0.1"), 1);
  EXPECT_TRUE(slots.Acquire("10.0.0.3").ok());
  SseSlots unlimited(0, 0);
  std::vector<SseSlot> many;
  many.reserve(1000);
  for (int i = 0; i < 1000; ++i) many.push_back(*unlimited.Acquire("x"));
  EXPECT_EQ(unlimited.open_total(), 1000);
}

v1::MatchInfo HostileMatch() {
  v1::MatchInfo info;
  info.set_match_id("craits-20261202-123508-0053-c1e0");
  info.set_game("craits");
  info.set_status(v1::MATCH_STATUS_FINISHED);
  info.set_num_seats(2);
  v1::SeatInfo* a = info.add_seats();
  a->set_seat(0);
  a->set_player_name("</script><script>alert(1)</script>");
  a->set_player_version("1\"><img src=x onerror=alert(2)>");
  v1::SeatInfo* b = info.add_seats();
  b->set_seat(1);
  // A log of an older referee may hold what today's refuses.
  b->set_player_name("bell\a\x1b[31mred\xe2\x80\xae""cba\xff");
  info.mutable_result()->add_scores(3);
  info.mutable_result()->add_scores(9);
  info.set_seed("seed");
  return info;
}

TEST(MatchJsonTest, NamesAreStringsAndAlsoShownSafely) {
  const nlohmann::json m = MatchJson(HostileMatch(), true, AllGames());
  EXPECT_EQ(m["seats"][0]["name"], "</script><script>alert(1)</script>");
  const std::string shown = m["seats"][1]["display_name"];
  EXPECT_THAT(shown, Not(HasSubstr("\a")));
  EXPECT_THAT(shown, Not(HasSubstr("\x1b")));
  EXPECT_THAT(shown, Not(HasSubstr("\xe2\x80\xae")));
  EXPECT_EQ(m["replay"], "full");
  EXPECT_EQ(m["result"]["scores"], nlohmann::json({3, 9}));
  const std::string text = JsonText(m);
  for (unsigned char c : text) {
    EXPECT_TRUE(c < 0x80 && (c >= 0x20 || c == '\n')) << int{c};
  }
  // Not public: the id and status, nothing else.
  EXPECT_EQ(MatchJson(HostileMatch(), false, AllGames()),
            nlohmann::json({{"id", "craits-20261202-123508-0053-c1e0"},
                            {"status", "finished"},
                            {"public", false},
                            {"replay", "none"}}));
  v1::MatchInfo playing = HostileMatch();
  playing.set_status(v1::MATCH_STATUS_IN_PROGRESS);
  playing.clear_seed();
  EXPECT_EQ(ReplayKind(playing, true), "public");
  // Over, but the seed withheld (a twin is still played): no hand shown.
  v1::MatchInfo twin = HostileMatch();
  twin.clear_seed();
  EXPECT_EQ(ReplayKind(twin, true), "public");
  EXPECT_EQ(StatusName(v1::MATCH_STATUS_WAITING_FOR_PLAYERS),
            "waiting_for_players");
}

// Every start tag of `page`, for the checks below.
std::vector<std::string> Tags(const std::string& page) {
  std::vector<std::string> tags;
  for (size_t at = page.find('<'); at != std::string::npos;
       at = page.find('<', at + 1)) {
    tags.push_back(page.substr(at, page.find('>', at) - at + 1));
  }
  return tags;
}

TEST(PagesTest, PlayerTextNeverBecomesMarkup) {
  const std::string index =
      IndexPage({{HostileMatch(), true}}, "7\"><b>", AllGames());
  EXPECT_THAT(index, HasSubstr("&lt;/script&gt;&lt;script&gt;alert(1)"));
  EXPECT_THAT(index, Not(HasSubstr("<script")));
  EXPECT_THAT(index, Not(HasSubstr("<b>")));
  EXPECT_THAT(index, HasSubstr("page_token=7&quot;&gt;&lt;b&gt;"));
  LivePageData live;
  live.match_id = "m-1";
  live.game_name = "</title><script>x()</script>";
  live.status = "in_progress";
  const std::string page = LivePage(live);
  EXPECT_THAT(page, HasSubstr("&lt;/title&gt;&lt;script&gt;"));
  const std::string message =
      MessagePage("<i>t</i>", "<script>alert(1)</script>");
  EXPECT_THAT(message, Not(HasSubstr("<script>alert")));
  for (const std::string& p : {index, page, message}) {
    for (const std::string& tag : Tags(p)) {
      // No inline script, no handler attribute, nothing from elsewhere.
      if (absl::StartsWith(tag, "<script")) {
        EXPECT_TRUE(absl::StrContains(tag, "src=\"/assets/") ||
                    tag == "<script type=\"application/json\" id=\"page-data\">")
            << tag;
      }
      EXPECT_THAT(tag, Not(HasSubstr(" on"))) << tag;
      EXPECT_THAT(tag, Not(HasSubstr("http"))) << tag;
    }
  }
}

TEST(AssetsTest, EveryPageScriptIsServedAndLoadsNothing) {
  for (const char* name :
       {"live.js", "replay.js", "replay.css", "web.css", "icon.svg"}) {
    Asset asset;
    ASSERT_TRUE(FindAsset(name, &asset)) << name;
    EXPECT_GT(asset.body.size(), 100u) << name;
    // The page builds its elements with textContent, never as HTML.
    EXPECT_THAT(std::string(asset.body), Not(HasSubstr("innerHTML"))) << name;
    EXPECT_THAT(std::string(asset.body), Not(HasSubstr("eval("))) << name;
    // (The icon names the SVG namespace, which is not a load.)
    if (!absl::EndsWith(name, ".svg")) {
      EXPECT_THAT(std::string(asset.body), Not(HasSubstr("http"))) << name;
    }
  }
  Asset asset;
  EXPECT_FALSE(FindAsset("../web_front.cc", &asset));
  EXPECT_FALSE(FindAsset("", &asset));
}

TEST(RoutesTest, OnlyIdShapedStringsAreLookedUp) {
  EXPECT_TRUE(IsMatchIdShaped("craits-20261202-123508-0053-c1e0"));
  EXPECT_TRUE(IsMatchIdShaped("a.b_c"));
  for (const std::string& bad :
       {std::string(""), std::string("a/b"), std::string("a b"),
        std::string("<x>"), std::string(129, 'a'), std::string("a\0b", 3),
        std::string("caf\xc3\xa9")}) {
    EXPECT_FALSE(IsMatchIdShaped(bad)) << bad;
  }
}

TEST(MatchFeedTest, AFeedWithoutALogEndsAtOnce) {
  std::shared_ptr<MatchFeed> feed = MatchFeed::Empty("cancelled");
  const MatchFeed::Slice s = feed->After(0, 0, 1000);
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.text,
            "event: end\ndata: {\"endReason\":\"\",\"finalText\":\"\","
            "\"problem\":\"\",\"status\":\"cancelled\"}\n\n");
  int woken = 0;
  feed->WatchSince(0, feed->NewWatchId(), [&] { ++woken; });
  EXPECT_EQ(woken, 1);  // it has changed since version 0
  const int id = feed->NewWatchId();
  feed->WatchSince(feed->version(), id, [&] { ++woken; });
  feed->Unwatch(id);
  EXPECT_EQ(woken, 1);
}

TEST(MatchFeedTest, ALogsEventsAreItsPublicRecords) {
  absl::StatusOr<std::shared_ptr<MatchFeed>> feed = MatchFeed::FromLog(
      absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/kraken_2rounds.cardlog"),
      AllGames());
  ASSERT_TRUE(feed.ok()) << feed.status();
  const MatchFeed::Slice all = (*feed)->After(0, 0, size_t{1} << 30);
  EXPECT_TRUE(all.complete);
  EXPECT_THAT(all.text, HasSubstr("id: 1\nevent: step\ndata: {"));
  // Each event is whole lines of its fields, its data one JSON line, the
  // golden log's hostile name in it as a string.
  EXPECT_THAT(all.text, HasSubstr("mallory"));
  for (absl::string_view block : absl::StrSplit(all.text, "\n\n", absl::SkipEmpty())) {
    for (absl::string_view line : absl::StrSplit(block, '\n')) {
      EXPECT_TRUE(absl::StartsWith(line, "id: ") ||
                  absl::StartsWith(line, "event: ") ||
                  absl::StartsWith(line, "data: "))
          << line;
      if (absl::ConsumePrefix(&line, "data: ")) {
        EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded());
      }
    }
  }
  EXPECT_THAT(all.text, HasSubstr("\"status\":\"finished\""));
  // A slice of at most a few bytes still holds one whole event.
  const MatchFeed::Slice one = (*feed)->After(0, 0, 10);
  EXPECT_FALSE(one.complete);
  EXPECT_EQ(one.last_index, 1u);
  const MatchFeed::Slice next = (*feed)->After(one.last_index, 0, 10);
  EXPECT_GT(next.last_index, 1u);
  EXPECT_EQ(absl::StrContains(next.text, "id: 1\n"), false);
}

}  // namespace
}  // namespace cardref::web
