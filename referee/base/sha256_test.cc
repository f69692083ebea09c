#include "referee/base/sha256.h"

#include <string>

#include "gtest/gtest.h"
#include "referee/base/hex.h"

namespace cardref::crypto {
namespace {

std::string HexSha256(const std::string& data) { return ToHex(Sha256(data)); }

// FIPS 180-2, appendix B (and the NIST CSRC examples).
TEST(Sha256Test, Fips180Vectors) {
  EXPECT_EQ(HexSha256("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexSha256(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(
      HexSha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(HexSha256(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, IncrementalEqualsOneShotAndStartsOver) {
  const std::string data =
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  Sha256Hasher hasher;
  for (size_t i = 0; i < data.size(); i += 7) hasher.Update(data.substr(i, 7));
  EXPECT_EQ(hasher.Finish(), Sha256(data));
  hasher.Update("abc");
  EXPECT_EQ(ToHex(hasher.Finish()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256("abc").size(), kSha256Size);
}

}  // namespace
}  // namespace cardref::crypto
