#include "analyzer/conformance/json_util.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cardref::conformance {
namespace {

using json = nlohmann::json;

std::string Message(const absl::Status& status) {
  return std::string(status.message());
}

TEST(JsonUtilTest, BadActionFieldNamesGameAndField) {
  const absl::Status st = BadActionField("kraken", "card", "missing");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(), "kraken action field 'card': missing");
}

TEST(JsonUtilTest, ActionTypeNeedsAnObjectWithAStringType) {
  EXPECT_EQ(ActionType("g", json::parse(R"({"type":"PLAY"})")).value(), "PLAY");
  EXPECT_EQ(Message(ActionType("g", json::parse("[1]")).status()),
            "g action field '': an action must be a JSON object");
  EXPECT_EQ(Message(ActionType("g", json::parse("{}")).status()),
            "g action field 'type': missing or not a string");
  EXPECT_EQ(Message(ActionType("g", json::parse(R"({"type":3})")).status()),
            "g action field 'type': missing or not a string");
}

TEST(JsonUtilTest, IntFieldIsPresentIntegerAndInRange) {
  const json a = json::parse(R"({"zero":0,"top":7,"neg":-1,"big":8,"s":"1"})");
  EXPECT_EQ(IntField("g", a, "zero", 7).value(), 0);
  EXPECT_EQ(IntField("g", a, "top", 7).value(), 7);
  EXPECT_EQ(Message(IntField("g", a, "neg", 7).status()),
            "g action field 'neg': must be in 0..7, got -1");
  EXPECT_EQ(Message(IntField("g", a, "big", 7).status()),
            "g action field 'big': must be in 0..7, got 8");
  EXPECT_EQ(Message(IntField("g", a, "s", 7).status()),
            "g action field 's': must be an integer");
  EXPECT_EQ(Message(IntField("g", a, "none", 7).status()),
            "g action field 'none': missing");
}

TEST(JsonUtilTest, OptionalBoolFieldDefaultsWhenAbsent) {
  const json a = json::parse(R"({"t":true,"f":false,"n":1})");
  EXPECT_TRUE(OptionalBoolField("g", a, "t", false).value());
  EXPECT_FALSE(OptionalBoolField("g", a, "f", true).value());
  EXPECT_TRUE(OptionalBoolField("g", a, "none", true).value());
  EXPECT_FALSE(OptionalBoolField("g", a, "none", false).value());
  EXPECT_EQ(Message(OptionalBoolField("g", a, "n", false).status()),
            "g action field 'n': must be a boolean");
}

}  // namespace
}  // namespace cardref::conformance
