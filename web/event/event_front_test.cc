// The event page's front fed as an event feeds it: JSON shapes, the twin
// rule (nothing of a match's result, faults or log until its deal set is
// over), standings recomputed from the analyzer as deal sets finish, and
// the page's security headers.
#include "web/event/event_front.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "web/testing/http_client.h"

namespace cardref::web {
namespace {

using nlohmann::json;
using tournament::MatchOutcome;
using tournament::ScheduledMatch;

const std::string kLog =
    absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/craits_3p_short.cardlog");

class EventFrontTest : public ::testing::Test {
 protected:
  void SetUp() override {
    config_.bots = {{"alice", {"x"}}, {"bob", {"x"}},
                    {"<img src=x onerror=alert(1)>", {"x"}}};
    config_.games = {{"craits", 3}};
    // Deal set d0 has two twins; d1 is a match of its own.
    schedule_ = {{"craits3-g001-d00-s0", "craits3-g001-d00", 0, {0, 1, 2}, 2},
                 {"craits3-g001-d00-s1", "craits3-g001-d00", 0, {1, 2, 0}, 2},
                 {"craits3-g001-d01-s0", "craits3-g001-d01", 0, {0, 1, 2}, 1}};
    EventFrontOptions options;
    options.standings_interval = absl::ZeroDuration();
    auto front = EventFront::Start(options);
    ASSERT_TRUE(front.ok()) << front.status();
    front_ = *std::move(front);
    tournament::EventStart start;
    start.config = &config_;
    start.schedule = &schedule_;
    start.records = &records_;
    start.event_dir = "/secret/place/spring-cup/";
    start.referee_web = "http://127.0.0.1:4242";
    front_->OnStart(start);
  }

  MatchOutcome Finished(const ScheduledMatch& m, const std::string& id,
                        int timeouts_of_seat0 = 0) {
    MatchOutcome o;
    o.record = {m.key, "finished", id, kLog, ""};
    for (int64_t s : {30, 20, 10}) o.info.mutable_result()->add_scores(s);
    for (int r : {1, 2, 3}) o.info.mutable_result()->add_ranks(r);
    for (size_t seat = 0; seat < m.seats.size(); ++seat) {
      tournament::SeatOutcome so;
      so.seat = static_cast<int>(seat);
      so.bot = config_.bots[m.seats[seat]].name;
      so.faults.set_seat(so.seat);
      if (seat == 0) {
        so.faults.set_timeouts(timeouts_of_seat0);
        so.faults.set_played_for(timeouts_of_seat0);
      }
      o.seats.push_back(so);
    }
    return o;
  }

  json Get(const std::string& path) {
    const testing::Reply r = testing::Fetch(front_->port(), path);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body;
    return json::parse(r.body, nullptr, false);
  }

