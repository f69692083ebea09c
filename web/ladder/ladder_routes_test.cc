// The ladder's web front over a real SQLite store and a real log: the JSON
// shapes, hostile names as text, the owner-only addresses' 401/403/404 and
// the twin rule (nothing of a match but its state until its deal set is
// over).
#include "web/ladder/ladder_routes.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "games/all_games.h"
#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/open_store.h"
#include "ladder/tools/entrant_credential.h"
#include "nlohmann/json.hpp"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"
#include "web/ladder/ladder_front.h"
#include "web/testing/http_client.h"

namespace cardref::web {
namespace {

using nlohmann::json;

constexpr char kHostile[] = "<script>alert(1)</script>\"&'";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class LadderRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/cardref-web-ladder.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    db_ = dir_ + "/ladder.db";
    files_.logs = dir_ + "/logs";
    files_.bots = dir_ + "/bots";
    mkdir(files_.logs.c_str(), 0700);
    mkdir(files_.bots.c_str(), 0700);
    auto store = ladder::OpenStore(db_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    ladder::LadderConfig config;
    config.name = kHostile;  // the organiser's, but drawn as text all the same
    config.games = {{0, "craits", 3, {}, ""}};
    ASSERT_TRUE(store_->Initialize(config, 1).ok());
    game_id_ = store_->GetConfig()->games[0].id;
    for (const char* name : {"alice", "bob", "carol", "dave"}) {
      ASSERT_TRUE(store_->AddEntrant(name, 2).ok());
      auto v = store_->AddVersion(name, "bot", absl::StrCat("hash-", name), 3);
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_TRUE(store_->SetVersionStatus(v->id, ladder::VersionStatus::kRanked,
                                           "", 4)
                      .ok());
      versions_.push_back(v->id);
    }
    // A duplicate pair: two matches dealt from one seed.
    std::vector<ladder::NewMatch> pair;
    for (int i = 0; i < 2; ++i) {
      ladder::NewMatch m;
      m.game_id = game_id_;
      m.round = 1;
      m.deal_set = "r1";
      m.seed = std::string(64, 'a');
      m.seat_versions = i == 0 ? std::vector<int64_t>{versions_[0], versions_[1],
                                                      versions_[2]}
                               : std::vector<int64_t>{versions_[2], versions_[0],
                                                      versions_[1]};
      pair.push_back(m);
    }
    auto ids = store_->ScheduleMatches(pair, 5);
    ASSERT_TRUE(ids.ok()) << ids.status();
    first_ = (*ids)[0];
    second_ = (*ids)[1];
    // The first is played: its log kept under its hash, as the runner does.
    log_bytes_ = ReadFile(
        absl::StrCat(CARDREF_GOLDEN_LOG_DIR, "/craits_3p_short.cardlog"));
    ASSERT_FALSE(log_bytes_.empty());
    const std::string hash = ToHex(crypto::Sha256(log_bytes_));
    std::ofstream(LogPathOf(files_, hash), std::ios::binary) << log_bytes_;
    ladder::MatchResult result;
    result.match_id = first_;
    result.log_hash = hash;
    result.worker = "test";
    for (int s = 0; s < 3; ++s) {
      result.seats.push_back({s, versions_[s], s + 1, 10.0 - s});
    }
    auto recorded =
        store_->RecordResult(result, 6, ladder::RatePlackettLuce);
    ASSERT_TRUE(recorded.ok()) << recorded.status();
    std::ofstream(absl::StrCat(files_.bots, "/m", first_, ".seat0.stderr"))
        << "alice thinks <hard>\n";
    std::ofstream(absl::StrCat(files_.bots, "/m", first_, ".seat1.stderr"))
        << "bob's secret\n";
    auto alice = ladder::IssueEntrantCredential(*store_, "alice", 7);
    auto dave = ladder::IssueEntrantCredential(*store_, "dave", 7);
    ASSERT_TRUE(alice.ok() && dave.ok());
    alice_ = *alice;
    dave_ = *dave;
    LadderRoutesOptions options;
    options.files = files_;
    routes_ = std::make_unique<LadderRoutes>(store_.get(), &AllGames(), options);
  }

