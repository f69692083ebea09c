// The folders sandboxed bots may read: --bot_folder's checks, and the
// check, made before an event plays, that a bot's uid (no groups) can
// reach and read its folder.
#include "tournament/bot_folders.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::tournament {
namespace {

using ::testing::HasSubstr;

const std::vector<BotSpec> kBots = {{"alice", {"/usr/bin/true"}},
                                    {"bob", {"/usr/bin/true"}}};

TEST(BotFoldersTest, AddsNamedFoldersOfKnownBotsOnce) {
  BotFolders folders;
  EXPECT_TRUE(AddBotFolder("alice=/srv/alice", kBots, &folders).ok());
  EXPECT_THAT(folders, testing::ElementsAre(testing::Pair("alice", "/srv/alice")));
  for (const char* bad : {"alice", "=/srv", "alice=", "carol=/srv/carol",
                          "alice=/srv/other"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(AddBotFolder(bad, kBots, &folders).code(),
              absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(folders.size(), 1u);
}

TEST(BotFoldersTest, AFolderItsUidCannotReadIsRefusedNamingTheFix) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("bot_folders_test_");
  chmod(dir.c_str(), 0755);
  const std::filesystem::path open_folder = dir / "open";
  const std::filesystem::path closed = dir / "closed";
  for (const auto& folder : {open_folder, closed}) {
    std::filesystem::create_directory(folder);
    std::ofstream(folder / "bot.py") << "print('hi')\n";
  }
  chmod(open_folder.c_str(), 0755);
  chmod(closed.c_str(), 0700);
  // The script's folder, as the sandbox finds it.
  const std::vector<BotSpec> bots = {
      {"open", {"/usr/bin/python3", (open_folder / "bot.py").string()}},
      {"closed", {"/usr/bin/python3", (closed / "bot.py").string()}}};
  EXPECT_TRUE(CheckBotFolders({bots[0]}, {}).ok());
  const absl::Status refused = CheckBotFolders(bots, {});
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.message(), HasSubstr("bot 'closed'"));
  EXPECT_THAT(refused.message(), HasSubstr("chmod o+rx"));
  // Another folder named for it will do.
  EXPECT_TRUE(
      CheckBotFolders(bots, {{"closed", open_folder.string()}}).ok());
  // A folder above it that others cannot pass through.
  chmod(dir.c_str(), 0750);
  const absl::Status above = CheckBotFolders({bots[0]}, {});
  EXPECT_THAT(above.message(), HasSubstr("pass through"));
  chmod(dir.c_str(), 0755);
  // An interpreter without a script names no folder: the message says to
  // name one.
  const absl::Status no_script =
      CheckBotFolders({{"bare", {"/usr/bin/python3", "-c", "pass"}}}, {});
  EXPECT_FALSE(no_script.ok());
  EXPECT_THAT(no_script.message(), HasSubstr("--bot_folder=bare=DIR"));
}

}  // namespace
}  // namespace cardref::tournament
