#include <string>

#include "games/craits/craits_entry_points.h"
#include "analyzer/conformance/json_adapter.h"
#include "analyzer/conformance/json_adapter_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/api/testing/random_play.h"
#include "games/craits/craits.h"

namespace cardref::conformance {
namespace {

using ::cardref::conformance::adapter_testing::ActionError;
using ::cardref::random_play::PlayRandomGame;
using craits::CraitsMove;
using ::testing::HasSubstr;
using json = nlohmann::json;

const GameJsonAdapter& Adapter() {
  const GameJsonAdapter* a = FindJsonAdapter("craits");
  EXPECT_NE(a, nullptr);
  return *a;
}

TEST(CraitsJsonTest, ActionsInTheTranscriptForm) {
  const GameJsonAdapter& a = Adapter();
  EXPECT_EQ(a.game_id(), "craits");
  EXPECT_EQ(a.ActionToJson(CraitsMove::Play(46, craits::kHearts, true).Encode()),
            json::parse(R"({"type":"PLAY","card":46,"suit":"H","announce":true})"));
  EXPECT_EQ(a.ActionToJson(CraitsMove::Play(12).Encode()),
            json::parse(R"({"type":"PLAY","card":12,"announce":false})"));
  EXPECT_EQ(a.ActionToJson(craits::kDrawAction), json::parse(R"({"type":"DRAW"})"));
  EXPECT_EQ(a.ActionToJson(CraitsMove::CallFool(2).Encode()),
            json::parse(R"({"type":"CALL_FOOL","target":2})"));
  EXPECT_EQ(a.ActionToJson(CraitsMove::NameSuit(craits::kClubs).Encode()),
            json::parse(R"({"type":"NAME_SUIT","suit":"C"})"));
  // announce defaults to false (CR-16.2).
  EXPECT_EQ(a.ActionFromJson(json::parse(R"({"type":"PLAY","card":12})")).value(),
            CraitsMove::Play(12).Encode());
}

TEST(CraitsJsonTest, RoundTripOfEveryAction) {
  const GameJsonAdapter& a = Adapter();
  for (int c = 0; c < craits::kNumCards; ++c) {
    for (int suit = -1; suit < 4; ++suit) {
      for (bool announce : {false, true}) {
        const Action act =
            CraitsMove::Play(static_cast<Card>(c), suit, announce).Encode();
        EXPECT_EQ(a.ActionFromJson(a.ActionToJson(act)).value(), act);
      }
    }
  }
  for (int t = 0; t < kMaxSeats; ++t) {
    const Action act = CraitsMove::CallFool(t).Encode();
    EXPECT_EQ(a.ActionFromJson(a.ActionToJson(act)).value(), act);
  }
  for (int s = 0; s < 4; ++s) {
    const Action act = CraitsMove::NameSuit(s).Encode();
    EXPECT_EQ(a.ActionFromJson(a.ActionToJson(act)).value(), act);
  }
}

TEST(CraitsJsonTest, MalformedActionsNameTheField) {
  const GameJsonAdapter& a = Adapter();
  auto error = [&a](const char* text) { return ActionError(a, text); };
  EXPECT_THAT(error(R"({"type":"PLAY"})"), HasSubstr("'card'"));
  EXPECT_THAT(error(R"({"type":"PLAY","card":52})"), HasSubstr("'card'"));
  EXPECT_THAT(error(R"({"type":"PLAY","card":"7H"})"), HasSubstr("'card'"));
  EXPECT_THAT(error(R"({"type":"PLAY","card":7,"suit":"X"})"),
              HasSubstr("'suit'"));
  EXPECT_THAT(error(R"({"type":"PLAY","card":7,"announce":1})"),
              HasSubstr("'announce'"));
  EXPECT_THAT(error(R"({"type":"CALL_FOOL","target":5})"), HasSubstr("'target'"));
  EXPECT_THAT(error(R"({"type":"NAME_SUIT"})"), HasSubstr("'suit'"));
  EXPECT_THAT(error(R"({"type":"PASS"})"), HasSubstr("'type'"));
  EXPECT_THAT(error(R"([1,2])"), HasSubstr("object"));
}

TEST(CraitsJsonTest, ResultHasTheReadmeFields) {
  GameParams p;
  p.Set("num_players", int64_t{3});
  p.Set("game_length", std::string("SHORT"));
  p.Set("round_action_limit", int64_t{50});
  auto game = craits::CraitsGame::Create(p).value();
  PlayRandomGame(*game, 3, [&](const State& state) {
    if (!state.IsTerminal()) return;
    const auto* s = static_cast<const craits::CraitsState*>(&state);
    const json r = Adapter().ResultToJson(*s);
    ASSERT_EQ(r["round_scores"].size(), 8u);
    ASSERT_EQ(r["round_scores"][0].size(), 3u);
    int total0 = 0;
    for (int round = 0; round < 8; ++round) {
      EXPECT_EQ(r["round_scores"][round][0],
                s->round_results()[round].scores[0]);
      total0 += s->round_results()[round].scores[0];
    }
    EXPECT_EQ(r["totals"][0], total0);
    EXPECT_EQ(r["winners"], json(s->Winners()));
    int exhausted = 0;
    for (const auto& rr : s->round_results()) exhausted += rr.exhausted;
    EXPECT_EQ(static_cast<int>(r["exhausted_rounds"].size()), exhausted);
    EXPECT_EQ(r.size(), 4u);
  });
}

}  // namespace
}  // namespace cardref::conformance
