#include "referee/base/deal_stream.h"

#include <cstdlib>

#include "referee/base/sha256.h"

namespace cardref {

namespace {
// `bytes` little-endian bytes of `value` at `out`.
void StoreLe(char* out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
}

void AppendLe(std::string* out, uint64_t value, int bytes) {
  char le[8];
  StoreLe(le, value, bytes);
  out->append(le, bytes);
}
}  // namespace

DealStream::DealStream(absl::string_view seed, ChanceLabel label) {
  if (seed.size() != kDealSeedSize) std::abort();  // a caller's bug
  prefix_.append(kDealAlgorithm);
  prefix_.push_back('\0');
  prefix_.append(seed.data(), seed.size());
  AppendLe(&prefix_, label.kind, 4);
  AppendLe(&prefix_, label.round, 4);
  AppendLe(&prefix_, label.ordinal, 4);
}

void DealStream::Refill() {
  char counter[8];
  StoreLe(counter, counter_++, sizeof(counter));
  hasher_.Update(prefix_);
  hasher_.Update(absl::string_view(counter, sizeof(counter)));
  hasher_.FinishInto(block_);
  used_ = 0;
}

uint32_t DealStream::NextWord() {
  if (used_ + 4 > sizeof(block_)) Refill();
  const unsigned char* p = block_ + used_;
  used_ += 4;
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

uint32_t DealStream::Uniform(uint32_t n) {
  // The largest multiple of n that fits in 2^32: words at or above it
  // would favour small residues.
  const uint64_t limit = (uint64_t{1} << 32) - ((uint64_t{1} << 32) % n);
  for (;;) {
    const uint32_t w = NextWord();
    if (w < limit) return w % n;
  }
}

}  // namespace cardref
