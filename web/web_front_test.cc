// The web front over HTTP, in one process with a MatchManager whose matches
// the test plays: the addresses and their headers, the read-only rule, the
// event stream resumed from Last-Event-ID or ?after= with nothing missed or
// repeated, the spectator delay, the stream caps, a match the public view
// hides, and a match read back from its log once it has left memory.
#include "web/web_front.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "games/all_games.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "referee/base/testing/fresh_test_dir.h"
#include "referee/service/match_manager.h"
#include "web/manager_public_view.h"
#include "web/pages.h"
#include "web/testing/http_client.h"

namespace cardref::web {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Connection;
using testing::Event;
using testing::Fetch;
using testing::Reply;

class WebFrontTest : public ::testing::Test {
 protected:
  void StartFront(WebOptions options = {},
                  absl::Duration evict_after = absl::Minutes(5)) {
    service::ManagerOptions m;
    m.log_dir = testing_util::FreshTestDir("web_front_test_").string();
    m.referee_version = "test";
    m.open_by_default = true;
    m.evict_after = evict_after;
    m.log_sync = record::SyncPolicy::kEnd;
    m.log_sync_threads = 0;
    manager_ = std::make_unique<service::MatchManager>(&AllGames(), m);
    options.port = 0;
    options.refresh_interval = absl::Milliseconds(5);
    options.http.event_interval = absl::Milliseconds(5);
    view_ = std::make_unique<ManagerPublicView>(manager_.get());
    absl::StatusOr<std::unique_ptr<WebFront>> front =
        WebFront::Start(options, manager_.get(), view_.get());
    ASSERT_TRUE(front.ok()) << front.status();
    front_ = *std::move(front);
  }

  void TearDown() override {
    front_.reset();
    view_.reset();
    manager_.reset();
  }

  // A short two-seat Craits match, both seats joined under `names`; with a
  // deal set, one of `deal_set_size` matches dealt alike.
  std::string NewMatch(const std::vector<std::string>& names = {"ann", "bo"},
                       const std::string& deal_set = "",
                       uint32_t deal_set_size = 0) {
    v1::CreateMatchRequest create;
    create.set_game("craits");
    (*create.mutable_params()->mutable_values())["num_players"].set_int_value(2);
    (*create.mutable_params()->mutable_values())["game_length"].set_enum_value(
        "SHORT");
    create.set_open(true);
    create.set_dealing_seed(7);
  create.set_deal_set_id(deal_set);
  create.set_deal_set_size(deal_set_size);
    absl::StatusOr<v1::CreateMatchResponse> created =
        manager_->CreateMatch(create);
    EXPECT_TRUE(created.ok()) << created.status();
    std::string id = created->match_id();
    for (int s = 0; s < 2; ++s) {
      v1::JoinMatchRequest join;
      join.set_match_id(id);
      join.set_seat(s);
      join.set_player_name(names[s]);
      join.set_player_version("1.0");
      absl::StatusOr<v1::JoinMatchResponse> joined = manager_->JoinMatch(join);
      EXPECT_TRUE(joined.ok()) << joined.status();
      tokens_[id].push_back(joined->token());
    }
    return id;
  }

  // One decision of `id` (its first legal action, or its second if
  // `second`); false once the match is over.
  bool Step(const std::string& id, bool refuse_first = false) {
    absl::StatusOr<std::shared_ptr<service::Match>> match = manager_->Find(id);
    if (!match.ok()) return false;
    const service::Match::Progress p = (*match)->progress();
    if (p.status != v1::MATCH_STATUS_IN_PROGRESS) return false;
    const int seat = p.seat_to_act;
    const std::string& token = tokens_[id][seat];
    absl::StatusOr<v1::Observation> obs = (*match)->Observe(seat, token);
    EXPECT_TRUE(obs.ok()) << obs.status();
    v1::SubmitActionRequest submit;
    submit.set_match_id(id);
    submit.set_seat(seat);
    submit.set_token(token);
    submit.set_decision_version(obs->version());
    if (refuse_first) {
      // Refused (and logged as a rejected submission): not public.
      submit.mutable_action()->set_notation("play nothing at all");
      EXPECT_FALSE((*match)->Submit(submit).ok());
    }
    *submit.mutable_action() =
        obs->legal_actions(static_cast<int>(decisions_ % obs->legal_actions_size()));
    ++decisions_;
    absl::StatusOr<v1::SubmitActionResponse> r = (*match)->Submit(submit);
    EXPECT_TRUE(r.ok()) << r.status();
    return true;
  }

