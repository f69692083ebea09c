// The Krass Kariert protobuf codec: every legal action of random games
// round-trips through the typed form and the notation, malformed typed
// actions are refused naming the field and the rule, observations walked by
// reflection never show a hidden card (KK-15.3), and the results carry what
// an auditor needs to recompute chips, losers and winners.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "cardref/v1/game.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/codec/codec.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/codec/testing/round_trip.h"
#include "games/all_games.h"
#include "games/api/testing/random_play.h"
#include "games/krass_kariert/krass_kariert.h"

namespace cardref::codec {
namespace {

namespace kk = ::cardref::krass_kariert;
using ::cardref::codec::proto_cards::CardFieldNames;
using ::cardref::codec::proto_cards::CollectCards;
using ::cardref::codec::round_trip::ExpectDecodesBack;
using ::cardref::codec::round_trip::ExpectEncodesAs;
using ::cardref::random_play::DealWhileChance;
using ::cardref::random_play::PlayRandomGame;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAre;

std::unique_ptr<Game> MakeGame(int players, int chips = 2) {
  GameParams params;
  params.Set("num_players", int64_t{players});
  params.Set("chips_per_player", int64_t{chips});
  absl::StatusOr<std::unique_ptr<Game>> game =
      AllGames().Create("krass_kariert", params);
  EXPECT_TRUE(game.ok()) << game.status();
  return std::move(game).value();
}

const kk::KrassKariertState& AsKk(const State& state) {
  return static_cast<const kk::KrassKariertState&>(state);
}

v1::Action Play(const std::vector<uint32_t>& positions,
                const std::vector<uint32_t>& xs) {
  v1::Action a;
  v1::KrassKariertAction::Play* play =
      a.mutable_krass_kariert()->mutable_play();
  for (uint32_t p : positions) play->add_positions(p);
  for (uint32_t x : xs) play->add_x_values(x);
  return a;
}

v1::Action TakeReserve(uint32_t slot, uint32_t position) {
  v1::Action a;
  a.mutable_krass_kariert()->mutable_take_reserve()->set_slot(slot);
  a.mutable_krass_kariert()->mutable_take_reserve()->set_position(position);
  return a;
}

v1::Action PlaceDrawn(uint32_t position) {
  v1::Action a;
  a.mutable_krass_kariert()->mutable_place_drawn()->set_position(position);
  return a;
}

TEST(KrassKariertCodecTest, HasACodec) {
  const GameCodec* codec = FindCodec("krass_kariert");
  ASSERT_NE(codec, nullptr);
  EXPECT_EQ(codec->game_id(), "krass_kariert");
  EXPECT_TRUE(codec->HasTypedAction(PlaceDrawn(0)));
  EXPECT_FALSE(codec->HasTypedAction(v1::Action()));
}

// The examples of krass_kariert_action.h and docs/notation.md, both ways.
TEST(KrassKariertCodecTest, KnownActionsEncodeAsDocumented) {  // KK-16.1-16.3
  std::unique_ptr<Game> game = MakeGame(4);
  std::unique_ptr<State> state = game->NewInitialState();
  struct Case {
    Action action;
    v1::Action typed;
    std::string notation;
  };
  const std::vector<Case> cases = {
      {0x00023078, Play({2, 3, 4}, {7, 8}), "play 2-4 x=7,8"},
      {kk::EncodePlay(3, 1), Play({3}, {}), "play 3"},
      {kk::EncodePlay(0, 1, 12), Play({0}, {12}), "play 0 x=12"},
      {0x10000103, TakeReserve(1, 3), "reserve 1@3"},
      {kk::EncodeTakeReserve(0, 0), TakeReserve(0, 0), "reserve 0@0"},
      {0x20000000, PlaceDrawn(0), "place 0"},
      {kk::EncodePlaceDrawn(17), PlaceDrawn(17), "place 17"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.notation);
    ASSERT_NO_FATAL_FAILURE(
        ExpectEncodesAs(*state, c.action, c.typed, c.notation));
  }
}

// Every legal action seen in random games (3, 4 and 5 seats) decodes back to
// itself from the typed form, from the notation and from both together.
TEST(KrassKariertCodecTest, EveryLegalActionOfRandomGamesRoundTrips) {
  std::set<Action> distinct;
  int checked = 0;
  for (int players = 3; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      PlayRandomGame(
          *MakeGame(players), uint64_t{1000} * players + seed, [&](const State& state) {
            if (state.IsTerminal()) return;
            ActionList legal;
            state.LegalActions(legal);
            for (Action a : legal) {
              const v1::Action both = EncodeAction(state, a);
              ASSERT_TRUE(both.has_krass_kariert()) << both.ShortDebugString();
              ASSERT_NO_FATAL_FAILURE(ExpectDecodesBack(state, both, a));
              // The typed PLAY lists the whole block (KK-16.1).
              if (both.krass_kariert().has_play()) {
                const auto& positions = both.krass_kariert().play().positions();
                ASSERT_GE(positions.size(), 1);
                ASSERT_LE(positions.size(), 3);
                for (int i = 1; i < positions.size(); ++i) {
                  EXPECT_EQ(positions[i], positions[i - 1] + 1);
                }
              }
              distinct.insert(a);
              ++checked;
            }
          });
    }
  }
  EXPECT_GT(checked, 30000);
  // All three kinds were exercised, PLAYs with declared X values included.
  bool reserve = false, place = false, x = false;
  for (Action a : distinct) {
    const kk::KrassKariertAction typed = *kk::DecodeAction(a);
    reserve |= typed.type == kk::ActionType::kTakeReserve;
    place |= typed.type == kk::ActionType::kPlaceDrawn;
    x |= typed.num_x_values > 0;
  }
  EXPECT_TRUE(reserve);
  EXPECT_TRUE(place);
  EXPECT_TRUE(x);
}

// Shape errors are the codec's: INVALID_ARGUMENT naming the field and the
// rule. Legality (which cards, which target) stays the engine's.
TEST(KrassKariertCodecTest, MalformedActionsAreRefusedNamingFieldAndRule) {
  std::unique_ptr<Game> game = MakeGame(4);
  std::unique_ptr<State> state = game->NewInitialState();
  Rng rng(5);
  DealWhileChance(*state, rng);
  struct Case {
    v1::Action action;
    std::string message;
  };
  v1::Action no_kind;
  no_kind.mutable_krass_kariert();
  v1::Action other_game;
  other_game.mutable_craits()->mutable_draw();
  v1::Action disagree = Play({0}, {});
  disagree.set_notation("play 1");
  const std::vector<Case> cases = {
      {Play({}, {}),
       "krass_kariert.play.positions has 0 entries; a PLAY names 1 to 3 hand "
       "positions (KK-16.1)"},
      {Play({0, 1, 2, 3}, {}), "krass_kariert.play.positions has 4 entries"},
      {Play({0, 2}, {}),  // KK-16.1, E2: PLAY[0,2] is not contiguous
       "krass_kariert.play.positions 0,2 are not contiguous (KK-16.1"},
      {Play({2, 1}, {}), "krass_kariert.play.positions 2,1 are not contiguous"},
      {Play({3, 3}, {}), "krass_kariert.play.positions 3,3 are not contiguous"},
      {Play({1, 2, 4}, {}), "positions 1,2,4 are not contiguous"},
      {Play({32}, {}),
       "krass_kariert.play.positions[0] 32 is not a hand position (0..31, "
       "KK-16.1)"},
      {Play({4294967295u}, {}), "positions[0] 4294967295 is not a hand"},
      {Play({0}, {0}),  // KK-3.3: values 1..12 only
       "krass_kariert.play.x_values[0] 0 is outside 1..12 (KK-3.3)"},
      {Play({0, 1}, {5, 13}),
       "krass_kariert.play.x_values[1] 13 is outside 1..12 (KK-3.3)"},
      {Play({0, 1, 2}, {1, 2, 3}),
       "krass_kariert.play.x_values has 3 values; a block holds at most two "
       "X"},
      {TakeReserve(2, 0),
       "krass_kariert.take_reserve.slot 2 is not a reserve slot (0 or 1, "
       "KK-16.2)"},
      {TakeReserve(0, 32),
       "krass_kariert.take_reserve.position 32 is outside 0..31 (KK-16.2)"},
      {PlaceDrawn(1000),
       "krass_kariert.place_drawn.position 1000 is outside 0..31 (KK-16.3)"},
      {no_kind, "krass_kariert action has no kind"},
      {other_game, "another game's message"},
      {v1::Action(), "empty action"},
      {disagree, "disagree"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.action.ShortDebugString());
    absl::StatusOr<Action> decoded = DecodeAction(*state, c.action);
    ASSERT_FALSE(decoded.ok());
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(decoded.status().message()), HasSubstr(c.message));
  }
  // The notation of a non-contiguous block is refused the same way.
  v1::Action text;
  text.set_notation("play 0,2");
  absl::StatusOr<Action> decoded = DecodeAction(*state, text);
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(decoded.status().message()), HasSubstr("KK-16.1"));
  // Well-formed but unplayable (here: outside the 10-card hand) passes the
  // codec; the engine refuses it.
  absl::StatusOr<Action> shaped = DecodeAction(*state, Play({20, 21}, {}));
  ASSERT_TRUE(shaped.ok()) << shaped.status();
  absl::Status refused = state->ApplyAction(*shaped);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.message()), StartsWith("KK-16.1"));
}

