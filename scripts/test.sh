#!/usr/bin/env bash
# Runs the whole cardref test suite: installs packages if missing, builds
# (Release, warnings as errors), runs every CTest test (unit, random-play,
# conformance, gRPC integration, fuzz corpora), then all of them again under
# AddressSanitizer + UBSan (clang), each fuzz target under libFuzzer for a
# bounded time (same build), the concurrency tests under ThreadSanitizer
# (GCC), and clang-tidy on the files changed since the last whole-tree check
# (.ci/tidy_base).
# Prints how long each stage took.
#   scripts/test.sh              everything
#   SANITIZE=0 TSAN=0 FUZZ=0 TIDY=0 scripts/test.sh   skip those lanes
set -euo pipefail
cd "$(dirname "$0")/.."

stage_start=$(date +%s)
stage() {
  local now; now=$(date +%s)
  if [ -n "${stage_name:-}" ]; then
    echo "== stage '$stage_name' took $((now - stage_start)) s"
  fi
  stage_name="$1"; stage_start=$now
  [ -n "$1" ] && echo "== stage '$1'"
  return 0
}
total_start=$(date +%s)

# ctest runs the longest tests first when it knows their times, from
# Testing/Temporary/CTestCostData.txt; a fresh clone has none, and the two-
# slot tests then end the run alone. Seed it from scripts/ctest_costs/ (times
# of a measured run, tests of 2 s and more; regenerate with
# scripts/ctest_costs/update.sh). ctest keeps it current from then on.
seed_costs() {
  local dir="$1/Testing/Temporary"
  if [ ! -f "$dir/CTestCostData.txt" ]; then
    mkdir -p "$dir" && cp "scripts/ctest_costs/$2.txt" "$dir/CTestCostData.txt"
  fi
}

# ctest, then (when a test failed) the end of each failed test's output
# again, last, where CI's shortened log still shows it.
#   run_ctest BUILD_DIR CTEST_ARGS...
run_ctest() {
  local dir="$1" rc=0
  shift
  ctest --test-dir "$dir" "$@" || rc=$?
  if [ "$rc" != 0 ]; then
    scripts/show_failures.sh "$dir"
    exit "$rc"
  fi
}

# End-to-end suites (whole events, browsers, Slurm, PostgreSQL, the
# sandbox) run in the Release lane only: docs/testing.md, "Labels".
RELEASE_ONLY='e2e|web|sandbox|postgres|slurm'

stage "install and build"
scripts/build.sh -DCARDREF_WERROR=ON

stage "tests"
seed_costs build release
run_ctest build --output-on-failure -j2 --timeout 900

# One clang build serves the sanitizer and the fuzz lanes: every library
# and test with ASan+UBSan and libFuzzer's coverage instrumentation, plus the
# fuzz targets (a separate GCC ASan build and a clang fuzz build cost twice
# the compile time of a cold run: docs/testing.md, "CI time").
if [ "${SANITIZE:-1}" != "0" ] || [ "${FUZZ:-1}" != "0" ]; then
  stage "sanitizer build (clang: ASan+UBSan, fuzz targets)"
  targets=""
  [ "${SANITIZE:-1}" = "0" ] && targets=cardref_fuzz_targets
  BUILD_DIR=build-asan BUILD_TARGETS=$targets scripts/build.sh \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DCARDREF_SANITIZE=ON -DCARDREF_FUZZ=ON -DCARDREF_WERROR=ON \
    -DCMAKE_CXX_FLAGS=-gline-tables-only \
    -DCARDREF_FUZZ_SECONDS="${CARDREF_FUZZ_SECONDS:-20}"
fi
if [ "${SANITIZE:-1}" != "0" ]; then
  # Not the end-to-end suites (processes, browsers, daemons, real
  # servers): they test what the units compose, and the units run here.
  stage "sanitizer tests"
  seed_costs build-asan sanitizer
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$PWD/scripts/sanitizers/lsan_suppressions.txt" \
    run_ctest build-asan -LE "^(fuzz|$RELEASE_ONLY)\$" --output-on-failure -j2 --timeout 1800
fi
if [ "${FUZZ:-1}" != "0" ]; then
  stage "fuzzing (${CARDREF_FUZZ_SECONDS:-20} s per target)"
  run_ctest build-asan -L '^fuzz$' --output-on-failure -j2
fi
if [ "${TSAN:-1}" != "0" ]; then
  # -O1: the lane looks for races, not speed; it compiles a quarter faster.
  stage "thread sanitizer build (concurrency tests)"
  BUILD_DIR=build-tsan BUILD_TARGETS=cardref_concurrency_tests \
    scripts/build.sh -DCARDREF_TSAN=ON -DCARDREF_WERROR=ON \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG"
  stage "thread sanitizer tests"
  seed_costs build-tsan tsan
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/scripts/sanitizers/tsan_suppressions.txt" \
    run_ctest build-tsan -L concurrency --output-on-failure -j2 --timeout 1800
fi

if [ "${TIDY:-1}" != "0" ]; then
  stage "clang-tidy (files changed since .ci/tidy_base)"
  base=$(cat .ci/tidy_base)
  if git cat-file -e "$base^{commit}" 2>/dev/null; then
    scripts/clang_tidy.sh build --since "$base"
  else
    echo "clang-tidy: base $base is not in this clone's history; checking the tree"
    scripts/clang_tidy.sh build --all
  fi
fi

stage ""
echo "== all stages took $(( $(date +%s) - total_start )) s"
