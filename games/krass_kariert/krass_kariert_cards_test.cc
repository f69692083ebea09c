// Combinations and their order (KK-3.1, KK-3.2, KK-3.3, KK-3.5) as pure
// functions; the engine-level examples are E3/E4.
#include "games/krass_kariert/krass_kariert_cards.h"

#include "gtest/gtest.h"

namespace cardref::krass_kariert {
namespace {

Strength Of(std::initializer_list<int> values) {
  std::vector<int> v(values);
  return Classify(v.data(), static_cast<int>(v.size()));
}

TEST(KrassKariertCards, KK_3_1_Types) {
  EXPECT_EQ(StrengthName(Of({8})), "SOLO 8");
  EXPECT_EQ(StrengthName(Of({5, 6})), "RUN2 5-6");
  EXPECT_EQ(StrengthName(Of({7, 7})), "PAIR 7");
  EXPECT_EQ(StrengthName(Of({8, 9, 10})), "RUN3 8-9-10");
  EXPECT_EQ(StrengthName(Of({11, 11, 11})), "TRIPS 11");
  EXPECT_EQ(Of({5, 1}), kNoStrength);
  EXPECT_EQ(Of({5, 5, 6}), kNoStrength);
  EXPECT_EQ(Of({5, 7, 9}), kNoStrength);
}

TEST(KrassKariertCards, KK_3_2_AnyOrderNoWrap) {
  EXPECT_EQ(Of({8, 10, 9}), Of({8, 9, 10}));
  EXPECT_EQ(Of({10, 9, 8}), MakeStrength(ComboType::kRun3, 10));
  EXPECT_EQ(Of({6, 5}), MakeStrength(ComboType::kRun2, 6));
  EXPECT_EQ(Of({12, 1}), kNoStrength);
  EXPECT_EQ(Of({11, 12, 1}), kNoStrength);
  EXPECT_EQ(Of({12, 1, 2}), kNoStrength);
}

// KK-3.3: an X is just its declared value; KK-3.5: strength order over all
// 12*5 combinations is rank first, then key.
TEST(KrassKariertCards, KK_3_5_TotalOrder) {
  for (int t1 = 1; t1 <= 5; ++t1) {
    for (int t2 = 1; t2 <= 5; ++t2) {
      for (int k1 = 1; k1 <= 12; ++k1) {
        for (int k2 = 1; k2 <= 12; ++k2) {
          const Strength a = MakeStrength(static_cast<ComboType>(t1), k1);
          const Strength b = MakeStrength(static_cast<ComboType>(t2), k2);
          EXPECT_EQ(Beats(a, b), t1 > t2 || (t1 == t2 && k1 > k2));
        }
      }
    }
  }
}

TEST(KrassKariertCards, KK_0_1_CardNames) {
  EXPECT_EQ(CardName(0), "1");
  EXPECT_EQ(CardName(47), "12");
  EXPECT_EQ(CardName(48), "X");
  EXPECT_EQ(CardName(51), "STOP");
  EXPECT_EQ(CardName(53), "DRAW");
}

}  // namespace
}  // namespace cardref::krass_kariert
