#include "referee/base/public_key_file.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "referee/base/ed25519.h"
#include "referee/base/testing/fresh_test_dir.h"

namespace cardref::crypto {
namespace {

std::string Read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PublicKeyFileTest, ThePublicKeyGoesBesideTheKeyFile) {
  EXPECT_EQ(PublicKeyPath("/srv/cardref/referee_ed25519.key"),
            "/srv/cardref/referee_ed25519.pub");
  EXPECT_EQ(PublicKeyPath("keys/signing"), "keys/signing.pub");
  EXPECT_EQ(PublicKeyPath("a.key.bak"), "a.key.bak.pub");
}

TEST(PublicKeyFileTest, WritesHexThatAnAuditorParsesBack) {
  const std::filesystem::path dir =
      testing_util::FreshTestDir("public_key_file_test_");
  absl::StatusOr<Ed25519PrivateKey> key = Ed25519PrivateKey::Generate();
  ASSERT_TRUE(key.ok()) << key.status();
  const std::string path = (dir / "referee_ed25519.pub").string();
  const mode_t old_umask = umask(077);
  absl::Status written = WritePublicKeyFile(path, key->public_key());
  umask(old_umask);
  ASSERT_TRUE(written.ok()) << written;
  absl::StatusOr<std::string> back = ParseEd25519PublicKey(Read(path));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, key->public_key());
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);  // public whatever the umask
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  // Another key replaces it (the key file was replaced).
  absl::StatusOr<Ed25519PrivateKey> other = Ed25519PrivateKey::Generate();
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(WritePublicKeyFile(path, other->public_key()).ok());
  EXPECT_EQ(*ParseEd25519PublicKey(Read(path)), other->public_key());

  EXPECT_EQ(WritePublicKeyFile(path, "short").code(),
            absl::StatusCode::kInvalidArgument);
  const absl::Status nowhere = WritePublicKeyFile(
      (dir / "missing" / "x.pub").string(), key->public_key());
  EXPECT_FALSE(nowhere.ok());
  EXPECT_NE(nowhere.message().find("missing/x.pub"), std::string::npos)
      << nowhere;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cardref::crypto
