#include "games/api/params.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"

namespace cardref {
namespace {

using ::testing::HasSubstr;

std::vector<ParamSpec> Schema() {
  return {ParamSpec::Bool("flag", false, "X-1", "a flag"),
          ParamSpec::Int("count", 3, 1, 5, "X-2", "a count"),
          ParamSpec::Enum("mode", "A", {"A", "B"}, "X-3", "a mode")};
}

TEST(ParamsTest, CompleteFillsDefaults) {
  GameParams given;
  given.Set("count", int64_t{4});
  absl::StatusOr<GameParams> p = CompleteParams(given, Schema(), "X-0");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_FALSE(p->GetBool("flag"));
  EXPECT_EQ(p->GetInt("count"), 4);
  EXPECT_EQ(p->GetEnum("mode"), "A");
  EXPECT_EQ(p->ToString(), "count=4,flag=false,mode=A");
}

TEST(ParamsTest, RejectsUnknownWrongTypeAndRange) {
  GameParams unknown;
  unknown.Set("colour", true);
  EXPECT_THAT(std::string(CompleteParams(unknown, Schema(), "X-0").status().message()),
              HasSubstr("X-0: unknown parameter 'colour'"));
  GameParams wrong_type;
  wrong_type.Set("flag", int64_t{1});
  EXPECT_THAT(std::string(CompleteParams(wrong_type, Schema(), "X-0").status().message()),
              HasSubstr("X-1: parameter 'flag' must be a bool"));
  GameParams out_of_range;
  out_of_range.Set("count", int64_t{6});
  EXPECT_THAT(std::string(CompleteParams(out_of_range, Schema(), "X-0").status().message()),
              HasSubstr("must be in 1..5, got 6"));
  GameParams bad_enum;
  bad_enum.Set("mode", std::string("C"));
  EXPECT_THAT(std::string(CompleteParams(bad_enum, Schema(), "X-0").status().message()),
              HasSubstr("must be one of A, B"));
}

TEST(ParamsTest, FindParamSpecAndParamNames) {
  const std::vector<ParamSpec> schema = Schema();
  const ParamSpec* count = FindParamSpec(schema, "count");
  ASSERT_NE(count, nullptr);
  EXPECT_EQ(count, &schema[1]);
  EXPECT_EQ(FindParamSpec(schema, "colour"), nullptr);
  EXPECT_EQ(FindParamSpec({}, "count"), nullptr);
  EXPECT_EQ(ParamNames(schema), "flag, count, mode");
  EXPECT_EQ(ParamNames({}), "");
  // What the unknown-parameter messages list.
  GameParams unknown;
  unknown.Set("colour", true);
  EXPECT_EQ(CompleteParams(unknown, schema, "X-0").status().message(),
            "X-0: unknown parameter 'colour'; known: flag, count, mode");
  EXPECT_EQ(ParseParams("nope=1", schema).status().message(),
            "unknown parameter 'nope'; known: flag, count, mode");
}

TEST(ParamsTest, ParseRoundTrips) {
  absl::StatusOr<GameParams> p =
      ParseParams("flag=true, count=2,mode=B", Schema());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->GetBool("flag"));
  EXPECT_EQ(p->GetInt("count"), 2);
  absl::StatusOr<GameParams> again = ParseParams(p->ToString(), Schema());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *p);
  EXPECT_FALSE(ParseParams("count", Schema()).ok());
  EXPECT_FALSE(ParseParams("count=x", Schema()).ok());
  EXPECT_FALSE(ParseParams("nope=1", Schema()).ok());
}

// The generator's outputs are part of the log format (dealing seeds): pin
// them so a change is noticed.
TEST(RngTest, OutputsArePinned) {
  Rng rng(1234567);
  EXPECT_EQ(rng.Next(), 6457827717110365317ull);
  EXPECT_EQ(rng.Next(), 3203168211198807973ull);
  Rng a(42), b(42);
  int v[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  int w[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  a.Shuffle(absl::MakeSpan(v));
  b.Shuffle(absl::MakeSpan(w));
  EXPECT_TRUE(std::equal(v, v + 10, w));
  int counts[3] = {0, 0, 0};
  Rng c(7);
  for (int i = 0; i < 30000; ++i) ++counts[c.Uniform(3)];
  for (int k : counts) EXPECT_NEAR(k, 10000, 400);
}

}  // namespace
}  // namespace cardref
