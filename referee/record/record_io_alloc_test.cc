// The reader never allocates a length it has read from the file before the
// whole record is present and verified. This binary replaces the global
// operator new to record the largest single request, so it is kept apart
// from the other tests.
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "referee/base/crc32c.h"
#include "referee/record/record_io.h"

namespace {

bool tracking = false;
size_t largest_request = 0;

void* Allocate(size_t n) {
  if (tracking && n > largest_request) largest_request = n;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}

}  // namespace

void* operator new(size_t n) { return Allocate(n); }
void* operator new[](size_t n) { return Allocate(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  try {
    return Allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  try {
    return Allocate(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace cardref::record {
namespace {

// The largest single allocation made while parsing `bytes`.
size_t LargestAllocationParsing(absl::string_view bytes, bool salvage) {
  ReadOptions options;
  options.salvage = salvage;
  largest_request = 0;
  tracking = true;
  const RecordFile file = ParseRecords(bytes, options);
  tracking = false;
  return largest_request;
}

// "foo" with its length field forged to `length` and a valid length CRC.
std::string ForgedFoo(uint64_t length) {
  std::string bytes = FrameRecord("foo");
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(length >> (8 * i));
  const uint32_t crc = crc32c::Mask(crc32c::Value(bytes.data(), 8));
  for (int i = 0; i < 4; ++i) bytes[8 + i] = static_cast<char>(crc >> (8 * i));
  return bytes;
}

TEST(RecordIoAllocTest, TrackerSeesLargeAllocations) {
  // Pins the instrument: a legitimate 1 MB record is allocated once.
  const std::string big = FrameRecord(std::string(1 << 20, 'x'));
  EXPECT_GE(LargestAllocationParsing(big, false), size_t{1} << 20);
}

TEST(RecordIoAllocTest, ForgedLengthsAreNeverAllocated) {
  for (uint64_t length :
       {kDefaultMaxRecordSize, kDefaultMaxRecordSize - 1,
        kDefaultMaxRecordSize + 1, uint64_t{1} << 40, ~uint64_t{0}}) {
    const std::string bytes = ForgedFoo(length);
    for (bool salvage : {false, true}) {
      SCOPED_TRACE(length);
      const RecordFile file = ParseRecords(bytes);
      EXPECT_NE(file.end, FileEnd::kComplete);
      EXPECT_LT(LargestAllocationParsing(bytes, salvage), 4096u);
    }
  }
}

TEST(RecordIoAllocTest, SalvageScanOverForgedHeadersAllocatesLittle) {
  // Damage, then many self-consistent headers claiming 60 MiB, each
  // followed by junk, then one good record.
  std::string bytes = FrameRecord("ok") + "x";
  for (int i = 0; i < 100; ++i) bytes += ForgedFoo(60u << 20) + "junk";
  bytes += FrameRecord("end");
  EXPECT_LT(LargestAllocationParsing(bytes, true), 4096u);

  ReadOptions salvage;
  salvage.salvage = true;
  const RecordFile file = ParseRecords(bytes, salvage);
  EXPECT_EQ(file.end, FileEnd::kCorrupt);
  ASSERT_EQ(file.records.size(), 2u);
  EXPECT_EQ(file.records[0].payload, "ok");
  EXPECT_EQ(file.records[1].payload, "end");
  EXPECT_TRUE(file.records[1].salvaged);
}

}  // namespace
}  // namespace cardref::record
