// Test support: an action's encoding (EncodeAction: typed form plus
// notation) is the documented one and decodes back to the engine action from
// both forms together, from the typed form alone and from the notation
// alone. Test-only.
#ifndef CARDREF_REFEREE_CODEC_TESTING_ROUND_TRIP_H_
#define CARDREF_REFEREE_CODEC_TESTING_ROUND_TRIP_H_

#include <string>

#include "absl/status/statusor.h"
#include "cardref/v1/game.pb.h"
#include "gtest/gtest.h"
#include "referee/codec/codec.h"
#include "games/api/game.h"

namespace cardref::codec::round_trip {

// `both` is EncodeAction(state, action).
inline void ExpectDecodesBack(const State& state, const v1::Action& both,
                              Action action) {
  absl::StatusOr<Action> from_both = DecodeAction(state, both);
  ASSERT_TRUE(from_both.ok()) << from_both.status();
  EXPECT_EQ(*from_both, action) << both.ShortDebugString();
  v1::Action typed = both;
  typed.clear_notation();
  EXPECT_EQ(*DecodeAction(state, typed), action);
  v1::Action text;
  text.set_notation(both.notation());
  EXPECT_EQ(*DecodeAction(state, text), action);
}

// EncodeAction(state, action) is exactly `typed` with `notation`, and
// `typed` alone decodes back to `action`.
inline void ExpectEncodesAs(const State& state, Action action,
                            const v1::Action& typed,
                            const std::string& notation) {
  const v1::Action encoded = EncodeAction(state, action);
  EXPECT_EQ(encoded.notation(), notation);
  v1::Action expected = typed;
  expected.set_notation(notation);
  EXPECT_EQ(encoded.SerializeAsString(), expected.SerializeAsString())
      << encoded.ShortDebugString();
  absl::StatusOr<Action> decoded = DecodeAction(state, typed);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, action);
}

}  // namespace cardref::codec::round_trip

#endif  // CARDREF_REFEREE_CODEC_TESTING_ROUND_TRIP_H_