  void TearDown() override {
    routes_.reset();
    store_.reset();
    std::system(absl::StrCat("rm -rf '", dir_, "'").c_str());
  }

  HttpAnswer Get(const std::string& path, const std::string& credential = "",
                 const std::string& query = "") {
    HttpRequest r;
    r.method = "GET";
    r.path = path;
    r.query = query;
    r.client = "127.0.0.1";
    if (!credential.empty()) r.authorization = "Bearer " + credential;
    return routes_->Handle(r);
  }

  static json Body(const HttpAnswer& a) {
    return json::parse(a.response.body, nullptr, false);
  }

  static std::string Header(const HttpAnswer& a, const std::string& name) {
    for (const auto& [n, v] : a.response.headers) {
      if (n == name) return v;
    }
    return "";
  }

  void FinishTheDealSet() {
    ASSERT_TRUE(store_->VoidMatch(second_, "a bot never joined", 8).ok());
  }

  // Renames an entrant behind the store's back, as a store of an older
  // build (or a hand edit) may hold any text.
  void Rename(const std::string& from, const std::string& to) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE entrants SET name = ?1 WHERE "
                                     "name = ?2",
                                 -1, &stmt, nullptr),
              SQLITE_OK);
    sqlite3_bind_text(stmt, 1, to.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(stmt, 2, from.c_str(), -1, SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
  }

  std::string dir_, db_;
  LadderFiles files_;
  std::unique_ptr<ladder::LadderStore> store_;
  std::unique_ptr<LadderRoutes> routes_;
  int64_t game_id_ = 0, first_ = 0, second_ = 0;
  std::vector<int64_t> versions_;
  std::string log_bytes_, alice_, dave_;
};

TEST_F(LadderRoutesTest, StandingsJsonRanksByConservativeRating) {
  const HttpAnswer a = Get("/api/standings");
  ASSERT_EQ(a.response.status, 200) << a.response.body;
  EXPECT_EQ(a.response.content_type, "application/json; charset=utf-8");
  const json j = Body(a);
  EXPECT_EQ(j["ladder"], kHostile);
  ASSERT_EQ(j["games"].size(), 1u);
  const json& rows = j["games"][0]["standings"];
  EXPECT_EQ(j["games"][0]["label"], "craits:3");
  ASSERT_EQ(rows.size(), 3u);  // dave has no rating yet
  EXPECT_EQ(rows[0]["entrant"], "alice");  // ranked first in the one game
  EXPECT_EQ(rows[0]["rank"], 1);
  EXPECT_EQ(rows[0]["games"], 1);
  for (size_t i = 0; i < rows.size(); ++i) {
    const double mu = rows[i]["mu"], sigma = rows[i]["sigma"];
    EXPECT_DOUBLE_EQ(rows[i]["conservative"].get<double>(), mu - 3 * sigma);
    EXPECT_DOUBLE_EQ(rows[i]["interval"][0].get<double>(), mu - 3 * sigma);
    EXPECT_DOUBLE_EQ(rows[i]["interval"][1].get<double>(), mu + 3 * sigma);
    EXPECT_EQ(rows[i]["last_game_micros"], 6);
    if (i > 0) {
      EXPECT_GE(rows[i - 1]["conservative"].get<double>(),
                rows[i]["conservative"].get<double>());
    }
  }
}

TEST_F(LadderRoutesTest, EntrantsAndEntrantJson) {
  const json all = Body(Get("/api/entrants"));
  ASSERT_EQ(all["entrants"].size(), 4u);
  EXPECT_EQ(all["entrants"][0]["name"], "alice");
  EXPECT_EQ(all["entrants"][0]["active_version"], versions_[0]);
  EXPECT_EQ(all["entrants"][0]["links"]["page"], "/entrants/alice");
  const HttpAnswer a = Get("/api/entrants/alice");
  ASSERT_EQ(a.response.status, 200) << a.response.body;
  const json j = Body(a);
  EXPECT_EQ(j["name"], "alice");
  ASSERT_EQ(j["versions"].size(), 1u);
  EXPECT_EQ(j["versions"][0]["status"], "ranked");
  ASSERT_EQ(j["ratings"].size(), 1u);
  EXPECT_EQ(j["ratings"][0]["history"].size(), 2u);  // prior, after game 1
  EXPECT_EQ(j["recent_matches"].size(), 2u);
  EXPECT_EQ(Get("/api/entrants/nobody").response.status, 404);
  EXPECT_EQ(Get("/entrants/nobody").response.status, 404);
}

