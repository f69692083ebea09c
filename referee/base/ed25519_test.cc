#include "referee/base/ed25519.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/hex.h"

namespace cardref::crypto {
namespace {

using ::testing::HasSubstr;

std::string Unhex(const std::string& hex) {
  absl::StatusOr<std::string> bytes = FromHex(hex, 0, "test vector");
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.value_or("");
}

struct Rfc8032Vector {
  const char* secret;
  const char* public_key;
  const char* message;
  const char* signature;
};

// RFC 8032, section 7.1, TEST 1, 2 and 3.
constexpr Rfc8032Vector kVectors[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
     "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
     "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
    {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
     "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac"
     "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
};

TEST(Ed25519Test, Rfc8032Vectors) {
  for (const Rfc8032Vector& v : kVectors) {
    SCOPED_TRACE(v.public_key);
    absl::StatusOr<Ed25519PrivateKey> key =
        Ed25519PrivateKey::FromSeed(Unhex(v.secret));
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_EQ(ToHex(key->public_key()), v.public_key);
    absl::StatusOr<std::string> signature = key->Sign(Unhex(v.message));
    ASSERT_TRUE(signature.ok()) << signature.status();
    EXPECT_EQ(ToHex(*signature), v.signature);
    EXPECT_TRUE(VerifyEd25519(Unhex(v.public_key), Unhex(v.message),
                              Unhex(v.signature))
                    .ok());
  }
}

TEST(Ed25519Test, AnyChangedBitFailsVerification) {
  const Rfc8032Vector& v = kVectors[2];
  const std::string pub = Unhex(v.public_key);
  const std::string msg = Unhex(v.message);
  const std::string sig = Unhex(v.signature);
  for (size_t i = 0; i < sig.size() * 8; ++i) {
    std::string bad = sig;
    bad[i / 8] = static_cast<char>(bad[i / 8] ^ (1 << (i % 8)));
    EXPECT_EQ(VerifyEd25519(pub, msg, bad).code(),
              absl::StatusCode::kPermissionDenied)
        << "bit " << i;
  }
  for (size_t i = 0; i < msg.size() * 8; ++i) {
    std::string bad = msg;
    bad[i / 8] = static_cast<char>(bad[i / 8] ^ (1 << (i % 8)));
    EXPECT_FALSE(VerifyEd25519(pub, bad, sig).ok()) << "bit " << i;
  }
  EXPECT_FALSE(VerifyEd25519(Unhex(kVectors[1].public_key), msg, sig).ok());
  EXPECT_EQ(VerifyEd25519(pub.substr(1), msg, sig).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(VerifyEd25519(pub, msg, sig.substr(1)).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Ed25519Test, GeneratedKeysDifferAndSignVerifiably) {
  absl::StatusOr<Ed25519PrivateKey> a = Ed25519PrivateKey::Generate();
  absl::StatusOr<Ed25519PrivateKey> b = Ed25519PrivateKey::Generate();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->public_key(), b->public_key());
  absl::StatusOr<std::string> sig = a->Sign("the log");
  ASSERT_TRUE(sig.ok());
  EXPECT_TRUE(VerifyEd25519(a->public_key(), "the log", *sig).ok());
  EXPECT_FALSE(VerifyEd25519(b->public_key(), "the log", *sig).ok());
}

TEST(Ed25519Test, ParsesPublicKeysAsHexOrPem) {
  const std::string pub = Unhex(kVectors[0].public_key);
  EXPECT_EQ(*ParseEd25519PublicKey(std::string("  ") + kVectors[0].public_key +
                                   "\n"),
            pub);
  // RFC 8410 SubjectPublicKeyInfo of the same key.
  const std::string pem =
      "-----BEGIN PUBLIC KEY-----\n" +
      absl::Base64Escape(Unhex("302a300506032b6570032100") + pub) +
      "\n-----END PUBLIC KEY-----\n";
  absl::StatusOr<std::string> parsed = ParseEd25519PublicKey(pem);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, pub);
  EXPECT_EQ(ParseEd25519PublicKey("abcd").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseEd25519PublicKey("-----BEGIN PUBLIC KEY-----\nAAAA\n"
                                  "-----END PUBLIC KEY-----\n")
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

class KeyFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "cardref_keys_XXXXXX";
    ASSERT_NE(mkdtemp(dir_.data()), nullptr);
  }
  void TearDown() override { umask(old_umask_); }

  mode_t Mode(const std::string& path) {
    struct stat st;
    EXPECT_EQ(stat(path.c_str(), &st), 0);
    return st.st_mode & 07777;
  }

  std::string dir_;
  mode_t old_umask_ = umask(022);
};

TEST_F(KeyFileTest, CreatedMode0600WhateverTheUmaskAndReadBack) {
  int n = 0;
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{0777}}) {
    SCOPED_TRACE(mask);
    umask(mask);
    const std::string path = dir_ + "/k" + std::to_string(n++) + ".key";
    bool created = false;
    absl::StatusOr<Ed25519PrivateKey> key =
        Ed25519PrivateKey::ReadOrCreateFile(path, &created);
    ASSERT_TRUE(key.ok()) << key.status();
    EXPECT_TRUE(created);
    EXPECT_EQ(Mode(path), 0600);
    absl::StatusOr<Ed25519PrivateKey> again =
        Ed25519PrivateKey::ReadOrCreateFile(path, &created);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_FALSE(created);
    EXPECT_EQ(again->public_key(), key->public_key());
    EXPECT_EQ(*again->Sign("m"), *key->Sign("m"));
  }
}

TEST_F(KeyFileTest, NeverOverwritesAKeyFile) {
  const std::string path = dir_ + "/k.key";
  absl::StatusOr<Ed25519PrivateKey> a = Ed25519PrivateKey::Generate();
  absl::StatusOr<Ed25519PrivateKey> b = Ed25519PrivateKey::Generate();
  ASSERT_TRUE(a->WriteFile(path).ok());
  EXPECT_EQ(b->WriteFile(path).code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(Ed25519PrivateKey::ReadFile(path)->public_key(), a->public_key());
}

void WriteText(const std::string& path, const std::string& text, mode_t mode) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, mode);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(fchmod(fd, mode), 0);
  ASSERT_EQ(write(fd, text.data(), text.size()),
            static_cast<ssize_t>(text.size()));
  close(fd);
}

