// Test support for the fuzz targets: reads typed values off the fuzzer's
// bytes (a short input reads as zeros, never out of bounds), and FUZZ_CHECK,
// which turns a broken invariant into a crash the fuzzer reports.
#ifndef CARDREF_TESTS_FUZZ_FUZZ_INPUT_H_
#define CARDREF_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/string_view.h"

#define FUZZ_CHECK(condition, what)                                      \
  do {                                                                   \
    if (!(condition)) {                                                  \
      std::fprintf(stderr, "%s:%d: invariant broken: %s: %s\n", __FILE__, \
                   __LINE__, #condition, std::string(what).c_str());     \
      std::abort();                                                      \
    }                                                                    \
  } while (0)

namespace cardref::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size)
      : data_(reinterpret_cast<const char*>(data)), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return size_ - pos_; }

  uint8_t U8() { return empty() ? 0 : static_cast<uint8_t>(data_[pos_++]); }
  uint16_t U16() { return static_cast<uint16_t>(U8() | (U8() << 8)); }
  uint32_t U32() { return U16() | (static_cast<uint32_t>(U16()) << 16); }
  uint64_t U64() { return U32() | (static_cast<uint64_t>(U32()) << 32); }

  // The next `n` bytes, or fewer at the end.
  absl::string_view Bytes(size_t n) {
    if (n > remaining()) n = remaining();
    absl::string_view out(data_ + pos_, n);
    pos_ += n;
    return out;
  }
  // A chunk: a 16-bit little-endian length, then that many bytes.
  absl::string_view Chunk() { return Bytes(U16()); }
  // The bytes up to the next '\n' (consumed, not returned), or to the end.
  absl::string_view Line() {
    size_t end = pos_;
    while (end < size_ && data_[end] != '\n') ++end;
    absl::string_view out(data_ + pos_, end - pos_);
    pos_ = end < size_ ? end + 1 : end;
    return out;
  }
  absl::string_view Rest() { return Bytes(remaining()); }

 private:
  const char* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace cardref::fuzz

#endif  // CARDREF_TESTS_FUZZ_FUZZ_INPUT_H_
