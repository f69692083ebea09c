#include "ladder/tools/content_hash.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "ladder/store/testing/store_testing.h"

namespace cardref::ladder {
namespace {

namespace fs = std::filesystem;

void Write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

TEST(ContentHashTest, AFileHashesAsItsBytes) {
  const fs::path file = testing::FreshPath("bot.py");
  Write(file, "abc");
  auto hash = ContentHash(file.string());
  ASSERT_TRUE(hash.ok());
  // SHA-256("abc"), FIPS 180-2 appendix B.1.
  EXPECT_EQ(*hash,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(ContentHashTest, AFolderHashesItsTreeNotWhereItIs) {
  const fs::path a = testing::FreshPath("bot");
  const fs::path b = testing::FreshPath("elsewhere");
  for (const fs::path& root : {a, b}) {
    Write(root / "main.py", "print(1)\n");
    Write(root / "lib" / "util.py", "x = 2\n");
  }
  auto ha = ContentHash(a.string());
  auto hb = ContentHash(b.string());
  ASSERT_TRUE(ha.ok() && hb.ok());
  EXPECT_EQ(*ha, *hb);
  EXPECT_EQ(ha->size(), 64u);

  Write(b / "lib" / "util.py", "x = 3\n");  // a change in a file
  EXPECT_NE(*ContentHash(b.string()), *ha);
  Write(b / "lib" / "util.py", "x = 2\n");
  EXPECT_EQ(*ContentHash(b.string()), *ha);
  fs::rename(b / "lib" / "util.py", b / "lib" / "utils.py");  // a rename
  EXPECT_NE(*ContentHash(b.string()), *ha);
  fs::rename(b / "lib" / "utils.py", b / "lib" / "util.py");
  fs::create_directories(b / "empty");  // an added folder
  EXPECT_NE(*ContentHash(b.string()), *ha);
  fs::remove(b / "empty");
  fs::create_symlink("main.py", b / "link");  // a link, not followed
  EXPECT_NE(*ContentHash(b.string()), *ha);
}

TEST(ContentHashTest, AMissingPathIsNotFound) {
  EXPECT_EQ(ContentHash(testing::FreshPath("absent")).status().code(),
            absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace cardref::ladder
