#!/usr/bin/env bash
# Runs the whole cardref test suite: installs packages if missing, builds
# (Release, warnings as errors), runs every CTest test (unit, random-play,
# conformance, gRPC integration), then all of them again under
# AddressSanitizer + UBSan. Prints how long each stage took.
#   tools/test.sh              everything
#   SANITIZE=0 tools/test.sh   skip the sanitizer stage
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

stage "install and build"
tools/build.sh -DCARDREF_WERROR=ON

stage "tests"
ctest --test-dir build --output-on-failure -j2 --timeout 900

if [ "${SANITIZE:-1}" != "0" ]; then
  stage "sanitizer build (ASan+UBSan)"
  BUILD_DIR=build-asan tools/build.sh -DCARDREF_SANITIZE=ON -DCARDREF_WERROR=ON
  stage "sanitizer tests"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS=suppressions="$PWD/tools/lsan_suppressions.txt" \
    ctest --test-dir build-asan --output-on-failure -j2 --timeout 1800
fi
stage ""
echo "== all stages took $(( $(date +%s) - total_start )) s"
