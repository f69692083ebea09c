// The Krass Kariert JSON adapter: every action shape round-trips, malformed
// objects name their field, and the result has exactly the README's fields.
// (The transcripts themselves run as the ctest conformance_krass_kariert.)
#include <memory>

#include "analyzer/conformance/adapters.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/games/krass_kariert/krass_kariert.h"

namespace cardref::conformance {
namespace {

namespace kk = ::cardref::krass_kariert;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using json = nlohmann::json;

TEST(KrassKariertJson, ActionsRoundTripThroughARandomGame) {
  auto adapter = NewKrassKariertJsonAdapter();
  EXPECT_EQ(adapter->game_id(), "krass_kariert");
  GameParams p;
  p.Set("num_players", int64_t{3});
  auto game = kk::NewKrassKariertGame(p);
  ASSERT_TRUE(game.ok());
  auto state = (*game)->NewInitialState();
  Rng rng(7);
  int checked = 0;
  while (!state->IsTerminal()) {
    if (state->IsChance()) {
      std::array<Card, 64> cards;
      const int n = state->ChanceCards(absl::MakeSpan(cards));
      rng.Shuffle(absl::MakeSpan(cards.data(), n));
      ASSERT_TRUE(state
                      ->ApplyChance(ChanceKind::kDeal,
                                    absl::MakeConstSpan(cards.data(), n))
                      .ok());
      continue;
    }
    ActionList legal;
    state->LegalActions(legal);
    for (Action a : legal) {
      absl::StatusOr<Action> back = adapter->ActionFromJson(adapter->ActionToJson(a));
      ASSERT_TRUE(back.ok()) << adapter->ActionToJson(a).dump();
      ASSERT_EQ(*back, a);
      ++checked;
    }
    state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
  }
  EXPECT_GT(checked, 100);
  const json result = adapter->ResultToJson(*state);
  std::vector<std::string> keys;
  for (auto it = result.begin(); it != result.end(); ++it) keys.push_back(it.key());
  EXPECT_THAT(keys, ::testing::ElementsAre("chips", "losers", "round_losses",
                                           "winners"));
  EXPECT_EQ(result["chips"].size(), 3u);
  EXPECT_FALSE(result["losers"].empty());
  EXPECT_EQ(result["round_losses"][0]["round"], 1);
}

TEST(KrassKariertJson, Shapes) {
  auto adapter = NewKrassKariertJsonAdapter();
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
  auto adapter = NewKrassKariertJsonAdapter();
  auto err = [&](const char* text) {
    absl::StatusOr<Action> a = adapter->ActionFromJson(json::parse(text));
    return a.ok() ? std::string("ok") : std::string(a.status().message());
  };
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