// The PKCS#8 encoding (RFC 8410) of RFC 8032's TEST 1 key, as
// `openssl genpkey -algorithm ed25519` writes keys.
std::string Rfc8410Pem(const std::string& seed) {
  const std::string der =
      Unhex("302e020100300506032b657004220420") + seed;
  return "-----BEGIN PRIVATE KEY-----\n" + absl::Base64Escape(der) +
         "\n-----END PRIVATE KEY-----\n";
}

TEST_F(KeyFileTest, ReadsTheStandardPkcs8Format) {
  const std::string path = dir_ + "/openssl.key";
  ASSERT_NO_FATAL_FAILURE(
      WriteText(path, Rfc8410Pem(Unhex(kVectors[0].secret)), 0600));
  absl::StatusOr<Ed25519PrivateKey> key = Ed25519PrivateKey::ReadFile(path);
  ASSERT_TRUE(key.ok()) << key.status();
  EXPECT_EQ(ToHex(key->public_key()), kVectors[0].public_key);
  // And writes the same format.
  const std::string copy = dir_ + "/copy.key";
  ASSERT_TRUE(key->WriteFile(copy).ok());
  FILE* f = std::fopen(copy.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[512];
  const size_t n = std::fread(buf, 1, sizeof(buf), f);
  std::fclose(f);
  EXPECT_EQ(std::string(buf, n), Rfc8410Pem(Unhex(kVectors[0].secret)));
}

TEST_F(KeyFileTest, RefusesAKeyOthersMayReadAndFilesThatAreNoKey) {
  const std::string open_key = dir_ + "/open.key";
  ASSERT_NO_FATAL_FAILURE(
      WriteText(open_key, Rfc8410Pem(Unhex(kVectors[0].secret)), 0644));
  absl::StatusOr<Ed25519PrivateKey> key = Ed25519PrivateKey::ReadFile(open_key);
  EXPECT_EQ(key.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(key.status().message(), HasSubstr("mode 0644"));
  EXPECT_THAT(key.status().message(), HasSubstr(open_key));
  // A key writable by others is refused as one readable by them.
  const std::string writable = dir_ + "/writable.key";
  ASSERT_NO_FATAL_FAILURE(
      WriteText(writable, Rfc8410Pem(Unhex(kVectors[0].secret)), 0602));
  EXPECT_THAT(Ed25519PrivateKey::ReadFile(writable).status().message(),
              HasSubstr("has mode 0602"));

  const std::string junk = dir_ + "/junk.key";
  ASSERT_NO_FATAL_FAILURE(WriteText(junk, "not a key\n", 0600));
  EXPECT_EQ(Ed25519PrivateKey::ReadFile(junk).status().code(),
            absl::StatusCode::kInvalidArgument);

  EXPECT_EQ(Ed25519PrivateKey::ReadFile(dir_ + "/missing.key").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(Ed25519PrivateKey::FromSeed("short").status().code(),
            absl::StatusCode::kInvalidArgument);
}

// A key another user owns could be that user's own key: as root (which can
// chown) the file is given to uid 65534 and must be refused, whatever its
// mode; without root the test is skipped, saying so.
TEST_F(KeyFileTest, RefusesAKeyOfAnotherUser) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root to chown a key file to another user; CI "
                    "runs as root";
  }
  const std::string path = dir_ + "/theirs.key";
  ASSERT_NO_FATAL_FAILURE(
      WriteText(path, Rfc8410Pem(Unhex(kVectors[0].secret)), 0600));
  ASSERT_EQ(chown(path.c_str(), 65534, static_cast<gid_t>(-1)), 0);
  absl::StatusOr<Ed25519PrivateKey> key = Ed25519PrivateKey::ReadFile(path);
  EXPECT_EQ(key.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(key.status().message(),
              HasSubstr(path + " is owned by uid 65534"));
  EXPECT_THAT(key.status().message(), HasSubstr("chown root " + path));
  bool created = true;
  EXPECT_EQ(Ed25519PrivateKey::ReadOrCreateFile(path, &created).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(created);
}

}  // namespace
}  // namespace cardref::crypto