// Every field marked as a card id, so the reflection walk below covers each.
TEST(KrassKariertCodecTest, EveryCardFieldIsMarked) {
  EXPECT_THAT(CardFieldNames(v1::KrassKariertObservation::descriptor()),
              UnorderedElementsAre(
                  "cardref.v1.KrassKariertObservation.ReserveSlot.card",
                  "cardref.v1.KrassKariertObservation.TrickAction.cards",
                  "cardref.v1.KrassKariertObservation.discard_pile",
                  "cardref.v1.KrassKariertObservation.hand",
                  "cardref.v1.KrassKariertObservation.own_pending_drawn"));
}

// KK-15.1-15.3: walks every card field of every seat's proto observation at
// every step of random games. Visible to seat s: its own hand and pending
// drawn cards (KK-15.2), every reserve and the discard pile, which holds the
// cards of the current trick (KK-15.1). Other hands and the draw pile are
// hidden (KK-15.3). The public parts must also be complete.
TEST(KrassKariertCodecTest, ObservationsNeverShowAHiddenCard) {
  int observations = 0, with_pending = 0, with_trick_cards = 0,
      with_reserves = 0, between_rounds = 0;
  for (int players = 3; players <= 5; ++players) {
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      PlayRandomGame(
          *MakeGame(players), uint64_t{77} * players + seed, [&](const State& state) {
            const kk::KrassKariertState& s = AsKk(state);
            for (int seat = 0; seat < players; ++seat) {
              std::set<uint32_t> visible;
              for (Card c : s.hand(seat)) visible.insert(c);
              const bool drawing =
                  s.current_seat() == seat && !s.pending_drawn().empty();
              if (drawing) {
                for (Card c : s.pending_drawn()) visible.insert(c);
              }
              for (int p = 0; p < players; ++p) {
                for (int r = 0; r < kk::kReserveSlots; ++r) {
                  if (s.reserve(p, r) != kk::kNoCard) {
                    visible.insert(s.reserve(p, r));
                  }
                }
              }
              for (Card c : s.discards()) visible.insert(c);
              v1::Observation obs;
              FillObservation(state, seat, &obs);
              ASSERT_TRUE(obs.has_krass_kariert());
              std::vector<uint32_t> seen;
              CollectCards(obs, &seen);
              for (uint32_t c : seen) {
                ASSERT_TRUE(visible.count(c))
                    << "seat " << seat << " sees hidden card " << c << "\n"
                    << s.DebugString() << obs.DebugString();
              }
              // Complete: every visible card is shown exactly once...
              std::multiset<uint32_t> shown(seen.begin(), seen.end());
              for (const auto& t : obs.krass_kariert().current_trick()) {
                for (uint32_t c : t.cards()) shown.erase(shown.find(c));
              }
              EXPECT_EQ(std::set<uint32_t>(shown.begin(), shown.end()),
                        visible);
              EXPECT_EQ(shown.size(), visible.size());
              // ... in the right place: own hand in order, counts public.
              const v1::KrassKariertObservation& view = obs.krass_kariert();
              EXPECT_THAT(view.hand(), ElementsAreArray(s.hand(seat)));
              EXPECT_EQ(view.seats_size(), players);
              for (int p = 0; p < players; ++p) {
                EXPECT_EQ(view.seats(p).hand_size(), s.hand_length(p));
                EXPECT_EQ(view.seats(p).chips(), s.chips(p));
                EXPECT_EQ(view.seats(p).active(), s.is_active(p));
                ASSERT_EQ(view.seats(p).reserves_size(), 2);
                with_reserves += view.seats(p).reserves(0).has_card();
              }
              EXPECT_EQ(view.draw_pile_size(), s.pile_size());
              EXPECT_THAT(view.discard_pile(), ElementsAreArray(s.discards()));
              if (drawing) {
                EXPECT_THAT(view.own_pending_drawn(),
                            ElementsAreArray(s.pending_drawn()));
                EXPECT_EQ(view.drawing_seat(), seat);
                EXPECT_EQ(view.pending_count(), view.own_pending_drawn_size());
                ++with_pending;
              } else {
                EXPECT_EQ(view.own_pending_drawn_size(), 0);
              }
              if (!view.current_trick().empty() &&
                  !view.current_trick(0).cards().empty()) {
                ++with_trick_cards;
              }
              EXPECT_EQ(view.completed_rounds_size(), s.rounds_completed());
              between_rounds += state.IsTerminal();
              ++observations;
            }
          });
    }
  }
  EXPECT_GT(observations, 10000);
  EXPECT_GT(with_pending, 20);
  EXPECT_GT(with_trick_cards, 1000);
  EXPECT_GT(with_reserves, 1000);
  EXPECT_GT(between_rounds, 0);
}

