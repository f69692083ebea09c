// Action encoding (krass_kariert_action.h) and text notation
// (krass_kariert_notation.h, docs/notation.md). KK-16.1, KK-16.2, KK-16.3.
#include "games/krass_kariert/krass_kariert_action.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/krass_kariert/krass_kariert_notation.h"

namespace cardref::krass_kariert {
namespace {

using ::testing::StartsWith;

TEST(KrassKariertAction, DocumentedExamples) {
  EXPECT_EQ(EncodeAction(KrassKariertAction::Play(2, 3, {7, 8})), 0x00023078u);
  EXPECT_EQ(EncodeAction(KrassKariertAction::TakeReserve(1, 3)), 0x10000103u);
  EXPECT_EQ(EncodeAction(KrassKariertAction::PlaceDrawn(0)), 0x20000000u);
}

TEST(KrassKariertAction, EncodeDecodeRoundTripEveryShape) {
  for (int start = 0; start <= kMaxEncodedPosition; ++start) {
    for (int count = 1; count <= 3; ++count) {
      for (int x0 = 0; x0 <= 12; ++x0) {
        for (int x1 = 0; x1 <= (x0 ? 12 : 0); ++x1) {
          KrassKariertAction a;
          a.start = start;
          a.count = count;
          a.num_x_values = (x0 != 0) + (x1 != 0);
          a.x_values = {x0, x1};
          const Action encoded = EncodeAction(a);
          absl::StatusOr<KrassKariertAction> back = DecodeAction(encoded);
          ASSERT_TRUE(back.ok()) << back.status();
          EXPECT_EQ(*back, a);
          absl::StatusOr<Action> parsed =
              ParseKrassKariertAction(KrassKariertActionToString(encoded));
          ASSERT_TRUE(parsed.ok()) << KrassKariertActionToString(encoded);
          EXPECT_EQ(*parsed, encoded);
        }
      }
    }
  }
  for (int p = 0; p <= kMaxEncodedPosition; ++p) {
    for (int slot = 0; slot < 2; ++slot) {
      const Action a = EncodeAction(KrassKariertAction::TakeReserve(slot, p));
      EXPECT_EQ(*DecodeAction(a), KrassKariertAction::TakeReserve(slot, p));
      EXPECT_EQ(*ParseKrassKariertAction(KrassKariertActionToString(a)), a);
    }
    const Action a = EncodeAction(KrassKariertAction::PlaceDrawn(p));
    EXPECT_EQ(*DecodeAction(a), KrassKariertAction::PlaceDrawn(p));
    EXPECT_EQ(*ParseKrassKariertAction(KrassKariertActionToString(a)), a);
  }
}

// The numeric order is the documented legal-action order.
TEST(KrassKariertAction, OrderIsPlaysThenReservesThenPlacements) {
  EXPECT_LT(EncodePlay(0, 1), EncodePlay(0, 2));
  EXPECT_LT(EncodePlay(0, 3, 12, 12), EncodePlay(1, 1));
  EXPECT_LT(EncodePlay(0, 2, 7, 8), EncodePlay(0, 2, 8, 7));
  EXPECT_LT(EncodePlay(31, 3, 12, 12), EncodeTakeReserve(0, 0));
  EXPECT_LT(EncodeTakeReserve(0, 31), EncodeTakeReserve(1, 0));
  EXPECT_LT(EncodeTakeReserve(1, 31), EncodePlaceDrawn(0));
}

TEST(KrassKariertAction, Notation) {
  EXPECT_EQ(KrassKariertActionToString(EncodePlay(3, 1)), "play 3");
  EXPECT_EQ(KrassKariertActionToString(EncodePlay(2, 3, 7, 8)),
            "play 2-4 x=7,8");
  EXPECT_EQ(KrassKariertActionToString(EncodePlay(0, 1, 12)), "play 0 x=12");
  EXPECT_EQ(KrassKariertActionToString(EncodeTakeReserve(1, 3)),
            "reserve 1@3");
  EXPECT_EQ(KrassKariertActionToString(EncodePlaceDrawn(0)), "place 0");
  EXPECT_EQ(KrassKariertActionToString(0x30000000u), "invalid(0x30000000)");
  // Comma lists and extra blanks are read too.
  EXPECT_EQ(*ParseKrassKariertAction("play 2,3,4 x=7,8"), EncodePlay(2, 3, 7, 8));
  EXPECT_EQ(*ParseKrassKariertAction("  play   5 "), EncodePlay(5, 1));
}

TEST(KrassKariertAction, KK_16_1_BadPlaysNameTheRule) {
  auto err = [](const char* text) {
    absl::StatusOr<Action> a = ParseKrassKariertAction(text);
    return a.ok() ? std::string("ok") : std::string(a.status().message());
  };
  EXPECT_THAT(err("play 0,2"),
              StartsWith("KK-16.1: positions 0,2 are not contiguous"));
  EXPECT_THAT(err("play 3,2"), StartsWith("KK-16.1: positions 3,2 are not"));
  EXPECT_THAT(err("play 0-3"), StartsWith("KK-16.1: a PLAY names 1 to 3"));
  EXPECT_THAT(err("play 0-1 x=1,2,3"), StartsWith("KK-3.3"));
  EXPECT_THAT(err("play 0 x=0"), StartsWith("KK-3.3"));
  EXPECT_THAT(err("play 40"), StartsWith("KK-16.1"));
  EXPECT_THAT(err("play"), StartsWith("KK-16.1: cannot read action"));
  EXPECT_THAT(err("play x"), StartsWith("KK-16.1"));
  EXPECT_THAT(err("play 1 y=3"), StartsWith("KK-16.1"));
  EXPECT_THAT(err("reserve 2@0"), StartsWith("KK-16.2: reserve slot 2"));
  EXPECT_THAT(err("reserve 0"), StartsWith("KK-16.2"));
  EXPECT_THAT(err("place"), StartsWith("KK-16.3"));
  EXPECT_THAT(err("pass"), StartsWith("KK-16.4"));
  EXPECT_THAT(err(""), StartsWith("KK-16.4"));
  // The typed converter used by the JSON adapter.
  const int bad[] = {0, 2};
  EXPECT_THAT(std::string(PlayFromPositions(bad, {}).status().message()),
              StartsWith("KK-16.1: positions 0,2 are not contiguous"));
}

}  // namespace
}  // namespace cardref::krass_kariert