  void PlayOut(const std::string& id) {
    while (Step(id)) {
    }
  }

  int port() const { return front_->port(); }

  // Every event of a stream that ends, with its ids.
  std::vector<Event> ReadAll(const std::string& target,
                             const std::vector<std::string>& headers = {}) {
    Connection c(port(), "GET", target, headers);
    Reply head;
    EXPECT_TRUE(c.ReadHead(&head));
    EXPECT_EQ(head.status, 200);
    std::vector<Event> events;
    Event e;
    while (c.NextEvent(&e)) {
      events.push_back(e);
      if (e.name == "end") break;
    }
    return events;
  }

  std::unique_ptr<service::MatchManager> manager_;
  std::unique_ptr<ManagerPublicView> view_;
  std::unique_ptr<WebFront> front_;
  std::map<std::string, std::vector<std::string>> tokens_;
  uint64_t decisions_ = 0;
};

nlohmann::json Data(const Event& e) { return nlohmann::json::parse(e.data); }

TEST_F(WebFrontTest, AddressesAnswerWithTheirTypesAndThePolicy) {
  StartFront();
  const std::string id = NewMatch();
  for (int i = 0; i < 5; ++i) Step(id);
  struct Case {
    std::string target;
    int status;
    std::string type;
  };
  for (const Case& c : std::vector<Case>{
           {"/", 200, "text/html"},
           {"/matches/" + id, 200, "text/html"},
           {"/api/matches", 200, "application/json"},
           {"/api/matches/" + id, 200, "application/json"},
           {"/assets/live.js", 200, "text/javascript"},
           {"/assets/replay.js", 200, "text/javascript"},
           {"/assets/replay.css", 200, "text/css"},
           {"/assets/web.css", 200, "text/css"},
           {"/assets/icon.svg", 200, "image/svg+xml"},
           {"/assets/nothing.js", 404, "text/plain"},
           {"/matches/no-such-match", 404, "text/html"},
           {"/matches/%3Cscript%3E", 404, "text/html"},
           {"/api/matches/no-such-match", 404, "application/json"},
           {"/api/matches/no-such-match/events", 404, "application/json"},
           {"/api/matches?page_size=nine", 400, "application/json"},
           {"/api/matches?status=lost", 400, "application/json"},
           {"/api/matches/" + id + "/events?delay=-1", 400, "application/json"},
           {"/nowhere", 404, "text/html"},
       }) {
    SCOPED_TRACE(c.target);
    Reply r = Fetch(port(), c.target);
    EXPECT_EQ(r.status, c.status);
    EXPECT_THAT(r.headers["content-type"], HasSubstr(c.type));
    EXPECT_EQ(r.headers["content-security-policy"], kContentSecurityPolicy);
    EXPECT_EQ(r.headers["x-content-type-options"], "nosniff");
  }
  // The pages run no inline script: every script element is a file or
  // JSON data.
  for (const std::string& target : {std::string("/"), "/matches/" + id}) {
    const std::string page = Fetch(port(), target).body;
    for (size_t at = page.find("<script"); at != std::string::npos;
         at = page.find("<script", at + 1)) {
      const std::string tag = page.substr(at, page.find('>', at) - at);
      EXPECT_TRUE(absl::StrContains(tag, "src=\"/assets/") ||
                  absl::StrContains(tag, "type=\"application/json\""))
          << tag;
    }
  }
  // Read-only: no method but GET and HEAD.
  for (const char* method : {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"}) {
    Reply r = Fetch(port(), "/api/matches/" + id, method);
    EXPECT_EQ(r.status, 405) << method;
    EXPECT_EQ(r.headers["allow"], "GET, HEAD");
  }
  Reply head = Fetch(port(), "/api/matches/" + id, "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
  EXPECT_NE(head.headers["content-length"], "0");
  // A request with a body, or headers past the limit, is refused.
  EXPECT_EQ(Fetch(port(), "/", "GET", {"Content-Length: 5"}).status, 413);
  EXPECT_EQ(
      Fetch(port(), "/", "GET", {"X-Big: " + std::string(10000, 'x')}).status,
      431);
  // The match as JSON.
  const nlohmann::json m = nlohmann::json::parse(
      Fetch(port(), "/api/matches/" + id).body);
  EXPECT_EQ(m["id"], id);
  EXPECT_EQ(m["status"], "in_progress");
  EXPECT_EQ(m["game"], "craits");
  EXPECT_EQ(m["seats"][1]["name"], "bo");
  EXPECT_EQ(m["replay"], "public");
  EXPECT_EQ(m["links"]["events"], "/api/matches/" + id + "/events");
  const nlohmann::json list =
      nlohmann::json::parse(Fetch(port(), "/api/matches?status=in_progress").body);
  ASSERT_EQ(list["matches"].size(), 1u);
  EXPECT_EQ(list["matches"][0]["id"], id);
}

TEST_F(WebFrontTest, StreamResumesWithNothingMissedOrRepeated) {
  StartFront();
  const std::string id = NewMatch();
  const std::string events = "/api/matches/" + id + "/events";
  // Live: connected before anything is played, some events, then a drop.
  std::vector<uint64_t> seen;
  {
    Connection c(port(), "GET", events);
    Reply head;
    ASSERT_TRUE(c.ReadHead(&head));
    EXPECT_EQ(head.status, 200);
    EXPECT_THAT(head.headers["content-type"], HasSubstr("text/event-stream"));
    EXPECT_EQ(head.headers["cache-control"], "no-store");
    for (int i = 0; i < 10; ++i) Step(id, /*refuse_first=*/i == 3);
    Event e;
    while (seen.size() < 8) {
      ASSERT_TRUE(c.NextEvent(&e)) << "after " << seen.size() << " events";
      ASSERT_EQ(e.name, "step");
      seen.push_back(std::stoull(e.id));
      EXPECT_EQ(Data(e)["index"], seen.back());
    }
  }  // dropped
  for (int i = 0; i < 10; ++i) Step(id);
  // The browser's way back: Last-Event-ID.
  std::vector<Event> rest;
  {
    Connection c(port(), "GET", events + "?after=1",
                 {"Last-Event-ID: " + std::to_string(seen.back())});
    Reply head;
    ASSERT_TRUE(c.ReadHead(&head));
    PlayOut(id);
    Event e;
    while (c.NextEvent(&e)) {
      rest.push_back(e);
      if (e.name == "end") break;
    }
    EXPECT_TRUE(c.ClosedWithin(5000)) << "the stream did not end";
  }
  ASSERT_FALSE(rest.empty());
  EXPECT_EQ(rest.back().name, "end");
  EXPECT_EQ(Data(rest.back())["status"], "finished");
  for (size_t i = 0; i + 1 < rest.size(); ++i) seen.push_back(std::stoull(rest[i].id));
  // The whole stream of the match over, read at once: the same events.
  const std::vector<Event> all = ReadAll(events);
  std::vector<uint64_t> expected;
  for (const Event& e : all) {
    if (e.name == "step") expected.push_back(std::stoull(e.id));
  }
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(Data(all.front())["match"]["names"][1], "bo");
  // Public only: the refused submission's index is skipped, chance events
  // carry no card.
  bool chance = false;
  for (size_t i = 1; i < expected.size(); ++i) {
    EXPECT_GT(expected[i], expected[i - 1]);
  }
  EXPECT_NE(expected.back() - expected.front() + 1, expected.size())
      << "the refused submission was sent";
  for (const Event& e : all) {
    if (e.name != "step") continue;
    const nlohmann::json record = Data(e)["event"]["record"];
    EXPECT_FALSE(record.contains("rejected"));
    if (record.contains("chance")) {
      chance = true;
      EXPECT_FALSE(record["chance"].contains("cards")) << e.data;
    }
    // Held: a loop over a part of a temporary would read freed memory.
    const nlohmann::json data = Data(e);
    for (const auto& seat : data["step"]["table"]["seats"]) {
      EXPECT_FALSE(seat["visible"].get<bool>());
      EXPECT_TRUE(seat["hand"].empty());
    }
  }
  EXPECT_TRUE(chance);
  // ?after= resumes too.
  const std::vector<Event> tail = ReadAll(
      events + "?after=" + std::to_string(expected[expected.size() - 3]));
  ASSERT_EQ(tail.size(), 3u);
  EXPECT_EQ(std::stoull(tail[0].id), expected[expected.size() - 2]);
  EXPECT_EQ(tail[2].name, "end");
  EXPECT_EQ(Fetch(port(), events, "GET", {"Last-Event-ID: x"}).status, 400);
}

TEST_F(WebFrontTest, DelayHoldsEventsBackUntilDecisionsFollowOrTheEnd) {
  WebOptions options;
  options.delay_decisions = 4;
  StartFront(options);
  const std::string id = NewMatch();
  for (int i = 0; i < 6; ++i) Step(id);
  const std::string events = "/api/matches/" + id + "/events";
  // Index of every action so far, from the log's records as the API
  // shows them at the end.
  Connection c(port(), "GET", events + "?delay=0");  // less is not granted
  Reply head;
  ASSERT_TRUE(c.ReadHead(&head));
  std::vector<nlohmann::json> got;
  Event e;
  while (c.NextEvent(&e, 500)) got.push_back(Data(e));
  ASSERT_FALSE(got.empty());
  int actions_shown = 0;
  for (const nlohmann::json& d : got) {
    if (d["event"]["record"].contains("action")) ++actions_shown;
  }
  // 6 decisions made, 4 of them held back: the first 2 actions show.
  EXPECT_EQ(actions_shown, 2);
  Step(id);
  ASSERT_TRUE(c.NextEvent(&e, 5000));
  EXPECT_TRUE(Data(e)["event"]["record"].contains("action")) << e.data;
  // A viewer may ask for more delay.
  std::vector<Event> more;
  {
    Connection d(port(), "GET", events + "?delay=6");
    Reply h;
    ASSERT_TRUE(d.ReadHead(&h));
    int actions = 0;
    while (d.NextEvent(&e, 500)) {
      if (Data(e)["event"]["record"].contains("action")) ++actions;
    }
    EXPECT_EQ(actions, 1);
  }
  // At the end, everything.
  PlayOut(id);
  while (c.NextEvent(&e, 5000)) {
    if (e.name == "end") break;
  }
  EXPECT_EQ(e.name, "end");
}

TEST_F(WebFrontTest, StreamCapsRefuseCleanly) {
  WebOptions options;
  options.max_streams = 3;
  options.max_streams_per_client = 2;
  StartFront(options);
  const std::string id = NewMatch();
  const std::string events = "/api/matches/" + id + "/events";
  std::vector<std::unique_ptr<Connection>> open;
  for (int i = 0; i < 2; ++i) {
    open.push_back(std::make_unique<Connection>(port(), "GET", events));
    Reply head;
    ASSERT_TRUE(open.back()->ReadHead(&head));
    EXPECT_EQ(head.status, 200);
  }
  EXPECT_EQ(front_->streams().open_total(), 2);
  Reply mine = Fetch(port(), events);
  EXPECT_EQ(mine.status, 429);
  EXPECT_EQ(mine.headers["retry-after"], "10");
  EXPECT_THAT(mine.body, HasSubstr("this client address has 2 streams open"));
  // Pages are not streams: still served.
  EXPECT_EQ(Fetch(port(), "/matches/" + id).status, 200);
  // A client that leaves gives its slot back.
  open.pop_back();
  for (int i = 0; i < 100 && front_->streams().open_total() != 1; ++i) {
    absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_EQ(front_->streams().open_total(), 1);
  Connection again(port(), "GET", events);
  Reply head;
  ASSERT_TRUE(again.ReadHead(&head));
  EXPECT_EQ(head.status, 200);
}

TEST_F(WebFrontTest, TheWholeFrontCapRefusesWith503) {
  WebOptions options;
  options.max_streams = 1;
  options.max_streams_per_client = 0;
  StartFront(options);
  const std::string id = NewMatch();
  Connection first(port(), "GET", "/api/matches/" + id + "/events");
  Reply head;
  ASSERT_TRUE(first.ReadHead(&head));
  const Reply second = Fetch(port(), "/api/matches/" + id + "/events");
  EXPECT_EQ(second.status, 503);
  EXPECT_THAT(second.body, HasSubstr("the web front has 1 streams open"));
}

TEST_F(WebFrontTest, ATwinShowsItsIdAndStatusOnlyUntilItsDealSetIsOver) {
  StartFront();
  const std::string id = NewMatch({"secret-ann", "secret-bo"}, "set-1", 2);
  for (int i = 0; i < 4; ++i) Step(id);
  // Its twin is not even created yet: nothing but the id and status.
  const auto check_hidden = [&](const std::string& status) {
    const Reply api = Fetch(port(), "/api/matches/" + id);
    EXPECT_EQ(api.status, 200);
    EXPECT_EQ(nlohmann::json::parse(api.body),
              nlohmann::json({{"id", id},
                              {"status", status},
                              {"public", false},
                              {"replay", "none"}}));
    Reply events = Fetch(port(), "/api/matches/" + id + "/events");
    EXPECT_EQ(events.status, 403);
    EXPECT_THAT(events.body, HasSubstr("deal set"));
    EXPECT_EQ(events.headers["content-security-policy"], kContentSecurityPolicy);
    for (const std::string& target :
         {std::string("/"), std::string("/api/matches"), "/matches/" + id}) {
      const Reply r = Fetch(port(), target);
      EXPECT_EQ(r.status, 200) << target;
      EXPECT_THAT(r.body, Not(HasSubstr("secret-"))) << target;
      // The game's name (its id is in the match's id).
      EXPECT_THAT(r.body, Not(HasSubstr("Craits"))) << target;
      EXPECT_THAT(r.body, Not(HasSubstr("\"game\""))) << target;
      EXPECT_THAT(r.body, HasSubstr(id)) << target;
    }
    EXPECT_THAT(Fetch(port(), "/matches/" + id).body, HasSubstr("not public"));
  };
  check_hidden("in_progress");
  // Over, while its twin is played: still hidden.
  PlayOut(id);
  const std::string twin = NewMatch({"secret-cy", "secret-di"}, "set-1", 2);
  check_hidden("finished");
  for (int i = 0; i < 3; ++i) Step(twin);
  EXPECT_EQ(Fetch(port(), "/api/matches/" + twin + "/events").status, 403);
  // Both over: everything, the whole stream and the full replay.
  PlayOut(twin);
  for (const std::string& m : {id, twin}) {
    const nlohmann::json info =
        nlohmann::json::parse(Fetch(port(), "/api/matches/" + m).body);
    EXPECT_EQ(info["public"], true) << m;
    EXPECT_EQ(info["deal_set_id"], "set-1") << m;
    EXPECT_EQ(info["replay"], "full") << m;
    const std::vector<Event> all = ReadAll("/api/matches/" + m + "/events");
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.back().name, "end");
  }
}

TEST_F(WebFrontTest, ATwinOutOfMemoryStaysHiddenUntilItsDealSetIsOver) {
  StartFront({}, /*evict_after=*/absl::ZeroDuration());
  const std::string id = NewMatch({"secret-ann", "secret-bo"}, "set-2", 2);
  PlayOut(id);
  for (int i = 0; i < 200 && manager_->Find(id).ok(); ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  ASSERT_EQ(manager_->Find(id).status().code(),
            absl::StatusCode::kFailedPrecondition)
      << "the match is still in memory";
  Reply events = Fetch(port(), "/api/matches/" + id + "/events");
  EXPECT_EQ(events.status, 403);
  EXPECT_THAT(events.body, HasSubstr("deal set"));
  EXPECT_EQ(nlohmann::json::parse(Fetch(port(), "/api/matches/" + id).body)
                ["public"],
            false);
  EXPECT_THAT(Fetch(port(), "/matches/" + id).body, Not(HasSubstr("secret-")));
  const std::string twin = NewMatch({"cy", "di"}, "set-2", 2);
  PlayOut(twin);
  const nlohmann::json info =
      nlohmann::json::parse(Fetch(port(), "/api/matches/" + id).body);
  EXPECT_EQ(info["public"], true);
  EXPECT_EQ(info["seats"][0]["name"], "secret-ann");
  const std::vector<Event> all = ReadAll("/api/matches/" + id + "/events");
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.back().name, "end");
  EXPECT_EQ(Data(all.back())["status"], "finished");
}

TEST_F(WebFrontTest, AMatchOutOfMemoryIsReadFromItsLog) {
  StartFront({}, /*evict_after=*/absl::ZeroDuration());
  const std::string id = NewMatch();
  const std::string events = "/api/matches/" + id + "/events";
  std::vector<Event> live;
  {
    Connection c(port(), "GET", events);
    Reply head;
    ASSERT_TRUE(c.ReadHead(&head));
    PlayOut(id);
    Event e;
    while (c.NextEvent(&e)) {
      live.push_back(e);
      if (e.name == "end") break;
    }
  }
  for (int i = 0; i < 200 && manager_->Find(id).ok(); ++i) {
    absl::SleepFor(absl::Milliseconds(10));
  }
  ASSERT_EQ(manager_->Find(id).status().code(),
            absl::StatusCode::kFailedPrecondition)
      << "the match is still in memory";
  const std::vector<Event> archived = ReadAll(events);
  if (archived.size() != live.size()) {
    for (size_t i = 0; i < std::min(archived.size(), live.size()); ++i) {
      if (archived[i].id != live[i].id) {
        ADD_FAILURE() << "first difference at " << i << ": " << archived[i].id
                      << " " << archived[i].data.substr(0, 300) << "\nlive "
                      << live[i].id << " " << live[i].data.substr(0, 300);
        break;
      }
    }
  }
  ASSERT_EQ(archived.size(), live.size());
  for (size_t i = 0; i < live.size(); ++i) {
    EXPECT_EQ(archived[i].id, live[i].id);
    EXPECT_EQ(Data(archived[i]), Data(live[i])) << "event " << live[i].id;
  }
  // Over, its seed revealed: the page is the full replay.
  const nlohmann::json m =
      nlohmann::json::parse(Fetch(port(), "/api/matches/" + id).body);
  EXPECT_EQ(m["status"], "finished");
  EXPECT_EQ(m["replay"], "full");
  const std::string page = Fetch(port(), "/matches/" + id).body;
  EXPECT_THAT(page, HasSubstr("id=\"game-data\""));
  EXPECT_THAT(page, HasSubstr("final result: "));
}

}  // namespace
}  // namespace cardref::web