TEST_F(LadderRoutesTest, AMatchOfADealSetInPlayShowsItsStateOnly) {
  json m = Body(Get(absl::StrCat("/api/matches/", first_)));
  EXPECT_EQ(m["state"], "finished");
  EXPECT_EQ(m["deal_set_over"], false);
  EXPECT_FALSE(m.contains("seats"));
  EXPECT_FALSE(m.contains("seed"));
  const HttpAnswer page = Get(absl::StrCat("/matches/", first_));
  EXPECT_EQ(page.response.status, 200);
  EXPECT_TRUE(absl::StrContains(page.response.body, "not shown yet"));
  EXPECT_FALSE(absl::StrContains(page.response.body, "game-data"));
  // Nor through the entrant's page or the list.
  const std::string listed = Get("/api/matches").response.body;
  EXPECT_FALSE(absl::StrContains(listed, "\"rank\""));
  EXPECT_FALSE(absl::StrContains(listed, std::string(64, 'a')));
  // Its owner cannot download it either: it holds the deal.
  const HttpAnswer log = Get(absl::StrCat("/api/matches/", first_, "/log"), alice_);
  EXPECT_EQ(log.response.status, 403);
  EXPECT_TRUE(absl::StrContains(log.response.body, "deal set"));

  FinishTheDealSet();
  m = Body(Get(absl::StrCat("/api/matches/", first_)));
  EXPECT_EQ(m["deal_set_over"], true);
  ASSERT_EQ(m["seats"].size(), 3u);
  EXPECT_EQ(m["seats"][0]["entrant"], "alice");
  EXPECT_EQ(m["seats"][0]["rank"], 1);
  EXPECT_FALSE(m.dump().find(std::string(64, 'a')) != std::string::npos);
  const HttpAnswer replay = Get(absl::StrCat("/matches/", first_));
  EXPECT_EQ(replay.response.status, 200);
  EXPECT_TRUE(absl::StrContains(replay.response.body, "id=\"game-data\""));
  const json voided = Body(Get(absl::StrCat("/api/matches/", second_)));
  EXPECT_EQ(voided["reason"], "a bot never joined");
}

TEST_F(LadderRoutesTest, OwnerOnlyNeedsItsOwnCredential) {
  const std::string stderr_path = absl::StrCat("/api/matches/", first_, "/stderr");
  HttpAnswer a = Get(stderr_path);
  EXPECT_EQ(a.response.status, 401);
  EXPECT_EQ(Header(a, "WWW-Authenticate"), "Bearer realm=\"cardref ladder\"");
  EXPECT_TRUE(absl::StrContains(a.response.body, "Authorization: Bearer"));
  EXPECT_EQ(Get(stderr_path, "cardref-entrant-wrong").response.status, 401);
  a = Get(stderr_path, dave_);
  EXPECT_EQ(a.response.status, 403);
  EXPECT_TRUE(absl::StrContains(a.response.body, "not a game of entrant 'dave'"));
  EXPECT_EQ(Get("/api/matches/999/stderr", alice_).response.status, 404);

  a = Get(stderr_path, alice_);
  ASSERT_EQ(a.response.status, 200) << a.response.body;
  json j = Body(a);
  EXPECT_EQ(j["entrant"], "alice");
  ASSERT_EQ(j["seats"].size(), 1u);  // alice's seat only, never bob's
  EXPECT_EQ(j["seats"][0]["seat"], 0);
  EXPECT_EQ(j["seats"][0]["stderr"], "alice thinks <hard>\n");
  EXPECT_FALSE(absl::StrContains(a.response.body, "bob's secret"));

  a = Get(absl::StrCat("/api/matches/", first_, "/timings"), alice_);
  ASSERT_EQ(a.response.status, 200) << a.response.body;
  j = Body(a);
  ASSERT_EQ(j["seats"].size(), 1u);
  EXPECT_GT(j["seats"][0]["decisions"].get<int>(), 0);
  EXPECT_EQ(j["seats"][0]["moves"].size(),
            j["seats"][0]["decisions"].get<size_t>());

  FinishTheDealSet();
  a = Get(absl::StrCat("/api/matches/", first_, "/log"), alice_);
  ASSERT_EQ(a.response.status, 200) << a.response.body;
  EXPECT_EQ(a.response.body, log_bytes_);
  EXPECT_EQ(a.response.content_type, "application/octet-stream");
  EXPECT_EQ(Get(absl::StrCat("/api/matches/", first_, "/log"), dave_)
                .response.status,
            403);
  // Revoked: unknown again.
  ASSERT_TRUE(store_->RevokeEntrantCredentials("alice", 9).ok());
  EXPECT_EQ(Get(stderr_path, alice_).response.status, 401);
}