  tournament::ScheduleConfig config_;
  std::vector<ScheduledMatch> schedule_;
  std::map<std::string, tournament::MatchRecord> records_;
  std::unique_ptr<EventFront> front_;
};

TEST_F(EventFrontTest, ShowsTheScheduleAndMatchesInProgress) {
  front_->OnStarted({schedule_[0].key, "started", "m-17", "", ""});
  const json ev = Get("/api/event");
  EXPECT_EQ(ev["event"], "spring-cup");  // never the folder's path
  ASSERT_EQ(ev["matches"].size(), 3u);
  EXPECT_EQ(ev["matches"][0]["status"], "in_progress");
  EXPECT_EQ(ev["matches"][0]["match_id"], "m-17");
  EXPECT_EQ(ev["matches"][0]["links"]["page"],
            "http://127.0.0.1:4242/matches/m-17");
  EXPECT_EQ(ev["matches"][0]["bots"][2], "<img src=x onerror=alert(1)>");
  EXPECT_EQ(ev["matches"][1]["status"], "scheduled");
  EXPECT_FALSE(ev["matches"][1].contains("links"));
  EXPECT_EQ(ev["counts"]["scheduled"], 2);
  EXPECT_EQ(ev["faults"].size(), 3u);  // a row per bot
  EXPECT_EQ(ev["over"], false);
}

TEST_F(EventFrontTest, ATwinRevealsNothingUntilItsDealSetIsOver) {
  front_->OnDone(schedule_[0], Finished(schedule_[0], "m-1", 4));
  ASSERT_TRUE(front_->WaitForStandings(absl::Seconds(10)));
  json ev = Get("/api/event");
  const json& first = ev["matches"][0];
  EXPECT_EQ(first["status"], "finished");
  EXPECT_EQ(first["deal_set_over"], false);
  for (const char* hidden : {"scores", "ranks", "faults", "reason"}) {
    EXPECT_FALSE(first.contains(hidden)) << hidden;
  }
  EXPECT_EQ(ev["faults"][1]["timeouts"], 0);  // alice's, held back
  json st = Get("/api/standings");
  EXPECT_EQ(st["logs"], 0);
  EXPECT_EQ(st["pending_logs"], 1);
  EXPECT_TRUE(st["ratings"].is_null());
  // Nor does the page's embedded data say more.
  const testing::Reply page = testing::Fetch(front_->port(), "/");
  EXPECT_FALSE(absl::StrContains(page.body, "\"scores\""));
  EXPECT_EQ(testing::Fetch(front_->port(), "/matches/" + schedule_[0].key)
                .status,
            404);

  front_->OnDone(schedule_[1], Finished(schedule_[1], "m-2"));
  ASSERT_TRUE(front_->WaitForStandings(absl::Seconds(20)));
  ev = Get("/api/event");
  EXPECT_EQ(ev["matches"][0]["deal_set_over"], true);
  EXPECT_EQ(ev["matches"][0]["scores"], json({30, 20, 10}));
  EXPECT_EQ(ev["matches"][0]["faults"][0],
            "4 timeouts, 4 decisions played by the referee");
  EXPECT_EQ(ev["faults"][0]["bot"], "<img src=x onerror=alert(1)>");
  // Bots are listed by name: alice is the second row.
  EXPECT_EQ(ev["faults"][1]["bot"], "alice");
  EXPECT_EQ(ev["faults"][1]["timeouts"], 4);
  EXPECT_EQ(ev["faults"][1]["matches"], 1);
  st = Get("/api/standings");
  EXPECT_EQ(st["logs"], 2);
  EXPECT_EQ(st["pending_logs"], 0);
  ASSERT_TRUE(st["ratings"].is_object()) << st.dump();
  ASSERT_EQ(st["ratings"]["games"].size(), 1u);
  EXPECT_EQ(st["ratings"]["games"][0]["game"], "craits");
  EXPECT_FALSE(st["ratings"]["games"][0]["players"].empty());
  // Its replay, from its log, by the event's own front.
  EXPECT_EQ(ev["matches"][0]["replay"], "/matches/" + schedule_[0].key);
  const testing::Reply replay =
      testing::Fetch(front_->port(), "/matches/" + schedule_[0].key);
  EXPECT_EQ(replay.status, 200);
  EXPECT_TRUE(absl::StrContains(replay.body, "id=\"game-data\""));
}

TEST_F(EventFrontTest, APageWithoutInlineScript) {
  const testing::Reply page = testing::Fetch(front_->port(), "/");
  ASSERT_EQ(page.status, 200);
  EXPECT_TRUE(absl::StrContains(page.headers.at("content-security-policy"),
                                "script-src 'self'"));
  EXPECT_TRUE(absl::StrContains(page.body, "<script src=\"/assets/event.js\">"));
  // The bot's name is data, escaped so that it cannot end its element.
  EXPECT_FALSE(absl::StrContains(page.body, "<img"));
  size_t scripts = 0;
  for (size_t at = page.body.find("<script"); at != std::string::npos;
       at = page.body.find("<script", at + 1)) {
    ++scripts;
    const std::string tag = page.body.substr(at, 40);
    EXPECT_TRUE(absl::StrContains(tag, "type=\"application/json\"") ||
                absl::StrContains(tag, "src=\"/assets/"))
        << tag;
  }
  EXPECT_EQ(scripts, 2u);
  EXPECT_EQ(testing::Fetch(front_->port(), "/assets/event.js").status, 200);
  EXPECT_EQ(testing::Fetch(front_->port(), "/api/nothing").status, 404);
  EXPECT_EQ(testing::Fetch(front_->port(), "/nothing").status, 404);
  EXPECT_EQ(testing::Fetch(front_->port(), "/api/event", "POST").status, 405);
}

TEST_F(EventFrontTest, AnUnplayedMatchIsNotOver) {
  MatchOutcome lost;
  lost.played = false;
  lost.record.reason = "the referee was unreachable";
  front_->OnDone(schedule_[2], lost);
  front_->OnEnd();
  const json ev = Get("/api/event");
  EXPECT_EQ(ev["matches"][2]["status"], "not_played");
  EXPECT_EQ(ev["matches"][2]["deal_set_over"], false);
  EXPECT_EQ(ev["over"], true);
}

}  // namespace
}  // namespace cardref::web
