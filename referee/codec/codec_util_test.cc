#include "referee/codec/codec_util.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::codec {
namespace {

using ::testing::ElementsAre;

TEST(CodecUtilTest, SuitsMapBothWays) {
  EXPECT_EQ(SuitToProto(-1), v1::SUIT_UNSPECIFIED);
  EXPECT_EQ(SuitToProto(0), v1::SUIT_CLUBS);
  EXPECT_EQ(SuitToProto(1), v1::SUIT_DIAMONDS);
  EXPECT_EQ(SuitToProto(2), v1::SUIT_HEARTS);
  EXPECT_EQ(SuitToProto(3), v1::SUIT_SPADES);
  for (int suit = -1; suit < 4; ++suit) {
    EXPECT_EQ(SuitFromProto(SuitToProto(suit)), suit);
  }
}

TEST(CodecUtilTest, IsSuitRefusesUnspecifiedAndUnknownNumbers) {
  EXPECT_FALSE(IsSuit(v1::SUIT_UNSPECIFIED));
  EXPECT_FALSE(IsSuit(static_cast<v1::Suit>(5)));
  EXPECT_FALSE(IsSuit(static_cast<v1::Suit>(-1)));
  for (v1::Suit s :
       {v1::SUIT_CLUBS, v1::SUIT_DIAMONDS, v1::SUIT_HEARTS, v1::SUIT_SPADES}) {
    EXPECT_TRUE(IsSuit(s)) << s;
  }
}

TEST(CodecUtilTest, AddCardsListsTheMaskAscendingAfterWhatIsThere) {
  google::protobuf::RepeatedField<uint32_t> cards;
  cards.Add(99);
  AddCards((uint64_t{1} << 63) | (uint64_t{1} << 31) | 0b101, &cards);
  EXPECT_THAT(cards, ElementsAre(99, 0, 2, 31, 63));
  AddCards(0, &cards);
  EXPECT_EQ(cards.size(), 5);
}

TEST(CodecUtilTest, MalformedFieldNamesGameAndField) {
  const absl::Status st = MalformedField("kraken", "play.card", "is bad");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "kraken.play.card is bad");
}

}  // namespace
}  // namespace cardref::codec
