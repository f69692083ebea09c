// CRC-32C (Castagnoli), as used by TFRecord and LevelDB. Debian's Abseil
// 20220623 has no absl/crc, so this is ours; tested against the published
// check values.
#ifndef CARDREF_REFEREE_BASE_CRC32C_H_
#define CARDREF_REFEREE_BASE_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace cardref::crc32c {

// CRC-32C of data[0..n) continuing from `init_crc` (0 for a fresh CRC).
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

// Given crc_a = Value(A) and crc_b = Value(B), returns Value(A + B) without
// reading the data, in O(log len_b) time (zlib's crc32_combine, for CRC-32C).
// It is its own inverse in the second argument: Combine(Value(A),
// Value(A + B), len_b) == Value(B), so a CRC of any range follows from
// CRCs of prefixes.
uint32_t Combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b);

inline constexpr uint32_t kMaskDelta = 0xa282ead8ul;

// Masking keeps a CRC of data that itself contains CRCs from being weak.
inline uint32_t Mask(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}
inline uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - kMaskDelta;
  return ((rot >> 17) | (rot << 15));
}

}  // namespace cardref::crc32c

#endif  // CARDREF_REFEREE_BASE_CRC32C_H_
