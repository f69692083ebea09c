#!/usr/bin/env bash
# docs/rules/<game>.md and the code's tests name the same rules.
#   1. Every rule ID an engine test names (games/<game>/*_test.cc and
#      its *_test_util.h) is in docs/rules/<game>.md: a rule added to the code
#      without docs fails here.
#   2. Every rule ID the doc names is one the code's tests name (any
#      *_test.cc under games/, referee/, analyzer/ or tests/), letter suffixes aside:
#      the doc may split CR-11.2 into CR-11.2a..d, but names no rule the
#      tests do not know (a typo, or a rule the code lost).
# Usage: rules_docs_test.sh TOP [--expect_failure]
# With --expect_failure it copies TOP's docs and tests to a temp dir, adds an
# undocumented ID to one engine test and checks that the check fails.
set -euo pipefail
top=$1

ids() {  # ids PREFIX FILES... -> sorted unique rule IDs
  local prefix=$1; shift
  grep -ohE "\\b${prefix}-[0-9]+(\\.[0-9]+[a-z]?)?" "$@" 2>/dev/null |
    sort -u || true
}

check() {
  local top=$1 status=0
  for entry in CR:craits KK:krass_kariert KR:kraken; do
    local prefix=${entry%%:*} game=${entry#*:}
    local doc="$top/docs/rules/$game.md"
    if [ ! -f "$doc" ]; then
      echo "MISSING: $doc"; status=1; continue
    fi
    local engine_tests
    local dir="$top/games/$game"
    engine_tests=$(ls "$dir"/*_test.cc "$dir"/*test_util.h 2>/dev/null || true)
    if [ -z "$engine_tests" ]; then
      echo "MISSING: no engine tests in games/$game"
      status=1
      continue
    fi
    local doc_ids test_ids all_test_ids
    doc_ids=$(ids "$prefix" "$doc")
    # shellcheck disable=SC2086
    test_ids=$(ids "$prefix" $engine_tests)
    all_test_ids=$(find "$top/games" "$top/referee" "$top/analyzer" "$top/tests" \
                     -name '*_test.cc' -print0 |
                   xargs -0 grep -ohE "\\b${prefix}-[0-9]+(\\.[0-9]+)?" |
                   sort -u)
    local undocumented
    undocumented=$(comm -13 <(echo "$doc_ids") <(echo "$test_ids"))
    if [ -n "$undocumented" ]; then
      echo "UNDOCUMENTED in docs/rules/$game.md (named by the engine" \
           "tests):" $undocumented
      status=1
    fi
    local unknown
    unknown=$(comm -23 <(echo "$doc_ids" | sed -E 's/[a-z]$//' | sort -u) \
                       <(echo "$all_test_ids"))
    if [ -n "$unknown" ]; then
      echo "UNKNOWN to the tests, named in docs/rules/$game.md:" $unknown
      status=1
    fi
    echo "$game: $(echo "$doc_ids" | wc -l) rule IDs documented," \
         "$(echo "$test_ids" | wc -l) named by the engine tests"
  done
  return $status
}

if [ "${2:-}" = "--expect_failure" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/docs"
  cp -r "$top/docs/rules" "$tmp/docs/"
  cp -r "$top/games" "$tmp/"
  mkdir -p "$tmp/referee" "$tmp/analyzer" "$tmp/tests"
  echo "// KR-99.1 a rule nobody documented" \
    >> "$tmp/games/kraken/kraken_test.cc"
  if out=$(check "$tmp"); then
    echo "FAIL: the check passed although kraken_test.cc names KR-99.1"
    exit 1
  fi
  if ! echo "$out" | grep -q "UNDOCUMENTED.*KR-99.1"; then
    echo "FAIL: unexpected output: $out"
    exit 1
  fi
  echo "$out" | grep "UNDOCUMENTED"
  echo "ok: an undocumented rule ID fails the check"
  exit 0
fi

check "$top"