TEST_F(LadderRoutesTest, HostileNamesAreText) {
  FinishTheDealSet();
  Rename("carol", kHostile);
  for (const std::string& path :
       {std::string("/"), std::string("/matches"),
        absl::StrCat("/entrants/", kHostile)}) {
    const HttpAnswer a = Get(path);
    ASSERT_EQ(a.response.status, 200) << path;
    EXPECT_FALSE(absl::StrContains(a.response.body, "<script>alert"))
        << path;
    EXPECT_TRUE(absl::StrContains(a.response.body,
                                  "&lt;script&gt;alert(1)&lt;/script&gt;"))
        << path;
    EXPECT_TRUE(absl::StrContains(Header(a, "Content-Security-Policy"),
                                  "script-src 'self'"));
    EXPECT_FALSE(absl::StrContains(a.response.body, "<script"))
        << "the ladder's pages hold no script: " << path;
  }
  // The link to its page is percent-encoded.
  EXPECT_TRUE(absl::StrContains(Get("/").response.body,
                                "/entrants/%3Cscript%3Ealert"));
  EXPECT_EQ(Body(Get(absl::StrCat("/api/entrants/", kHostile)))["name"],
            kHostile);
}

TEST_F(LadderRoutesTest, ReadOnlyAndUnknownAddresses) {
  HttpRequest post;
  post.method = "POST";
  post.path = "/api/standings";
  EXPECT_EQ(routes_->Handle(post).response.status, 405);
  EXPECT_EQ(Get("/api/nothing").response.status, 404);
  EXPECT_EQ(Get("/nothing").response.status, 404);
  EXPECT_EQ(Get("/api/matches/abc").response.status, 404);
  EXPECT_EQ(Get("/matches/-1").response.status, 404);
  EXPECT_EQ(Get("/api/matches", "", "limit=0").response.status, 400);
  EXPECT_EQ(Body(Get("/api/matches", "", "limit=1"))["matches"].size(), 1u);
  EXPECT_EQ(Get("/assets/ladder.css").response.status, 200);
}

TEST_F(LadderRoutesTest, TheFrontServesOverHttp) {
  LadderFrontOptions options;
  options.db = db_;
  options.routes.files = files_;
  auto front = LadderFront::Start(options, &AllGames());
  ASSERT_TRUE(front.ok()) << front.status();
  const testing::Reply r = testing::Fetch((*front)->port(), "/api/entrants");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body)["entrants"].size(), 4u);
  const testing::Reply owner = testing::Fetch(
      (*front)->port(), absl::StrCat("/api/matches/", first_, "/stderr"), "GET",
      {"Authorization: Bearer " + alice_});
  EXPECT_EQ(owner.status, 200) << owner.body;
  LadderFrontOptions missing;
  missing.db = dir_ + "/none.db";
  EXPECT_FALSE(LadderFront::Start(missing, &AllGames()).ok());
}

}  // namespace
}  // namespace cardref::web
