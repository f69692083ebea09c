// The Kraken JSON adapter: every action shape round-trips, DECLARE comes out
// canonical whatever the input order, malformed objects name their field,
// and the result has exactly the README's fields. (The transcripts
// themselves run as the ctest conformance_kraken.)
#include <memory>

#include "games/kraken/kraken_entry_points.h"
#include "analyzer/conformance/json_adapter_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "games/api/testing/random_play.h"
#include "games/kraken/kraken.h"

namespace cardref::conformance {
namespace {

namespace kr = ::cardref::kraken;
using ::cardref::conformance::adapter_testing::ActionError;
using ::cardref::conformance::adapter_testing::ExpectLegalActionsRoundTrip;
using ::cardref::conformance::adapter_testing::Keys;
using ::cardref::random_play::PlayRandomGame;
using ::testing::HasSubstr;
using json = nlohmann::json;

TEST(KrakenJson, ActionsRoundTripThroughRandomGames) {
  auto adapter = kraken::MakeJsonAdapter();
  EXPECT_EQ(adapter->game_id(), "kraken");
  int checked = 0;
  for (const char* mode : {"UTRECHT", "FREE", "RANDOM"}) {
    GameParams p;
    p.Set("trump_mode", std::string(mode));
    p.Set("rounds", int64_t{3});
    auto game = kr::KrakenGame::Create(p);
    ASSERT_TRUE(game.ok());
    PlayRandomGame(**game, 11, [&](const State& state) {
      if (!state.IsTerminal()) {
        ExpectLegalActionsRoundTrip(*adapter, state, &checked);
        return;
      }
      const json result = adapter->ResultToJson(state);
      EXPECT_THAT(Keys(result), ::testing::ElementsAre("round_scores", "totals",
                                                       "winner_team"));
      EXPECT_EQ(result["round_scores"].size(), 3u);
      EXPECT_EQ(result["round_scores"][0].size(), 2u);
      EXPECT_EQ(result["totals"].size(), 2u);
      const auto& r = static_cast<const kr::KrakenState&>(state).Result();
      EXPECT_EQ(result["winner_team"], json(r.winner_team));
    });
  }
  EXPECT_GT(checked, 300);
}

TEST(KrakenJson, Shapes) {
  auto adapter = kraken::MakeJsonAdapter();
  EXPECT_EQ(adapter->ActionToJson(kr::ChooseTrumpAction(kr::kHearts)),
            json::parse(R"({"type":"CHOOSE_TRUMP","suit":"H"})"));
  EXPECT_EQ(adapter->ActionToJson(kr::PassTrumpAction()),
            json::parse(R"({"type":"PASS_TRUMP"})"));
  EXPECT_EQ(adapter->ActionToJson(kr::PassChallengeAction()),
            json::parse(R"({"type":"PASS_CHALLENGE"})"));
  EXPECT_EQ(adapter->ActionToJson(kr::PlayAction(22, true)),
            json::parse(R"({"type":"PLAY","card":22,"declare_stuk":true})"));
  EXPECT_EQ(adapter->ActionToJson(kr::ClaimBonusAction(kr::Bonus::kRun4)),
            json::parse(R"({"type":"CLAIM_BONUS","bonus":"RUN4"})"));
  EXPECT_EQ(adapter->ActionToJson(kr::DeclineBonusAction()),
            json::parse(R"({"type":"DECLINE_BONUS"})"));
  EXPECT_EQ(adapter->ActionToJson(kr::DeclareAction(0)),
            json::parse(R"({"type":"DECLARE","combos":[]})"));
  // KR-8.3: a set; output canonical (FOUR_JACKS, FOUR, RUN; by card ids).
  absl::StatusOr<Action> d = adapter->ActionFromJson(json::parse(
      R"({"type":"DECLARE","combos":[{"kind":"RUN","cards":[27,25,26]},
          {"kind":"FOUR","cards":[30,6,14,22]}]})"));
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(adapter->ActionToJson(*d),
            json::parse(R"({"type":"DECLARE","combos":[
                {"kind":"FOUR","cards":[6,14,22,30]},
                {"kind":"RUN","cards":[25,26,27]}]})"));
}

TEST(KrakenJson, MalformedActionsNameTheField) {
  auto adapter = kraken::MakeJsonAdapter();
  EXPECT_THAT(ActionError(*adapter, R"({"type":"PLAY"})"), HasSubstr("'card'"));
  EXPECT_THAT(ActionError(*adapter, R"({"type":"PLAY","card":32})"),
              HasSubstr("'card'"));
  EXPECT_THAT(
      ActionError(*adapter, R"({"type":"PLAY","card":3,"declare_stuk":1})"),
      HasSubstr("'declare_stuk'"));
  EXPECT_THAT(ActionError(*adapter, R"({"type":"CHOOSE_TRUMP","suit":"X"})"),
              HasSubstr("'suit'"));
  EXPECT_THAT(ActionError(*adapter, R"({"type":"CLAIM_BONUS","bonus":"RUN5"})"),
              HasSubstr("'bonus'"));
  EXPECT_THAT(ActionError(*adapter, R"({"type":"DECLARE"})"),
              HasSubstr("'combos'"));
  EXPECT_THAT(
      ActionError(
          *adapter,
          R"({"type":"DECLARE","combos":[{"kind":"PAIR","cards":[1,2]}]})"),
      HasSubstr("'combos[].kind'"));
  EXPECT_THAT(
      ActionError(
          *adapter,
          R"({"type":"DECLARE","combos":[{"kind":"FOUR","cards":[2,10,18,26]}]})"),
      HasSubstr("KR-8.2: four 9s are not a combination"));
  EXPECT_THAT(ActionError(*adapter, R"({"type":"NAP"})"), HasSubstr("'type'"));
  EXPECT_THAT(ActionError(*adapter, R"([1])"), HasSubstr("object"));
}

}  // namespace
}  // namespace cardref::conformance
