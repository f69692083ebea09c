// Secret files (secret_file.h): the rule on a file's owner and mode, and
// reading a file under it. The test of another owner needs root (chown);
// without root it is skipped, saying so.
#include "referee/base/secret_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

constexpr uid_t kNobody = 65534;

struct stat FileStat(uid_t owner, mode_t mode) {
  struct stat st {};
  st.st_uid = owner;
  st.st_mode = S_IFREG | mode;
  return st;
}

TEST(CheckSecretFileStatTest, OwnerOnlyFilesOfTheReaderPass) {
  for (mode_t mode : {0600, 0400, 0700, 0200, 0000}) {
    EXPECT_TRUE(CheckSecretFileStat(FileStat(1000, mode), 1000, "key file",
                                    "/k")
                    .ok())
        << mode;
  }
  for (mode_t mode : {0644, 0640, 0604, 0602, 0620, 0601, 0610, 0666}) {
    const absl::Status st =
        CheckSecretFileStat(FileStat(1000, mode), 1000, "key file", "/k");
    EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition) << mode;
    EXPECT_THAT(st.message(), HasSubstr("key file /k has mode 0"));
    EXPECT_THAT(st.message(), HasSubstr("chmod 600 /k"));
  }
  const absl::Status other =
      CheckSecretFileStat(FileStat(kNobody, 0600), 0, "key file", "/k");
  EXPECT_EQ(other.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(other.message(),
              HasSubstr("key file /k is owned by uid 65534"));
  EXPECT_THAT(other.message(), HasSubstr("not by the user reading it, uid 0"));
  EXPECT_THAT(other.message(), HasSubstr("chown "));
  struct stat dir = FileStat(1000, 0700);
  dir.st_mode = S_IFDIR | 0700;
  EXPECT_THAT(CheckSecretFileStat(dir, 1000, "key file", "/k").message(),
              HasSubstr("not a regular file"));
}

class SecretFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/secret_file_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  std::string Write(const std::string& name, const std::string& text,
                    mode_t mode) {
    std::string path = dir_ + "/" + name;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, text.data(), text.size()),
              static_cast<ssize_t>(text.size()));
    EXPECT_EQ(fchmod(fd, mode), 0);
    close(fd);
    return path;
  }
  std::string dir_;
};

TEST_F(SecretFileTest, ReadsAnOwnerOnlyFileAndRefusesAnOpenOne) {
  const std::string good = Write("good", "secret\n", 0600);
  absl::StatusOr<std::string> read = ReadSecretFile(good, "token file", 100);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, "secret\n");
  // Through a symbolic link the file itself is checked.
  const std::string link = dir_ + "/link";
  ASSERT_EQ(symlink(good.c_str(), link.c_str()), 0);
  EXPECT_TRUE(ReadSecretFile(link, "token file", 100).ok());

  const std::string open_file = Write("open", "secret\n", 0644);
  absl::StatusOr<std::string> refused =
      ReadSecretFile(open_file, "token file", 100);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("token file " + open_file + " has mode 0644"));
  const std::string writable = Write("writable", "secret\n", 0602);
  EXPECT_EQ(ReadSecretFile(writable, "token file", 100).status().code(),
            absl::StatusCode::kFailedPrecondition);

  EXPECT_EQ(ReadSecretFile(dir_ + "/missing", "token file", 100)
                .status()
                .code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadSecretFile(Write("big", std::string(101, 'x'), 0600),
                           "token file", 100)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(SecretFileTest, AFileOfAnotherUserIsRefused) {
  if (geteuid() != 0) {
    GTEST_SKIP() << "needs root to chown a file to another user (uid "
                 << kNobody << "); CI runs as root";
  }
  const std::string path = Write("theirs", "secret\n", 0600);
  ASSERT_EQ(chown(path.c_str(), kNobody, static_cast<gid_t>(-1)), 0);
  absl::StatusOr<std::string> refused = ReadSecretFile(path, "key file", 100);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(refused.status().message(),
              HasSubstr("key file " + path + " is owned by uid 65534"));
  EXPECT_THAT(refused.status().message(), HasSubstr("chown root " + path));
}

}  // namespace
}  // namespace cardref
