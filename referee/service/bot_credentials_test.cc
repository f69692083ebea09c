// The bot credentials file: hashes only, owner-only, read back after a
// restart, and a damaged or open file refused.
#include "referee/service/bot_credentials.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::service {
namespace {

using ::testing::HasSubstr;

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(BotCredentialsTest, CredentialsAreKeptHashedAndReadBackAfterARestart) {
  const std::string path =
      testing_util::FreshTestDir("bot_credentials_test").string() +
      "/bot_credentials";
  std::string alice;
  {
    auto store = BotCredentials::Open(path);
    ASSERT_TRUE(store.ok()) << store.status();
    auto issued = (*store)->Issue("alice", 300, false, 1000, absl::Now());
    ASSERT_TRUE(issued.ok()) << issued.status();
    alice = issued->credential;
    EXPECT_EQ(alice.size(), kBotCredentialChars);
    ASSERT_TRUE((*store)->Issue("bob", 0, false, 1000, absl::Now()).ok());
    EXPECT_EQ((*store)->Issue("carol", 1001, false, 1000, absl::Now())
                  .status()
                  .code(),
              absl::StatusCode::kInvalidArgument);
  }
  EXPECT_THAT(Read(path), ::testing::Not(HasSubstr(alice)));
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = BotCredentials::Open(path);
  ASSERT_TRUE(again.ok()) << again.status();
  std::optional<BotEntrant> found = (*again)->FindByCredential(alice);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->name, "alice");
  EXPECT_EQ(found->latency_allowance_millis, 300);
  EXPECT_TRUE((*again)->IsEntrant("bob"));
  EXPECT_FALSE((*again)->FindByCredential(alice + "0").has_value());
  ASSERT_TRUE((*again)->Revoke("alice").ok());
  EXPECT_EQ((*again)->Revoke("alice").status().code(),
            absl::StatusCode::kNotFound);
  auto third = BotCredentials::Open(path);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE((*third)->IsEntrant("alice"));
  EXPECT_EQ((*third)->List().size(), 1u);
}

TEST(BotCredentialsTest, ADamagedOrOpenFileIsRefused) {
  const std::string dir =
      testing_util::FreshTestDir("bot_credentials_damaged").string();
  const std::string path = dir + "/bot_credentials";
  {
    std::ofstream out(path);
    out << "cardref-bot-credentials 1\nalice\tnot-hex\t0\t0\n";
  }
  chmod(path.c_str(), 0600);
  auto damaged = BotCredentials::Open(path);
  EXPECT_EQ(damaged.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(damaged.status().message(), HasSubstr("line 2"));
  chmod(path.c_str(), 0644);
  EXPECT_EQ(BotCredentials::Open(path).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace cardref::service
