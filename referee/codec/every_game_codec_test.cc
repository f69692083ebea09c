// The codec contract every game keeps, by random play of every registered
// game at every seat count (the test-only example game included): every
// legal action encodes to its typed form and notation and decodes back from
// either; every seat's and the spectators' observation carries the game's
// view and no card the seat may not see (the hidden-information walk: every
// field marked [(cardref.v1.card) = true] against State::VisibleCards);
// round and final results carry the game's part. A new game is covered with
// no edit here.
#include <algorithm>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "games/all_games.h"
#include "games/api/testing/every_game.h"
#include "games/api/testing/random_play.h"
#include "referee/base/testing/sanitizer_scale.h"
#include "referee/codec/codec.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/codec/testing/round_trip.h"

namespace cardref::codec {
namespace {

using every_game::GameConfig;

class EveryGameCodecTest : public ::testing::TestWithParam<GameConfig> {};

// No card field of `obs` holds a card `seat` may not see.
void CheckHidden(const State& state, int seat, const v1::Observation& obs) {
  std::vector<Card> visible;
  state.VisibleCards(seat, &visible);
  std::vector<uint32_t> shown;
  proto_cards::CollectCards(obs, &shown);
  for (uint32_t c : shown) {
    ASSERT_NE(std::find(visible.begin(), visible.end(), c), visible.end())
        << (seat < 0 ? std::string("a spectator")
                     : "seat " + std::to_string(seat))
        << " sees hidden card " << c << "\n"
        << obs.DebugString() << state.DebugString();
  }
}

TEST_P(EveryGameCodecTest, ActionsRoundTripAndViewsHideWhatTheyMust) {
  const GameConfig& config = GetParam();
  std::unique_ptr<Game> game = every_game::Create(AllGames(), config);
  ASSERT_NE(game, nullptr);
  ASSERT_NE(FindCodec(config.id), nullptr) << "no codec for " << config.id;
  const int games = std::max(2, testing_util::GamesForThisBuild(10));
  int observations = 0;
  for (int g = 0; g < games; ++g) {
    random_play::PlayRandomGame(*game, 500 + g, [&](const State& state) {
      for (int seat = -1; seat < config.seats; ++seat) {
        v1::Observation obs;
        FillObservation(state, seat, &obs);
        ASSERT_NE(obs.game_view_case(), v1::Observation::GAME_VIEW_NOT_SET);
        ASSERT_NO_FATAL_FAILURE(CheckHidden(state, seat, obs));
        ++observations;
        if (seat >= 0 && seat == state.current_seat()) {
          ActionList legal;
          state.LegalActions(legal);
          ASSERT_EQ(obs.legal_actions_size(), legal.size());
          for (int i = 0; i < legal.size(); ++i) {
            ASSERT_NO_FATAL_FAILURE(round_trip::ExpectDecodesBack(
                state, EncodeAction(state, legal[i]), legal[i]));
          }
        }
      }
      for (int round = 1; round <= state.rounds_completed(); ++round) {
        EXPECT_NE(MakeRoundResult(state, round).game_case(),
                  v1::RoundResult::GAME_NOT_SET);
      }
      if (state.IsTerminal()) {
        const v1::FinalResult result = MakeFinalResult(state);
        EXPECT_EQ(result.scores_size(), config.seats);
        EXPECT_EQ(result.ranks_size(), config.seats);
        EXPECT_NE(result.game_case(), v1::FinalResult::GAME_NOT_SET);
      }
    });
  }
  EXPECT_GT(observations, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Registered, EveryGameCodecTest,
    ::testing::ValuesIn(every_game::Configs(AllGames())),
    [](const ::testing::TestParamInfo<GameConfig>& info) {
      return info.param.name();
    });

}  // namespace
}  // namespace cardref::codec
