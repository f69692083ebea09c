#include "games/craits/craits_entry_points.h"

#include "referee/codec/codec.h"

#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/codec/testing/round_trip.h"
#include "games/all_games.h"
#include "games/api/testing/random_play.h"
#include "games/craits/craits.h"

// Craits's codec: the view and results it builds, checked against the
// engine's own observation.
namespace cardref::craits {
namespace {

using ::cardref::codec::FillObservation;
using ::cardref::codec::MakeFinalResult;
using ::cardref::codec::proto_cards::CollectCards;
using ::cardref::random_play::DealWhileChance;
using ::testing::ElementsAreArray;

std::unique_ptr<State> DealtCraits(int players, uint64_t seed,
                                   std::unique_ptr<Game>& game) {
  GameParams params;
  params.Set("num_players", int64_t{players});
  game = *AllGames().Create("craits", params);
  std::unique_ptr<State> state = game->NewInitialState();
  Rng rng(seed);
  DealWhileChance(*state, rng);
  return state;
}

// No card of an observation, walked by reflection over the proto, is hidden
// from its seat (CR-15.3): each is in the seat's hand, the discard pile, or
// the last round's revealed hands.
TEST(CodecTest, CraitsObservationsNeverShowAHiddenCard) {
  for (int players = 2; players <= 5; ++players) {
    std::unique_ptr<Game> game;
    std::unique_ptr<State> state = DealtCraits(players, 100 + players, game);
    Rng rng(players);
    int checked = 0;
    for (;;) {
      ASSERT_NO_FATAL_FAILURE(DealWhileChance(*state, rng));
      if (state->IsTerminal()) break;
      const auto& cs = static_cast<const craits::CraitsState&>(*state);
      for (int seat = 0; seat < players; ++seat) {
        std::set<uint32_t> visible;
        for (Card c : cs.discard_pile()) visible.insert(c);
        for (craits::CardMask m = cs.hand(seat); m; m &= m - 1) {
          visible.insert(__builtin_ctzll(m));
        }
        auto rounds = cs.round_results();
        if (!rounds.empty()) {
          for (int s = 0; s < players; ++s) {
            for (craits::CardMask m = rounds.back().hands[s]; m; m &= m - 1) {
              visible.insert(__builtin_ctzll(m));
            }
          }
        }
        v1::Observation obs;
        FillObservation(*state, seat, &obs);
        std::vector<uint32_t> seen;
        CollectCards(obs, &seen);
        for (uint32_t c : seen) {
          ASSERT_TRUE(visible.count(c))
              << "seat " << seat << " sees hidden card " << c << "\n"
              << obs.DebugString();
        }
        ++checked;
      }
      ActionList legal;
      state->LegalActions(legal);
      state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
    }
    EXPECT_GT(checked, 100);
    v1::FinalResult result = MakeFinalResult(*state);
    EXPECT_EQ(result.scores_size(), players);
    EXPECT_FALSE(result.higher_score_is_better());
    EXPECT_EQ(result.craits().totals_size(), players);
  }
}

// CR-15.1, CR-15.2: the codec builds the Craits view from the state's
// accessors, not from CraitsState::Observe; every field must
// still be what Observe shows that seat, at every decision of random games
// with 2 to 5 players, for every seat and for a spectator (no hand).
TEST(CodecTest, CraitsViewIsWhatTheEngineObserves) {
  for (int players = 2; players <= 5; ++players) {
    std::unique_ptr<Game> game;
    std::unique_ptr<State> state = DealtCraits(players, 300 + players, game);
    Rng rng(static_cast<uint64_t>(players) * 31);
    int checked = 0;
    for (;;) {
      ASSERT_NO_FATAL_FAILURE(DealWhileChance(*state, rng));
      if (state->IsTerminal()) break;
      const auto& cs = static_cast<const craits::CraitsState&>(*state);
      for (int seat = -1; seat < players; ++seat) {
        const craits::CraitsObservation o = cs.Observe(seat);
        v1::Observation obs;
        FillObservation(*state, seat, &obs);
        const v1::CraitsObservation& v = obs.craits();
        SCOPED_TRACE(absl::StrCat("players ", players, " seat ", seat, "\n",
                                  obs.DebugString()));
        EXPECT_EQ(v.round(), o.round);
        EXPECT_EQ(v.cards_per_hand(), o.hand_size_dealt);
        EXPECT_EQ(v.dealer(), o.dealer);
        EXPECT_EQ(v.direction(), o.dir);
        EXPECT_EQ(v.has_top_card(), o.top_card >= 0);
        if (o.top_card >= 0) {
          EXPECT_EQ(v.top_card(), o.top_card);
        }
        EXPECT_EQ(v.crank_count(), o.count);
        EXPECT_THAT(v.discard_pile(), ElementsAreArray(o.discard_pile));
        EXPECT_EQ(v.stock_size(), o.stock_size);
        ASSERT_EQ(v.seats_size(), players);
        for (int s = 0; s < players; ++s) {
          EXPECT_EQ(v.seats(s).hand_size(), o.seats[s].hand_size);
          EXPECT_EQ(v.seats(s).missed_turn(), o.seats[s].missed_turn);
          EXPECT_EQ(v.seats(s).total(), o.seats[s].total);
        }
        EXPECT_EQ(v.vulnerable_seat(), o.vulnerable);
        EXPECT_THAT(v.hand(), ElementsAreArray(o.hand));
        EXPECT_EQ(obs.legal_actions_size(),
                  static_cast<int>(o.legal_actions.size()));
        EXPECT_EQ(v.has_last_round(), !o.last_round_hands.empty());
        if (!o.last_round_hands.empty()) {
          ASSERT_EQ(v.last_round().hands_size(), players);
          for (int s = 0; s < players; ++s) {
            EXPECT_THAT(v.last_round().hands(s).cards(),
                        ElementsAreArray(o.last_round_hands[s]));
            EXPECT_EQ(v.last_round().scores(s),
                      o.completed_rounds.back().scores[s]);
          }
        }
        ASSERT_EQ(v.last_draws_size(), static_cast<int>(o.last_draws.size()));
        for (size_t i = 0; i < o.last_draws.size(); ++i) {
          const v1::CraitsDraw& d = v.last_draws(static_cast<int>(i));
          EXPECT_EQ(d.seat(), o.last_draws[i].seat);
          EXPECT_EQ(d.requested(), o.last_draws[i].requested);
          EXPECT_EQ(d.drawn(), o.last_draws[i].drawn);
          EXPECT_EQ(d.cause(), craits::DrawCauseName(o.last_draws[i].cause));
        }
        ++checked;
      }
      ActionList legal;
      state->LegalActions(legal);
      state->ApplyLegalAction(legal[rng.Uniform(legal.size())]);
    }
    EXPECT_GT(checked, 100);
  }
}

}  // namespace
}  // namespace cardref::craits
