#include "tournament/event_state.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::tournament {
namespace {

std::string TempDir() {
  char name[] = "/tmp/event_state_XXXXXX";
  return mkdtemp(name);
}

TEST(EventStateTest, TheEventFolderIsMadeWithItsParents) {
  const std::string top = TempDir();
  // As docs/bots.md writes it: --out=events/first, events/ not made yet.
  const std::string dir = top + "/events/first";
  absl::StatusOr<std::string> secret = LoadOrCreateSecret(dir);
  ASSERT_TRUE(secret.ok()) << secret.status();
  EXPECT_EQ(secret->size(), 32u);
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  absl::StatusOr<std::string> again = LoadOrCreateSecret(dir + "/");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *secret);
  // A parent that is a file cannot be made: said so, naming the folder.
  ASSERT_TRUE(std::ofstream(top + "/file").good());
  absl::StatusOr<std::string> refused = LoadOrCreateSecret(top + "/file/x/y");
  EXPECT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              ::testing::HasSubstr("cannot create the event folder " + top +
                                   "/file/x/y"));
  std::filesystem::remove_all(top);
}

TEST(EventStateTest, RecordsSurviveAReopen) {
  const std::string dir = TempDir();
  {
    absl::StatusOr<EventState> state = EventState::Open(dir);
    ASSERT_TRUE(state.ok()) << state.status();
    EXPECT_FALSE(state->Played("a"));
    ASSERT_TRUE(state->Record({"a", "finished", "m1", "/l/1", ""}).ok());
    ASSERT_TRUE(
        state->Record({"b", "cancelled", "m2", "", "seat 1\tcrashed\nx"}).ok());
  }
  absl::StatusOr<EventState> state = EventState::Open(dir);
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_TRUE(state->Played("a"));
  EXPECT_TRUE(state->Played("b"));
  EXPECT_FALSE(state->Played("c"));
  // Tabs and newlines in a reason cannot break the file's lines.
  EXPECT_EQ(state->records().at("b").reason, "seat 1 crashed | x");
  EXPECT_FALSE(std::filesystem::exists(dir + "/matches.tsv.tmp"));
  std::filesystem::remove_all(dir);
}

TEST(EventStateTest, DamagedFileNamesTheLine) {
  const std::string dir = TempDir();
  std::ofstream(dir + "/matches.tsv") << "a\tfinished\tm\tl\t\nbroken line\n";
  absl::StatusOr<EventState> state = EventState::Open(dir);
  ASSERT_FALSE(state.ok());
  EXPECT_THAT(std::string(state.status().message()),
              testing::HasSubstr("matches.tsv:2: expected key, outcome"));
  std::filesystem::remove_all(dir);
}

TEST(EventStateTest, SecretIsKeptPrivateAndStable) {
  const std::string dir = TempDir() + "/event";
  absl::StatusOr<std::string> first = LoadOrCreateSecret(dir);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->size(), 32u);
  struct stat st;
  ASSERT_EQ(stat((dir + "/event.secret").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  absl::StatusOr<std::string> again = LoadOrCreateSecret(dir);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*first, *again);
  std::ofstream(dir + "/event.secret") << "not hex\n";
  EXPECT_FALSE(LoadOrCreateSecret(dir).ok());
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// Bots run as other users beside the event: the folder and the schedule
// (which names every twin of a deal set) are the organiser's alone, also
// for a folder an earlier version made world-readable.
TEST(EventStateTest, TheEventFolderAndItsScheduleAreOwnerOnly) {
  const std::string dir = TempDir() + "/event";
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0);
  ASSERT_TRUE(LoadOrCreateSecret(dir).ok());
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  absl::StatusOr<EventState> state = EventState::Open(dir);
  ASSERT_TRUE(state.ok()) << state.status();
  ASSERT_TRUE(state->Record({"a", "finished", "m1", "/l/1", ""}).ok());
  ASSERT_EQ(stat((dir + "/matches.tsv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

}  // namespace
}  // namespace cardref::tournament
