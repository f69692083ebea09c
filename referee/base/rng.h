// A small deterministic random generator and shuffle, identical on every
// platform and standard library (unlike std::uniform_int_distribution and
// std::shuffle, whose outputs are implementation-defined). Used wherever a
// random choice must be reproducible: random bots, random-play tests,
// benchmarks. Matches deal with deal_stream.h instead (cardref-deal-v1,
// provable from a committed seed).
//
// Generator: SplitMix64 (Steele, Lea, Flood 2014). Bounded integers:
// Lemire's multiply-shift with rejection (unbiased). Shuffle: Fisher-Yates
// from the last index down, drawing j = Uniform(i + 1) for i = n-1 .. 1.
#ifndef CARDREF_REFEREE_BASE_RNG_H_
#define CARDREF_REFEREE_BASE_RNG_H_

#include <cstdint>
#include <utility>

#include "absl/types/span.h"

namespace cardref {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n). Precondition: n > 0.
  uint32_t Uniform(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(Next())) * n;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(Next())) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  template <typename T>
  void Shuffle(absl::Span<T> items) {
    for (size_t i = items.size(); i > 1; --i) {
      size_t j = Uniform(static_cast<uint32_t>(i));
      std::swap(items[i - 1], items[j]);
    }
  }

 private:
  uint64_t state_;
};

}  // namespace cardref

#endif  // CARDREF_REFEREE_BASE_RNG_H_
