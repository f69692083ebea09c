#include "referee/codec/known_fields_scan.h"

#include <string>

#include "cardref/v1/log.pb.h"
#include "gtest/gtest.h"
#include "referee/base/rng.h"
#include "referee/codec/unknown_fields.h"

namespace cardref::codec {
namespace {

const google::protobuf::Descriptor* Record() {
  return v1::LogRecord::descriptor();
}

// A chance record (packed repeated cards) and an action record (nested
// messages, a string, varints).
std::string ChanceBytes() {
  v1::LogRecord record;
  record.set_unix_micros(1764590000000000);
  record.set_prev_hash(std::string(32, '\x5a'));
  record.mutable_chance()->set_kind(v1::CHANCE_KIND_DEAL);
  for (int c = 0; c < 52; ++c) record.mutable_chance()->add_cards(c * 3);
  return record.SerializeAsString();
}

std::string ActionBytes() {
  v1::LogRecord record;
  record.set_unix_micros(1764590000000001);
  v1::ActionEvent* action = record.mutable_action();
  action->set_seat(2);
  action->set_time_taken_micros(1234);
  action->mutable_action()->set_notation("play 8S:H");
  action->mutable_action()->mutable_craits();
  record.set_signature(std::string(64, '\x01'));
  return record.SerializeAsString();
}

// Appends field `number` with a varint of 7.
std::string WithVarintField(std::string bytes, int number) {
  bytes.push_back(static_cast<char>(number << 3));
  bytes.push_back(7);
  return bytes;
}

TEST(KnownFieldsScanTest, CleanRecordsAreClean) {
  KnownFieldsScan scan;
  EXPECT_TRUE(scan.OnlyKnownFields(ChanceBytes(), Record()));
  EXPECT_TRUE(scan.OnlyKnownFields(ActionBytes(), Record()));
  EXPECT_TRUE(scan.OnlyKnownFields("", Record()));
}

TEST(KnownFieldsScanTest, UnknownTopLevelFieldIsFound) {
  KnownFieldsScan scan;
  const std::string bytes = WithVarintField(ChanceBytes(), 7);
  v1::LogRecord parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  EXPECT_FALSE(scan.OnlyKnownFields(bytes, Record()));
  EXPECT_EQ(codec::FindUnknownField(parsed), "#7");
}

TEST(KnownFieldsScanTest, UnknownNestedFieldIsFound) {
  // Field 9 inside ActionEvent (field 12 of LogRecord).
  v1::ActionEvent event;
  event.set_seat(1);
  const std::string inner = WithVarintField(event.SerializeAsString(), 9);
  std::string bytes;
  bytes.push_back(static_cast<char>((12 << 3) | 2));
  bytes.push_back(static_cast<char>(inner.size()));
  bytes += inner;
  v1::LogRecord parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  KnownFieldsScan scan;
  EXPECT_FALSE(scan.OnlyKnownFields(bytes, Record()));
  EXPECT_EQ(codec::FindUnknownField(parsed), "action.#9");
}

TEST(KnownFieldsScanTest, KnownNumberWithAnotherWireTypeIsNotClean) {
  // unix_micros (field 1, a varint) sent as fixed32: the parser files it as
  // an unknown field.
  const std::string bytes = std::string("\x0d\x01\x02\x03\x04", 5);
  v1::LogRecord parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  KnownFieldsScan scan;
  EXPECT_FALSE(scan.OnlyKnownFields(bytes, Record()));
  EXPECT_TRUE(codec::FindUnknownField(parsed).has_value());
}

TEST(KnownFieldsScanTest, UnpackedRepeatedScalarsAreClean) {
  // cards (field 2 of ChanceEvent) one varint at a time, as an old writer
  // might: the parser accepts both encodings.
  std::string chance = "\x08\x01";  // kind = 1
  for (int c = 1; c <= 3; ++c) {
    chance.push_back(static_cast<char>(2 << 3));
    chance.push_back(static_cast<char>(c));
  }
  std::string bytes;
  bytes.push_back(static_cast<char>((11 << 3) | 2));
  bytes.push_back(static_cast<char>(chance.size()));
  bytes += chance;
  v1::LogRecord parsed;
  ASSERT_TRUE(parsed.ParseFromString(bytes));
  ASSERT_EQ(parsed.chance().cards_size(), 3);
  KnownFieldsScan scan;
  EXPECT_TRUE(scan.OnlyKnownFields(bytes, Record()));
}

// Whatever the bytes, "clean" must never be said of a record in which
// reflection finds an unknown field (the scan may only err on the side of
// asking reflection).
TEST(KnownFieldsScanTest, NeverCleanWhenReflectionFindsUnknownFields) {
  const std::string seeds[] = {ChanceBytes(), ActionBytes()};
  Rng rng(12);
  KnownFieldsScan scan;
  int parsed_count = 0;
  int unknown_count = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::string bytes = seeds[trial % 2];
    const int flips = 1 + static_cast<int>(rng.Uniform(3));
    for (int f = 0; f < flips; ++f) {
      bytes[rng.Uniform(static_cast<uint32_t>(bytes.size()))] = static_cast<char>(rng.Uniform(256));
    }
    v1::LogRecord parsed;
    if (!parsed.ParseFromString(bytes)) continue;
    ++parsed_count;
    const bool unknown = codec::FindUnknownField(parsed).has_value();
    unknown_count += unknown ? 1 : 0;
    if (unknown) {
      ASSERT_FALSE(scan.OnlyKnownFields(bytes, Record()))
          << "trial " << trial << ": " << parsed.ShortDebugString();
    }
  }
  // The mutations reached both cases.
  EXPECT_GT(parsed_count, 1000);
  EXPECT_GT(unknown_count, 100);
}

}  // namespace
}  // namespace cardref::codec
