// Which folder a bot sees: its program's; its script's when the program
// is an interpreter in a system folder; or the one named.
#include "sandbox/bot_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::sandbox {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string MakeFile(const std::filesystem::path& path, bool executable) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\n";
  chmod(path.c_str(), executable ? 0755 : 0644);
  return std::filesystem::canonical(path).string();
}

TEST(InSystemFolder, SystemFoldersAndNotTheirNamesakes) {
  EXPECT_TRUE(InSystemFolder("/usr"));
  EXPECT_TRUE(InSystemFolder("/usr/bin/python3"));
  EXPECT_TRUE(InSystemFolder("/etc/hosts"));
  EXPECT_FALSE(InSystemFolder("/usrx/bot"));
  EXPECT_FALSE(InSystemFolder("/home/bot/usr/bin"));
  EXPECT_FALSE(InSystemFolder("/opt/bot"));
}

TEST(ResolveBotFolder, TheProgramsFolder) {
  const auto dir = testing_util::FreshTestDir("folder_");
  const std::string bot = MakeFile(dir / "alice" / "bot", true);
  absl::StatusOr<BotFolder> f = ResolveBotFolder({bot, "--seat=0"}, "");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->folder, std::filesystem::canonical(dir / "alice").string());
  EXPECT_THAT(f->argv, ElementsAre(bot, "--seat=0"));
}

TEST(ResolveBotFolder, ARelativeOrLinkedProgramIsMadeReal) {
  const auto dir = testing_util::FreshTestDir("folder_");
  const std::string bot = MakeFile(dir / "real" / "bot", true);
  std::filesystem::create_directories(dir / "links");
  std::filesystem::create_symlink(bot, dir / "links" / "bot");
  const std::string cwd = std::filesystem::current_path().string();
  std::filesystem::current_path(dir);
  absl::StatusOr<BotFolder> f = ResolveBotFolder({"links/bot"}, "");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->folder, std::filesystem::canonical(dir / "real").string());
  EXPECT_EQ(f->argv[0], bot);
}

TEST(ResolveBotFolder, AnInterpretersScript) {
  const auto dir = testing_util::FreshTestDir("folder_");
  const std::string script = MakeFile(dir / "bob" / "bot.sh", false);
  // /bin/sh is in a system folder: the first argument naming a file
  // outside them chooses (an option or a missing file does not).
  absl::StatusOr<BotFolder> f =
      ResolveBotFolder({"sh", "-e", "/etc/hostname", "nofile", script, "x"}, "");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->folder, std::filesystem::canonical(dir / "bob").string());
  EXPECT_THAT(f->argv, ElementsAre("sh", "-e", "/etc/hostname", "nofile", script, "x"));
}

TEST(ResolveBotFolder, AnInterpreterWithoutAFileMustBeTold) {
  absl::StatusOr<BotFolder> f = ResolveBotFolder({"/bin/sh", "-c", "echo"}, "");
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(f.status().message()), HasSubstr("name the bot's folder"));
}

TEST(ResolveBotFolder, TheNamedFolderWins) {
  const auto dir = testing_util::FreshTestDir("folder_");
  const std::string bot = MakeFile(dir / "a" / "bot", true);
  std::filesystem::create_directories(dir / "data");
  absl::StatusOr<BotFolder> f = ResolveBotFolder({bot}, (dir / "data").string());
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->folder, std::filesystem::canonical(dir / "data").string());
  EXPECT_EQ(ResolveBotFolder({bot}, (dir / "none").string()).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ResolveBotFolder, MissingProgramsAndTheRoot) {
  EXPECT_EQ(ResolveBotFolder({"/nonexistent/bot"}, "").status().code(),
            absl::StatusCode::kNotFound);
  absl::StatusOr<BotFolder> f = ResolveBotFolder({"no-such-program-xyz"}, "");
  EXPECT_EQ(f.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(f.status().message()), HasSubstr("PATH"));
  EXPECT_EQ(ResolveBotFolder({}, "").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResolveBotFolder({"/bin/sh"}, "/").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::sandbox
