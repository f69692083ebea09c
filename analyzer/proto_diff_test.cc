#include "analyzer/proto_diff.h"

#include "cardref/v1/game.pb.h"
#include "cardref/v1/log.pb.h"
#include "gtest/gtest.h"

namespace cardref::analyzer {
namespace {

v1::RoundResult Round(const std::vector<int64_t>& scores) {
  v1::RoundResult r;
  r.set_round(1);
  for (int64_t s : scores) r.mutable_craits()->add_scores(s);
  return r;
}

TEST(FirstDifferenceTest, EqualMessagesHaveNone) {
  EXPECT_FALSE(FirstDifference(Round({1, 2}), Round({1, 2}), "x").has_value());
}

TEST(FirstDifferenceTest, ModifiedRepeatedElement) {
  auto d =
      FirstDifference(Round({10, 12, 3}), Round({10, 15, 3}), "round_result");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "round_result.craits.scores[1]");
  EXPECT_EQ(d->recorded, "12");
  EXPECT_EQ(d->recomputed, "15");
}

TEST(FirstDifferenceTest, FirstInFieldOrderWins) {
  v1::RoundResult a = Round({1, 2});
  v1::RoundResult b = Round({1, 3});
  b.set_round(2);  // field 1 comes before craits (field 10)
  auto d = FirstDifference(a, b, "round_result");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "round_result.round");
  EXPECT_EQ(d->recorded, "1");
  EXPECT_EQ(d->recomputed, "2");
}

TEST(FirstDifferenceTest, AddedAndDeletedElements) {
  auto added = FirstDifference(Round({1}), Round({1, 2}), "r");
  ASSERT_TRUE(added.has_value());
  EXPECT_EQ(added->path, "r.craits.scores[1]");
  EXPECT_EQ(added->recorded, "(absent)");
  EXPECT_EQ(added->recomputed, "2");

  auto deleted = FirstDifference(Round({1, 2}), Round({1}), "r");
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ(deleted->path, "r.craits.scores[1]");
  EXPECT_EQ(deleted->recorded, "2");
  EXPECT_EQ(deleted->recomputed, "(absent)");
}

TEST(FirstDifferenceTest, MissingSubMessage) {
  v1::RoundResult empty;
  empty.set_round(1);
  auto d = FirstDifference(empty, Round({4}), "round_result");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "round_result.craits");
  EXPECT_EQ(d->recorded, "(absent)");
  EXPECT_EQ(d->recomputed, "{scores: 4}");
}

TEST(FirstDifferenceTest, NestedRepeatedMessages) {
  v1::RoundResult a = Round({0, 0});
  a.mutable_craits()->add_hands()->add_cards(5);
  a.mutable_craits()->add_hands()->add_cards(7);
  v1::RoundResult b = a;
  b.mutable_craits()->mutable_hands(1)->set_cards(0, 8);
  auto d = FirstDifference(a, b, "round_result");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "round_result.craits.hands[1].cards[0]");
  EXPECT_EQ(d->recorded, "7");
  EXPECT_EQ(d->recomputed, "8");
}

TEST(FirstDifferenceTest, StringsAreQuotedAndScalarsShowDefaults) {
  v1::Action a, b;
  a.set_notation("play 8S:H");
  b.set_notation("play 8S:D");
  auto d = FirstDifference(a, b, "action.action");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "action.action.notation");
  EXPECT_EQ(d->recorded, "\"play 8S:H\"");
  EXPECT_EQ(d->recomputed, "\"play 8S:D\"");

  v1::FinalResult f1, f2;
  f2.set_higher_score_is_better(true);
  auto e = FirstDifference(f1, f2, "final_result");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->path, "final_result.higher_score_is_better");
  EXPECT_EQ(e->recorded, "false");  // proto3: unset reads as the default
  EXPECT_EQ(e->recomputed, "true");
}

TEST(FirstDifferenceTest, EnumsByName) {
  v1::ChanceEvent a, b;
  a.set_kind(v1::CHANCE_KIND_DEAL);
  b.set_kind(v1::CHANCE_KIND_RESHUFFLE);
  auto d = FirstDifference(a, b, "chance");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->path, "chance.kind");
  EXPECT_EQ(d->recorded, "CHANCE_KIND_DEAL");
  EXPECT_EQ(d->recomputed, "CHANCE_KIND_RESHUFFLE");
}

}  // namespace
}  // namespace cardref::analyzer
