#include "referee/base/deal_stream.h"

#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "referee/base/hex.h"
#include "referee/base/sha256.h"

namespace cardref {
namespace {

std::string Seed(uint8_t first) {
  std::string seed(kDealSeedSize, '\0');
  for (size_t i = 0; i < seed.size(); ++i) {
    seed[i] = static_cast<char>(first + i);
  }
  return seed;
}

std::vector<int> Order(const std::string& seed, ChanceLabel label, int n) {
  std::vector<int> cards(n);
  std::iota(cards.begin(), cards.end(), 0);
  DeriveDealOrder(seed, label, absl::MakeSpan(cards));
  return cards;
}

// docs/log_format.md, "Proof of the deal", worked example: verbatim.
TEST(DealStreamTest, DocsWorkedExample) {
  const std::string seed = Seed(0);  // 00 01 02 .. 1f
  EXPECT_EQ(ToHex(seed),
            "000102030405060708090a0b0c0d0e0f"
            "101112131415161718191a1b1c1d1e1f");
  // The commitment published at CreateMatch.
  EXPECT_EQ(ToHex(crypto::Sha256(seed)),
            "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  // The first block of the first round's deal (kind 1, round 0, ordinal 0).
  const std::string block0_input =
      std::string("cardref-deal-v1") + '\0' + seed +
      std::string("\x01\0\0\0" "\0\0\0\0" "\0\0\0\0", 12) +
      std::string(8, '\0');
  EXPECT_EQ(ToHex(crypto::Sha256(block0_input)),
            "5462c68744b4942c09ac05e9536ad04155b0c3a4e3d37244bf9ae29a796ffd76");
  DealStream stream(seed, ChanceLabel{1, 0, 0});
  EXPECT_EQ(stream.NextWord(), 2277925460u);  // 0x87c66254: bytes 54 62 c6 87
  // Ten cards 0..9 dealt, reshuffled, and dealt in the next round.
  EXPECT_EQ(absl::StrJoin(Order(seed, {1, 0, 0}, 10), " "),
            "2 6 4 3 9 8 7 1 5 0");
  EXPECT_EQ(absl::StrJoin(Order(seed, {2, 0, 0}, 10), " "),
            "3 1 5 0 9 7 4 8 6 2");
  EXPECT_EQ(absl::StrJoin(Order(seed, {1, 1, 0}, 10), " "),
            "1 6 8 2 9 4 3 5 0 7");
}

TEST(DealStreamTest, OrderDependsOnTheCardSetNotItsInputOrder) {
  const std::string seed = Seed(7);
  std::vector<uint8_t> a = {9, 3, 3, 1, 7, 0, 2};
  std::vector<uint8_t> b = {0, 1, 2, 3, 3, 7, 9};
  DeriveDealOrder(seed, {2, 3, 1}, absl::MakeSpan(a));
  DeriveDealOrder(seed, {2, 3, 1}, absl::MakeSpan(b));
  EXPECT_EQ(a, b);
}

TEST(DealStreamTest, EveryPartOfTheLabelAndSeedMatters) {
  const std::string seed = Seed(0);
  const std::vector<int> base = Order(seed, {1, 2, 0}, 52);
  EXPECT_EQ(Order(seed, {1, 2, 0}, 52), base);  // deterministic
  EXPECT_NE(Order(seed, {2, 2, 0}, 52), base);
  EXPECT_NE(Order(seed, {1, 3, 0}, 52), base);
  EXPECT_NE(Order(seed, {1, 2, 1}, 52), base);
  EXPECT_NE(Order(Seed(1), {1, 2, 0}, 52), base);
  std::string other = seed;
  other[31] ^= 1;
  EXPECT_NE(Order(other, {1, 2, 0}, 52), base);
}

// Uniform(n) is unbiased: over many draws each residue appears about
// equally often (chi-square far below what bias of one part in 100 gives).
TEST(DealStreamTest, UniformIsUnbiased) {
  for (uint32_t n : {3u, 7u, 52u}) {
    DealStream stream(Seed(3), {1, 0, n});
    std::vector<int> counts(n, 0);
    const int draws = 20000 * static_cast<int>(n);
    for (int i = 0; i < draws; ++i) {
      const uint32_t x = stream.Uniform(n);
      ASSERT_LT(x, n);
      ++counts[x];
    }
    const double expected = draws / static_cast<double>(n);
    double chi2 = 0;
    for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
    // 99.9% quantile of chi-square with n-1 degrees of freedom < 4n + 20.
    EXPECT_LT(chi2, 4.0 * n + 20) << "n=" << n;
  }
}

// Rejection is exercised: with n just above 2^31 about half the words are
// refused, and the answer is still in range.
TEST(DealStreamTest, RejectionKeepsLargeBoundsInRange) {
  DealStream stream(Seed(9), {1, 0, 0});
  const uint32_t n = (1u << 31) + 1;
  for (int i = 0; i < 1000; ++i) EXPECT_LT(stream.Uniform(n), n);
  EXPECT_EQ(stream.Uniform(1), 0u);
}

// Every permutation of 4 cards comes out about equally often over labels.
TEST(DealStreamTest, ShuffleIsUniformOverPermutations) {
  std::map<std::vector<int>, int> seen;
  const int trials = 24 * 2000;
  for (int t = 0; t < trials; ++t) {
    ++seen[Order(Seed(5), {3, static_cast<uint32_t>(t), 0}, 4)];
  }
  ASSERT_EQ(seen.size(), 24u);
  double chi2 = 0;
  for (const auto& [perm, count] : seen) {
    chi2 += (count - 2000.0) * (count - 2000.0) / 2000.0;
  }
  EXPECT_LT(chi2, 60.0);  // 99.99% quantile for 23 degrees of freedom ~ 55
}

}  // namespace
}  // namespace cardref
