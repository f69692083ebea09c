#include "referee/codec/codec.h"

#include <set>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/codec/testing/proto_cards.h"
#include "referee/codec/testing/round_trip.h"
#include "games/all_games.h"
#include "games/api/testing/random_play.h"

namespace cardref::codec {
namespace {

using ::cardref::codec::proto_cards::CollectCards;
using ::cardref::codec::round_trip::ExpectDecodesBack;
using ::cardref::random_play::DealWhileChance;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

TEST(CodecTest, EveryRegisteredGameHasACodec) {
  for (const std::string& id : AllGames().Ids()) {
    EXPECT_NE(FindCodec(id), nullptr) << id;
  }
}

TEST(CodecTest, ParamsRoundTrip) {
  GameParams p;
  p.Set("a", true);
  p.Set("b", int64_t{42});
  p.Set("c", std::string("FULL"));
  EXPECT_EQ(ParamsFromProto(ParamsToProto(p)), p);
}

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

TEST(CodecTest, DecodeAcceptsTypedNotationOrBothWhenTheyAgree) {
  std::unique_ptr<Game> game;
  std::unique_ptr<State> state = DealtCraits(3, 7, game);
  ActionList legal;
  state->LegalActions(legal);
  for (Action a : legal) {
    ExpectDecodesBack(*state, EncodeAction(*state, a), a);
  }
  v1::Action mismatch = EncodeAction(*state, legal[0]);
  mismatch.set_notation("draw");
  if (legal[0] != *state->ParseAction("draw")) {
    EXPECT_THAT(std::string(DecodeAction(*state, mismatch).status().message()),
                HasSubstr("disagree"));
  }
  // The typed action's own text is taken without parsing it; any other
  // text that means the same is parsed, and then agrees.
  v1::Action shouted = EncodeAction(*state, legal[0]);
  shouted.set_notation(absl::AsciiStrToUpper(shouted.notation()));
  ASSERT_NE(shouted.notation(), state->ActionToString(legal[0]));
  absl::StatusOr<Action> decoded = DecodeAction(*state, shouted);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, legal[0]);
  v1::Action garbled = EncodeAction(*state, legal[0]);
  garbled.set_notation("play ZZ");
  EXPECT_THAT(std::string(DecodeAction(*state, garbled).status().message()),
              HasSubstr("notation 'play ZZ'"));
  EXPECT_THAT(std::string(DecodeAction(*state, v1::Action()).status().message()),
              HasSubstr("empty action"));
  v1::Action bad_card;
  bad_card.mutable_craits()->mutable_play()->set_card(99);
  EXPECT_THAT(std::string(DecodeAction(*state, bad_card).status().message()),
              HasSubstr("not a card id"));
  v1::Action no_kind;
  no_kind.mutable_craits();
  EXPECT_THAT(std::string(DecodeAction(*state, no_kind).status().message()),
              HasSubstr("no kind"));
  v1::Action bad_notation;
  bad_notation.set_notation("play ZZ");
  EXPECT_EQ(DecodeAction(*state, bad_notation).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace cardref::codec
