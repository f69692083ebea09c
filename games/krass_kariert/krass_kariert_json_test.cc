// The Krass Kariert JSON adapter: every action shape round-trips, malformed
// objects name their field, and the result has exactly the README's fields.
// (The transcripts themselves run as the ctest conformance_krass_kariert.)
#include <memory>

#include "games/krass_kariert/krass_kariert_entry_points.h"
#include "analyzer/conformance/json_adapter_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/api/testing/random_play.h"
#include "games/krass_kariert/krass_kariert.h"

namespace cardref::conformance {
namespace {

namespace kk = ::cardref::krass_kariert;
using ::cardref::conformance::adapter_testing::ActionError;
using ::cardref::conformance::adapter_testing::ExpectLegalActionsRoundTrip;
using ::cardref::conformance::adapter_testing::Keys;
using ::cardref::random_play::PlayRandomGame;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using json = nlohmann::json;

TEST(KrassKariertJson, ActionsRoundTripThroughARandomGame) {
  auto adapter = krass_kariert::MakeJsonAdapter();
  EXPECT_EQ(adapter->game_id(), "krass_kariert");
  GameParams p;
  p.Set("num_players", int64_t{3});
  auto game = kk::NewKrassKariertGame(p);
  ASSERT_TRUE(game.ok());
  int checked = 0;
  PlayRandomGame(**game, 7, [&](const State& state) {
    if (!state.IsTerminal()) {
      ExpectLegalActionsRoundTrip(*adapter, state, &checked);
      return;
    }
    const json result = adapter->ResultToJson(state);
    EXPECT_THAT(
        Keys(result),
        ::testing::ElementsAre("chips", "losers", "round_losses", "winners"));
    EXPECT_EQ(result["chips"].size(), 3u);
    EXPECT_FALSE(result["losers"].empty());
    EXPECT_EQ(result["round_losses"][0]["round"], 1);
  });
  EXPECT_GT(checked, 100);
}

TEST(KrassKariertJson, Shapes) {
  auto adapter = krass_kariert::MakeJsonAdapter();
  EXPECT_EQ(adapter->ActionToJson(kk::EncodePlay(2, 3, 7, 8)),
            json::parse(R"({"type":"PLAY","positions":[2,3,4],"x_values":[7,8]})"));
  EXPECT_EQ(adapter->ActionToJson(kk::EncodePlay(0, 1)),
            json::parse(R"({"type":"PLAY","positions":[0],"x_values":[]})"));
  EXPECT_EQ(adapter->ActionToJson(kk::EncodeTakeReserve(1, 3)),
            json::parse(R"({"type":"TAKE_RESERVE","slot":1,"position":3})"));
  EXPECT_EQ(adapter->ActionToJson(kk::EncodePlaceDrawn(4)),
            json::parse(R"({"type":"PLACE_DRAWN","position":4})"));
}

TEST(KrassKariertJson, MalformedActionsNameTheField) {
  auto adapter = krass_kariert::MakeJsonAdapter();
  auto err = [&](const char* text) { return ActionError(*adapter, text); };
  EXPECT_THAT(err(R"({"type":"PLAY","positions":[0,2],"x_values":[]})"),
              StartsWith("KK-16.1: positions 0,2 are not contiguous"));
  EXPECT_THAT(err(R"({"type":"PLAY","positions":[0]})"), HasSubstr("'x_values'"));
  EXPECT_THAT(err(R"({"type":"PLAY","positions":"0","x_values":[]})"),
              HasSubstr("'positions'"));
  EXPECT_THAT(err(R"({"type":"PLAY","positions":[0],"x_values":[13]})"),
              StartsWith("KK-3.3"));
  EXPECT_THAT(err(R"({"type":"TAKE_RESERVE","slot":2,"position":0})"),
              HasSubstr("'slot'"));
  EXPECT_THAT(err(R"({"type":"TAKE_RESERVE","slot":0})"), HasSubstr("'position'"));
  EXPECT_THAT(err(R"({"type":"PLACE_DRAWN","position":-1})"),
              HasSubstr("'position'"));
  EXPECT_THAT(err(R"({"type":"PLACE_DRAWN","position":1,"extra":0})"),
              HasSubstr("'extra'"));
  EXPECT_THAT(err(R"({"type":"PASS"})"), HasSubstr("'type'"));
  EXPECT_THAT(err(R"([1])"), HasSubstr("JSON object"));
}

}  // namespace
}  // namespace cardref::conformance