// The current trick as everyone saw it (KK-15.1): who did what, the cards
// played and the combination formed; the target is the last combination.
TEST(KrassKariertCodecTest, CurrentTrickShowsEveryActionWithItsCards) {
  int checked = 0;
  PlayRandomGame(*MakeGame(4), 3, [&](const State& state) {
    if (state.IsTerminal()) return;
    const kk::KrassKariertState& s = AsKk(state);
    v1::Observation obs;
    FillObservation(state, 0, &obs);
    const v1::KrassKariertObservation& view = obs.krass_kariert();
    EXPECT_EQ(view.leader(), s.leader());
    if (s.target() == kk::kNoStrength) {
      EXPECT_FALSE(view.has_target());
      EXPECT_EQ(view.target_seat(), -1);
    } else {
      EXPECT_EQ(static_cast<int>(view.target().type()),
                static_cast<int>(kk::TypeOf(s.target())));
      EXPECT_EQ(view.target().key(), kk::KeyOf(s.target()));
    }
    if (view.current_trick().empty()) return;
    EXPECT_EQ(view.current_trick(0).seat(), s.leader());
    const v1::KrassKariertObservation::TrickAction* last_combination = nullptr;
    for (const auto& t : view.current_trick()) {
      if (t.action().has_play()) {
        EXPECT_EQ(t.cards_size(), t.action().play().positions_size());
        if (t.has_combination()) last_combination = &t;
      } else {
        EXPECT_TRUE(t.action().has_take_reserve());
        EXPECT_EQ(t.cards_size(), 0);
      }
      ++checked;
    }
    if (last_combination != nullptr) {
      EXPECT_EQ(last_combination->seat(), view.target_seat());
      EXPECT_EQ(last_combination->combination().SerializeAsString(),
                view.target().SerializeAsString());
    }
  });
  EXPECT_GT(checked, 50);
}

