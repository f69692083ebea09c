// The referee's secret files and folders (docs/auth.md, "Secret files"):
// the organiser token and a TLS private key are refused when group or
// others may read or write them, or (as root, which can chown) when another
// user owns them; the folders the referee creates for its logs (and the
// key beside them) are owner-only whatever the umask. The signing key's
// own tests are in referee/base/ed25519_test.cc.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/grpc/organiser_token.h"
#include "referee/grpc/server.h"
#include "referee/record/private_dir.h"
#include "tests/test_certificates.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

constexpr uid_t kNobody = 65534;

class SecretFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/secret_files_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    ::umask(old_umask_);
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::string Write(const std::string& name, const std::string& text,
                    mode_t mode) {
    std::string path = dir_ + "/" + name;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, text.data(), text.size()),
              static_cast<ssize_t>(text.size()));
    EXPECT_EQ(fchmod(fd, mode), 0);
    close(fd);
    return path;
  }

  static mode_t Mode(const std::string& path) {
    struct stat st;
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_mode & 07777;
  }

  std::string dir_;
  mode_t old_umask_ = ::umask(022);
};

const char kTokenFileText[] = "organiser-secret-0123456789abcdef\n";

TEST_F(SecretFilesTest, TheOrganiserTokenFileMustBeOwnerOnly) {
  const std::string good = Write("token", kTokenFileText, 0600);
  absl::StatusOr<std::optional<std::string>> token =
      grpc_service::LoadOrganiserToken(good);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(token->value_or(""), "organiser-secret-0123456789abcdef");
  for (mode_t mode : {0644, 0640, 0604, 0602}) {
    SCOPED_TRACE(mode);
    const std::string path = Write("open_token", kTokenFileText, mode);
    absl::StatusOr<std::optional<std::string>> refused =
        grpc_service::LoadOrganiserToken(path);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_THAT(refused.status().message(),
                HasSubstr("the organiser token file " + path + " has mode 0"));
    EXPECT_THAT(refused.status().message(), HasSubstr("chmod 600 " + path));
  }
}

TEST_F(SecretFilesTest, AnOrganiserTokenFileOfAnotherUserIsRefused) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root to chown the token file to another user; CI "
                    "runs as root";
  }
  const std::string path = Write("token", kTokenFileText, 0600);
  ASSERT_EQ(chown(path.c_str(), kNobody, static_cast<gid_t>(-1)), 0);
  absl::StatusOr<std::optional<std::string>> refused =
      grpc_service::LoadOrganiserToken(path);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr(path + " is owned by uid 65534"));
}

// A TLS private key others may read is refused before the server starts.
TEST_F(SecretFilesTest, ATlsKeyMustBeOwnerOnly) {
  const testing_tls::KeyAndCertificate made =
      testing_tls::MakeSelfSigned("localhost");
  ASSERT_FALSE(made.private_key_pem.empty());
  grpc_service::ServerOptions options;
  options.manager.log_dir = dir_ + "/logs";
  options.tls.cert_file = Write("server.crt", made.certificate_pem, 0644);
  options.tls.key_file = Write("server.key", made.private_key_pem, 0644);
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> refused =
      grpc_service::RefereeServer::Start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("--tls_key file " + options.tls.key_file +
                        " has mode 0644"));
  // The same key, owner-only: served (the certificate may stay 0644).
  ASSERT_EQ(chmod(options.tls.key_file.c_str(), 0600), 0);
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> served =
      grpc_service::RefereeServer::Start(options);
  ASSERT_TRUE(served.ok()) << served.status();
  served->reset();
}

TEST_F(SecretFilesTest, ATlsKeyOfAnotherUserIsRefused) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root to chown the key to another user; CI runs as "
                    "root";
  }
  const testing_tls::KeyAndCertificate made =
      testing_tls::MakeSelfSigned("localhost");
  ASSERT_FALSE(made.private_key_pem.empty());
  grpc_service::ServerOptions options;
  options.manager.log_dir = dir_ + "/logs";
  options.tls.cert_file = Write("server.crt", made.certificate_pem, 0644);
  options.tls.key_file = Write("server.key", made.private_key_pem, 0600);
  ASSERT_EQ(chown(options.tls.key_file.c_str(), kNobody,
                  static_cast<gid_t>(-1)),
            0);
  absl::StatusOr<std::unique_ptr<grpc_service::RefereeServer>> refused =
      grpc_service::RefereeServer::Start(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("--tls_key file " + options.tls.key_file +
                        " is owned by uid 65534"));
}

// Every folder the referee creates for its logs is 0700, the parents it
// creates included (the signing key's folder by default: docs/log_format.md,
// "The referee's key"), whatever the umask; folders that existed keep
// their mode.
TEST_F(SecretFilesTest, FoldersTheRefereeCreatesAreOwnerOnlyWhateverTheUmask) {
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{0777}}) {
    SCOPED_TRACE(mask);
    const std::string top = dir_ + "/u" + std::to_string(mask);
    const std::string logs = top + "/srv/cardref/logs";
    ::umask(mask);
    const absl::Status made = record::MakePrivateDirectory(logs);
    ::umask(022);
    ASSERT_TRUE(made.ok()) << made;
    for (const std::string& d :
         {top, top + "/srv", top + "/srv/cardref", logs}) {
      EXPECT_EQ(Mode(d), 0700u) << d;
    }
    EXPECT_EQ(Mode(dir_), 0755u);  // existed before: left alone
    // Usable: the referee can write its files there.
    const std::string file = logs + "/probe";
    const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    EXPECT_GE(fd, 0);
    close(fd);
  }
  // A relative path and a trailing slash.
  ASSERT_EQ(chdir(dir_.c_str()), 0);
  ::umask(0);
  const absl::Status relative = record::MakePrivateDirectory("rel/a/logs/");
  ::umask(022);
  ASSERT_TRUE(relative.ok()) << relative;
  EXPECT_EQ(Mode(dir_ + "/rel"), 0700u);
  EXPECT_EQ(Mode(dir_ + "/rel/a/logs"), 0700u);
  // A file in the way is reported, naming it.
  Write("file", "x", 0600);
  const absl::Status blocked = record::MakePrivateDirectory(dir_ + "/file/logs");
  EXPECT_FALSE(blocked.ok());
  EXPECT_THAT(blocked.message(), HasSubstr(dir_ + "/file"));
}

}  // namespace
}  // namespace cardref
