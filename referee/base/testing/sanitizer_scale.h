// Test support: how many random games a suite plays in this build.
#ifndef CARDREF_REFEREE_BASE_TESTING_SANITIZER_SCALE_H_
#define CARDREF_REFEREE_BASE_TESTING_SANITIZER_SCALE_H_

#include "absl/base/config.h"

namespace cardref::testing_util {

// The random-play suites play their full count in the uninstrumented build
// and a tenth of it under a sanitizer, where each game costs 5-15 times as
// much: the invariants are the same, a tenth is still 500 to 1,000 games,
// and the fuzz targets drive the same engines (docs/testing.md, "CI time").
#if defined(ABSL_HAVE_ADDRESS_SANITIZER) || \
    defined(ABSL_HAVE_THREAD_SANITIZER) || defined(ABSL_HAVE_MEMORY_SANITIZER)
inline constexpr int kSanitizerDivisor = 10;
#else
inline constexpr int kSanitizerDivisor = 1;
#endif

constexpr int GamesForThisBuild(int games) { return games / kSanitizerDivisor; }

// `games` in an uninstrumented build, `under_sanitizer` under a sanitizer:
// for a suite whose coverage needs another share than a tenth.
constexpr int GamesForThisBuild(int games, int under_sanitizer) {
  return kSanitizerDivisor > 1 ? under_sanitizer : games;
}

}  // namespace cardref::testing_util

#endif  // CARDREF_REFEREE_BASE_TESTING_SANITIZER_SCALE_H_