// Round results logged as the rounds end are what an auditor recomputes at
// the end, and they are enough to recompute chips, losers and winners from
// the parameters (KK-1.1, KK-11.3, KK-13) without the engine.
TEST(KrassKariertCodecTest, RoundResultsRecomputeTheFinalResult) {
  int games = 0;
  for (int players = 3; players <= 5; ++players) {
    for (int chips = 2; chips <= 3; ++chips) {
      for (uint64_t seed = 1; seed <= 5; ++seed) {
        std::vector<v1::RoundResult> logged;
        std::unique_ptr<State> final_state;
        const std::unique_ptr<Game> game = MakeGame(players, chips);
        PlayRandomGame(*game, 31 * seed + players, [&](const State& state) {
          while (static_cast<int>(logged.size()) < state.rounds_completed()) {
            logged.push_back(MakeRoundResult(state, logged.size() + 1));
          }
          if (state.IsTerminal()) final_state = state.Clone();
        });
        ASSERT_NE(final_state, nullptr);
        const State& end = *final_state;
        ASSERT_EQ(static_cast<int>(logged.size()), end.rounds_completed());
        // Recompute from the round results alone.
        std::vector<int> recomputed(players, chips);
        std::vector<int> losers;
        for (size_t r = 0; r < logged.size(); ++r) {
          const v1::RoundResult& rr = logged[r];
          EXPECT_EQ(rr.round(), static_cast<int>(r) + 1);
          EXPECT_EQ(rr.SerializeAsString(),
                    MakeRoundResult(end, r + 1).SerializeAsString());
          ASSERT_TRUE(rr.has_krass_kariert());
          EXPECT_FALSE(rr.krass_kariert().charged().empty());
          std::vector<int> eliminated;
          for (int s : rr.krass_kariert().charged()) {
            if (recomputed[s] == 0) {
              eliminated.push_back(s);
            } else {
              --recomputed[s];
            }
          }
          EXPECT_THAT(rr.krass_kariert().chips(), ElementsAreArray(recomputed));
          EXPECT_THAT(rr.krass_kariert().eliminated(),
                      ElementsAreArray(eliminated));
          // KK-13.1: only the last round eliminates.
          EXPECT_EQ(eliminated.empty(), r + 1 < logged.size());
          losers = eliminated;
        }
        const v1::FinalResult result = MakeFinalResult(end);
        ASSERT_TRUE(result.has_krass_kariert());
        const v1::KrassKariertFinalResult& kr = result.krass_kariert();
        EXPECT_THAT(kr.chips(), ElementsAreArray(recomputed));
        EXPECT_THAT(result.scores(),
                    ElementsAreArray(recomputed.begin(), recomputed.end()));
        EXPECT_TRUE(result.higher_score_is_better());  // chips
        EXPECT_THAT(kr.losers(), ElementsAreArray(losers));
        std::vector<int> winners;
        for (int s = 0; s < players; ++s) {
          if (std::find(losers.begin(), losers.end(), s) == losers.end()) {
            winners.push_back(s);
          }
        }
        EXPECT_THAT(kr.winners(), ElementsAreArray(winners));
        EXPECT_THAT(result.winners(), ElementsAreArray(winners));
        ASSERT_EQ(kr.round_losses_size(), static_cast<int>(logged.size()));
        for (int r = 0; r < kr.round_losses_size(); ++r) {
          EXPECT_EQ(kr.round_losses(r).round(), r + 1);
          EXPECT_THAT(kr.round_losses(r).seats(),
                      ElementsAreArray(logged[r].krass_kariert().charged()));
        }
        // The observation lists the same completed rounds.
        v1::Observation obs;
        FillObservation(end, 0, &obs);
        ASSERT_EQ(obs.krass_kariert().completed_rounds_size(),
                  kr.round_losses_size());
        for (int r = 0; r < kr.round_losses_size(); ++r) {
          EXPECT_EQ(obs.krass_kariert().completed_rounds(r).SerializeAsString(),
                    logged[r].krass_kariert().SerializeAsString());
        }
        EXPECT_EQ(obs.result().SerializeAsString(), result.SerializeAsString());
        ++games;
      }
    }
  }
  EXPECT_EQ(games, 30);
}

}  // namespace
}  // namespace cardref::codec
