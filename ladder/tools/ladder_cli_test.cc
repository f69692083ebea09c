#include "ladder/tools/ladder_cli.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "ladder/rating/rate_result.h"
#include "ladder/store/sqlite_store.h"
#include "ladder/store/testing/store_testing.h"
#include "nlohmann/json.hpp"

namespace cardref::ladder::cli {
namespace {

TEST(LadderCliTest, InitAddRankAndStandings) {
  const std::string store = testing::FreshPath("ladder.db");
  std::ostringstream out;
  InitOptions init;
  init.store = store;
  init.name = "spring";
  init.games = "craits:3,kraken:4";
  ASSERT_TRUE(Init(init, 1, out).ok());
  EXPECT_TRUE(absl::StrContains(out.str(), "kraken:4 (teams 0,1,0,1)"))
      << out.str();
  EXPECT_EQ(Init(init, 2, out).code(), absl::StatusCode::kAlreadyExists);

  const std::string bot = testing::FreshPath("bot.sh");
  std::ofstream(bot) << "#!/bin/sh\n";
  for (const char* name : {"alice", "bob", "carol"}) {
    AddOptions add;
    add.store = store;
    add.entrant = name;
    add.command = bot + " --name=" + name;
    if (std::string(name) != "alice") add.content_hash = std::string(name);
    ASSERT_TRUE(Add(add, 3, out).ok()) << name;
  }
  // The same program again is the same version.
  AddOptions again;
  again.store = store;
  again.entrant = "alice";
  again.command = bot + " --other-flag";
  EXPECT_EQ(Add(again, 4, out).code(), absl::StatusCode::kAlreadyExists);
  again.command = "/no/such/bot";
  EXPECT_EQ(Add(again, 4, out).code(), absl::StatusCode::kNotFound);

  for (int64_t v = 1; v <= 3; ++v) {
    ASSERT_TRUE(SetStatus(store, v, "ranked", "", 5, out).ok());
  }
  EXPECT_EQ(SetStatus(store, 1, "validating", "", 5, out).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(SetStatus(store, 1, "famous", "", 5, out).code(),
            absl::StatusCode::kInvalidArgument);

  // Bob wins a game.
  {
    auto opened = SqliteStore::Open(store);
    ASSERT_TRUE(opened.ok());
    NewMatch match;
    match.game_id = 1;
    match.seed = testing::FakeHash(1);
    match.seat_versions = {1, 2, 3};
    auto id = (*opened)->ScheduleMatch(match, 6);
    ASSERT_TRUE(id.ok());
    MatchResult result;
    result.match_id = *id;
    result.log_hash = testing::FakeHash(2);
    result.worker = "w";
    result.seats = {{0, 1, 2, 0}, {1, 2, 1, 0}, {2, 3, 3, 0}};
    ASSERT_TRUE((*opened)->RecordResult(result, 7, RatePlackettLuce).ok());
  }

  std::ostringstream text;
  ASSERT_TRUE(Standings(store, "craits:3", "text", text).ok());
  const std::string table = text.str();
  EXPECT_TRUE(absl::StrContains(table, "craits:3: 3 ranked versions"))
      << table;
  EXPECT_LT(table.find("bob"), table.find("alice")) << table;
  EXPECT_LT(table.find("alice"), table.find("carol")) << table;

  std::ostringstream json_out;
  ASSERT_TRUE(Standings(store, "", "json", json_out).ok());
  const nlohmann::json json = nlohmann::json::parse(json_out.str());
  EXPECT_EQ(json["ladder"], "spring");
  ASSERT_EQ(json["games"].size(), 2u);
  EXPECT_EQ(json["games"][0]["standings"][0]["entrant"], "bob");
  EXPECT_EQ(json["games"][0]["standings"][0]["games"], 1);
  // Kraken has not been played: everyone at the prior, rating 0.
  EXPECT_DOUBLE_EQ(json["games"][1]["standings"][0]["rating"].get<double>(),
                   0.0);
  EXPECT_EQ(Standings(store, "chess:2", "text", out).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(Standings(store, "", "xml", out).code(),
            absl::StatusCode::kInvalidArgument);

  // Backup and restore keep the standings.
  const std::string backup = testing::FreshPath("backup.db");
  const std::string restored = testing::FreshPath("restored.db");
  ASSERT_TRUE(Backup(store, backup, out).ok());
  ASSERT_TRUE(Restore(backup, restored, out).ok());
  std::ostringstream restored_json;
  ASSERT_TRUE(Standings(restored, "", "json", restored_json).ok());
  EXPECT_EQ(restored_json.str(), json_out.str());

  // The JSON names each entry's player; the CSV has one row per version in
  // the same order.
  EXPECT_EQ(json["games"][0]["standings"][0]["player"], "bob-v2");
  std::ostringstream csv;
  ASSERT_TRUE(Standings(store, "craits:3", "csv", csv).ok());
  EXPECT_TRUE(absl::StartsWith(
      csv.str(),
      "game,players,rank,player,entrant,version,rating,mu,sigma,games\n"
      "craits,3,1,bob-v2,bob,2,"))
      << csv.str();

  // A rejected version shows why, in `versions` and under the standings.
  AddOptions dave;
  dave.store = store;
  dave.entrant = "dave";
  dave.command = bot;
  dave.content_hash = "dave";
  ASSERT_TRUE(Add(dave, 8, out).ok());
  ASSERT_TRUE(SetStatus(store, 4, "rejected", "crashed: exit status 3", 9, out)
                  .ok());
  std::ostringstream versions;
  ASSERT_TRUE(Versions(store, "json", versions).ok());
  const nlohmann::json listed = nlohmann::json::parse(versions.str());
  ASSERT_EQ(listed.size(), 4u);
  EXPECT_EQ(listed[3]["status"], "rejected");
  EXPECT_EQ(listed[3]["reason"], "crashed: exit status 3");
  std::ostringstream with_reason;
  ASSERT_TRUE(Standings(store, "", "text", with_reason).ok());
  EXPECT_TRUE(absl::StrContains(with_reason.str(),
                                "rejected: dave version 4: crashed: exit "
                                "status 3"))
      << with_reason.str();

  // Export: one row per seat of each recorded result.
  std::ostringstream exported;
  ASSERT_TRUE(Export(store, "", "csv", exported).ok());
  EXPECT_TRUE(absl::StrContains(
      exported.str(), absl::StrCat(",rated,,", testing::FakeHash(2),
                                   ",w,1,bob-v2,2,1,0\n")))
      << exported.str();
  std::ostringstream exported_json;
  ASSERT_TRUE(Export(store, "craits:3", "json", exported_json).ok());
  const nlohmann::json results = nlohmann::json::parse(exported_json.str());
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["seats"].size(), 3u);
  EXPECT_EQ(Export(store, "", "xml", out).code(),
            absl::StatusCode::kInvalidArgument);

  // Freezing stops new versions; thawing takes them again.
  ASSERT_TRUE(Freeze(store, true, out).ok());
  dave.content_hash = "dave2";
  EXPECT_EQ(Add(dave, 10, out).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(Freeze(store, false, out).ok());
  EXPECT_TRUE(Add(dave, 11, out).ok());
}

TEST(LadderCliTest, CommandsOnAMissingStoreFail) {
  std::ostringstream out;
  EXPECT_EQ(Standings(testing::FreshPath("none.db"), "", "text", out).code(),
            absl::StatusCode::kNotFound);
  InitOptions init;
  init.store = testing::FreshPath("ladder.db");
  init.name = "x";
  init.games = "craits";
  EXPECT_EQ(Init(init, 1, out).code(), absl::StatusCode::kInvalidArgument);
  init.games = "chess:2";  // a game this build does not know
  EXPECT_EQ(Init(init, 1, out).code(), absl::StatusCode::kInvalidArgument);
  init.games = "kraken:3";  // Kraken is for 4
  EXPECT_EQ(Init(init, 1, out).code(), absl::StatusCode::kInvalidArgument);
}

// A version is what its bot could read in the sandbox: the folder of its
// program (or script), not the program alone.
TEST(LadderCliTest, AVersionIsItsBotsFolder) {
  std::ostringstream out;
  InitOptions init;
  init.store = testing::FreshPath("ladder.db");
  init.name = "x";
  init.games = "craits:3";
  ASSERT_TRUE(Init(init, 1, out).ok());
  const std::filesystem::path folder =
      std::filesystem::path(testing::FreshPath("bot")).parent_path() / "bot";
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "run.py") << "print('hi')\n";
  std::ofstream(folder / "weights.txt") << "1 2 3\n";
  AddOptions add;
  add.store = init.store;
  add.entrant = "alice";
  // An interpreter in a system folder: the script's folder counts.
  add.command = "/usr/bin/python3 " + (folder / "run.py").string();
  ASSERT_TRUE(Add(add, 2, out).ok()) << out.str();
  EXPECT_EQ(Add(add, 3, out).code(), absl::StatusCode::kAlreadyExists);
  // A changed data file beside the script is a new version.
  std::ofstream(folder / "weights.txt") << "3 2 1\n";
  EXPECT_TRUE(Add(add, 4, out).ok());
}

TEST(LadderCliTest, ARemoteEntrantHasOneVersionAndNoCommand) {
  std::ostringstream out;
  InitOptions init;
  init.store = testing::FreshPath("ladder.db");
  init.name = "x";
  init.games = "craits:3";
  ASSERT_TRUE(Init(init, 1, out).ok());
  AddOptions add;
  add.store = init.store;
  add.entrant = "far";
  add.remote = true;
  ASSERT_TRUE(Add(add, 2, out).ok());
  EXPECT_TRUE(absl::StrContains(out.str(), init.store +
                                               ".d/credentials/far-v1."
                                               "credential"))
      << out.str();
  EXPECT_EQ(Add(add, 3, out).code(), absl::StatusCode::kAlreadyExists);
  add.command = "/bin/true";  // a remote bot has no command here
  EXPECT_EQ(Add(add, 3, out).code(), absl::StatusCode::kInvalidArgument);
  AddOptions fake;
  fake.store = init.store;
  fake.entrant = "sly";
  fake.command = "remote:far";
  fake.content_hash = "x";
  EXPECT_EQ(Add(fake, 4, out).code(), absl::StatusCode::kInvalidArgument);
  std::ostringstream listed;
  ASSERT_TRUE(Versions(init.store, "json", listed).ok());
  const nlohmann::json versions = nlohmann::json::parse(listed.str());
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0]["command"], "remote:far");
}

}  // namespace
}  // namespace cardref::ladder::cli
