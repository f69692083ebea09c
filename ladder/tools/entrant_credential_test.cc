// Entrant credentials: issued once in clear, stored as their SHA-256,
// recognised until revoked; the `credential` command.
#include "ladder/tools/entrant_credential.h"

#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "ladder/store/open_store.h"
#include "ladder/store/testing/store_testing.h"
#include "ladder/tools/ladder_cli.h"

namespace cardref::ladder {
namespace {

TEST(EntrantCredentialTest, HashIsSha256Hex) {
  EXPECT_EQ(CredentialSha256("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(EntrantCredentialTest, IssuedOnceCheckedUntilRevoked) {
  const std::string db = testing::FreshPath("credentials.db");
  std::ostringstream out;
  cli::InitOptions init;
  init.store = db;
  init.name = "c";
  init.games = "craits:3";
  ASSERT_TRUE(cli::Init(init, 1, out).ok());
  {
    auto store = OpenStore(db);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->AddEntrant("alice", 2).ok());
  }
  out.str("");
  ASSERT_TRUE(cli::Credential(db, "alice", false, 3, out).ok());
  const std::string credential(absl::StripTrailingAsciiWhitespace(out.str()));
  EXPECT_TRUE(absl::StartsWith(credential, "cardref-entrant-")) << credential;
  EXPECT_EQ(credential.size(), sizeof("cardref-entrant-") - 1 + 64);

  auto store = OpenStore(db);
  ASSERT_TRUE(store.ok());
  auto found = CheckEntrantCredential(**store, credential);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->entrant_name, "alice");
  // Neither another string nor the stored hash itself opens it.
  EXPECT_FALSE(CheckEntrantCredential(**store, credential + "x")->has_value());
  EXPECT_FALSE(CheckEntrantCredential(**store, CredentialSha256(credential))
                   ->has_value());
  EXPECT_FALSE(CheckEntrantCredential(**store, "")->has_value());

  // A second credential differs; revoking ends both.
  out.str("");
  ASSERT_TRUE(cli::Credential(db, "alice", false, 4, out).ok());
  EXPECT_NE(std::string(absl::StripTrailingAsciiWhitespace(out.str())),
            credential);
  out.str("");
  ASSERT_TRUE(cli::Credential(db, "alice", true, 5, out).ok());
  EXPECT_TRUE(absl::StrContains(out.str(), "revoked 2 credential(s)"))
      << out.str();
  EXPECT_FALSE(CheckEntrantCredential(**store, credential)->has_value());

  EXPECT_EQ(cli::Credential(db, "nobody", false, 6, out).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(cli::Credential(db, "", false, 6, out).code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::ladder
