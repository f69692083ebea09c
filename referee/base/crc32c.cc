// CRC-32C, reflected polynomial 0x82F63B78 (Castagnoli), initial value and
// final xor 0xFFFFFFFF: the CRC of iSCSI (RFC 3720), LevelDB and TFRecord.
//
// Two implementations with identical results: slicing-by-8 tables (8 KiB,
// built at compile time) and, on x86-64 CPUs that have it, the SSE4.2 CRC32
// instruction, chosen once at run time.
#include "referee/base/crc32c.h"

#include <array>
#include <cstring>

#include "referee/base/crc32c_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CARDREF_CRC32C_HAVE_SSE42 1
#include <nmmintrin.h>
#else
#define CARDREF_CRC32C_HAVE_SSE42 0
#endif

namespace cardref::crc32c {
namespace internal {

constexpr uint32_t kPolynomial = 0x82F63B78u;  // reflected 0x1EDC6F41

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

// tables[0] is the classic byte-at-a-time table; tables[k][b] is the CRC
// contribution of byte b followed by k zero bytes, so eight table lookups
// advance the CRC by eight bytes.
constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t crc = b;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1) ? (crc >> 1) ^ kPolynomial : crc >> 1;
    }
    t[0][b] = crc;
  }
  for (int k = 1; k < 8; ++k) {
    for (uint32_t b = 0; b < 256; ++b) {
      const uint32_t prev = t[k - 1][b];
      t[k][b] = (prev >> 8) ^ t[0][prev & 0xff];
    }
  }
  return t;
}

constexpr Tables kTables = MakeTables();

// Little-endian load, independent of host byte order and alignment.
inline uint32_t LoadLE32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}

}  // namespace

uint32_t ExtendPortable(uint32_t init_crc, const char* data, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint32_t crc = init_crc ^ 0xFFFFFFFFu;
  while (n >= 8) {
    const uint32_t lo = LoadLE32(p) ^ crc;
    const uint32_t hi = LoadLE32(p + 4);
    crc = kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^
          kTables[5][(lo >> 16) & 0xff] ^ kTables[4][lo >> 24] ^
          kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
          kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n > 0) {
    crc = (crc >> 8) ^ kTables[0][(crc ^ *p) & 0xff];
    ++p;
    --n;
  }
  return crc ^ 0xFFFFFFFFu;
}

#if CARDREF_CRC32C_HAVE_SSE42

bool HardwareAvailable() {
  static const bool available = __builtin_cpu_supports("sse4.2");
  return available;
}

__attribute__((target("sse4.2"))) uint32_t ExtendHardware(uint32_t init_crc,
                                                          const char* data,
                                                          size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  uint32_t crc = init_crc ^ 0xFFFFFFFFu;
  // The instruction processes bytes in memory order, so x86's little-endian
  // 8-byte loads give the same CRC as byte-at-a-time.
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    crc = _mm_crc32_u8(crc, *p++);
    --n;
  }
  uint64_t crc64 = crc;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof(word));
    crc64 = _mm_crc32_u64(crc64, word);
    p += 8;
    n -= 8;
  }
  crc = static_cast<uint32_t>(crc64);
  while (n > 0) {
    crc = _mm_crc32_u8(crc, *p++);
    --n;
  }
  return crc ^ 0xFFFFFFFFu;
}

#else  // !CARDREF_CRC32C_HAVE_SSE42

bool HardwareAvailable() { return false; }

uint32_t ExtendHardware(uint32_t init_crc, const char* data, size_t n) {
  return ExtendPortable(init_crc, data, n);
}

#endif  // CARDREF_CRC32C_HAVE_SSE42

}  // namespace internal

namespace {

// Polynomials mod P, bit-reflected like the CRC register: bit 31 is x^0.
// Returns a * b mod P.
uint32_t MultModP(uint32_t a, uint32_t b) {
  uint32_t product = 0;
  for (uint32_t m = 1u << 31; m != 0; m >>= 1) {
    if (a & m) product ^= b;
    b = (b & 1) ? (b >> 1) ^ internal::kPolynomial : b >> 1;
  }
  return product;
}

// powers[k] = x^(2^k) mod P, for k up to 3 + 63 (x^(8 len) for any uint64).
using Powers = std::array<uint32_t, 67>;
Powers MakePowers() {
  Powers powers{};
  powers[0] = 1u << 30;  // x^1
  for (size_t k = 1; k < powers.size(); ++k) {
    powers[k] = MultModP(powers[k - 1], powers[k - 1]);
  }
  return powers;
}

}  // namespace

uint32_t Combine(uint32_t crc_a, uint32_t crc_b, uint64_t len_b) {
  static const Powers kPowers = MakePowers();
  // Appending len_b bytes multiplies A's CRC by x^(8 len_b); the initial
  // value and final xor cancel out (as in zlib's crc32_combine).
  uint32_t shift = 1u << 31;  // x^0
  int k = 3;                  // x^(8 n) = x^(n * 2^3)
  for (uint64_t n = len_b; n != 0; n >>= 1, ++k) {
    if (n & 1) shift = MultModP(kPowers[k], shift);
  }
  return MultModP(shift, crc_a) ^ crc_b;
}

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  using ExtendFn = uint32_t (*)(uint32_t, const char*, size_t);
  static const ExtendFn extend = internal::HardwareAvailable()
                                     ? &internal::ExtendHardware
                                     : &internal::ExtendPortable;
  return extend(init_crc, data, n);
}

}  // namespace cardref::crc32c
