#include "referee/codec/unknown_fields.h"

#include "cardref/v1/log.pb.h"
#include "cardref/v1/referee.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/unknown_field_set.h"
#include "gtest/gtest.h"

namespace cardref::codec {
namespace {

using ::testing::HasSubstr;
using ::testing::Optional;

void AddUnknown(google::protobuf::Message& m, int number) {
  m.GetReflection()->MutableUnknownFields(&m)->AddVarint(number, 1);
}

TEST(UnknownFieldsTest, KnownMessagesPass) {
  v1::SubmitActionRequest request;
  request.set_match_id("m");
  request.mutable_action()->mutable_craits()->mutable_play()->set_card(3);
  EXPECT_EQ(FindUnknownField(request), std::nullopt);
  EXPECT_TRUE(CheckNoUnknownFields(request).ok());
}

TEST(UnknownFieldsTest, FindsTopLevelAndNestedFieldsWithTheirPath) {
  v1::SubmitActionRequest top;
  AddUnknown(top, 99);
  EXPECT_THAT(FindUnknownField(top), Optional(std::string("#99")));

  v1::SubmitActionRequest nested;
  AddUnknown(*nested.mutable_action()->mutable_craits()->mutable_play(), 7);
  EXPECT_THAT(FindUnknownField(nested),
              Optional(std::string("action.craits.play.#7")));
  absl::Status st = CheckNoUnknownFields(nested);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()), HasSubstr("action.craits.play.#7"));

  v1::LogRecord record;
  record.mutable_final_result()->add_scores(1);
  record.mutable_header()->add_seats();
  AddUnknown(*record.mutable_header()->add_seats(), 12);
  EXPECT_THAT(FindUnknownField(record),
              Optional(std::string("header.seats[1].#12")));
}

TEST(UnknownFieldsTest, SurvivesASerializationRoundTrip) {
  // What a bot with newer stubs sends: bytes with a field number we lack.
  v1::SeatRequest newer;
  newer.set_match_id("m");
  AddUnknown(newer, 42);
  v1::SeatRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(newer.SerializeAsString()));
  EXPECT_THAT(FindUnknownField(parsed), Optional(std::string("#42")));
}

TEST(UnknownFieldsTest, AParsedMessageGetsTheSameAnswerFromItsScannedBytes) {
  v1::PlaySeatRequest known;
  known.mutable_action()->set_decision_version(12);
  known.mutable_action()->mutable_action()->mutable_craits()->mutable_play()
      ->set_card(3);
  EXPECT_TRUE(CheckNoUnknownFieldsOfParsed(known).ok());
  // Twice: the second call reuses the thread's tables and buffer.
  EXPECT_TRUE(CheckNoUnknownFieldsOfParsed(known).ok());

  v1::PlaySeatRequest nested = known;
  AddUnknown(*nested.mutable_action()->mutable_action()->mutable_craits()
                  ->mutable_play(),
             7);
  absl::Status st = CheckNoUnknownFieldsOfParsed(nested);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("action.action.craits.play.#7"));

  // A known number with the wrong wire type lands in the unknown fields.
  v1::PlaySeatRequest wrong_type;
  wrong_type.mutable_seat()->set_match_id("m");
  std::string wire = wrong_type.SerializeAsString();
  wire += std::string("\x08\x05", 2);  // seat = 1 as a varint
  v1::PlaySeatRequest parsed;
  ASSERT_TRUE(parsed.ParseFromString(wire));
  EXPECT_EQ(CheckNoUnknownFieldsOfParsed(parsed).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckNoUnknownFieldsOfParsed(parsed).message(),
            CheckNoUnknownFields(parsed).message());
}

}  // namespace
}  // namespace cardref::codec
