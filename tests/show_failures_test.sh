#!/usr/bin/env bash
# scripts/show_failures.sh prints the end of each failed test's section of
# ctest's LastTest.log, and nothing of the tests that passed.
#   tests/show_failures_test.sh SOURCE_DIR
set -euo pipefail
script="$1/scripts/show_failures.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Testing/Temporary"
log="$work/Testing/Temporary/LastTest.log"
{
  echo "Start testing: Dec 04 16:00 UTC"
  echo "----------------------------------------------------------"
  echo "1/3 Testing: Suite.Passes"
  echo "passing output"
  echo '"Suite.Passes" end time: Dec 04 16:00 UTC'
  echo "----------------------------------------------------------"
  echo "2/3 Testing: Shards/Suite.Fails/3"
  for i in $(seq 1 100); do echo "failing line $i"; done
  echo "Test Failed."
  echo '"Shards/Suite.Fails/3" end time: Dec 04 16:00 UTC'
  echo "----------------------------------------------------------"
  echo "3/3 Testing: Suite.Fails"
  echo "another failure"
  echo '"Suite.Fails" end time: Dec 04 16:00 UTC'
} > "$log"

# No LastTestsFailed.log: nothing failed, nothing printed.
out=$("$script" "$work" 5)
[ -z "$out" ] || { echo "FAIL: printed without failures: $out"; exit 1; }

printf '2:Shards/Suite.Fails/3\n3:Suite.Fails\n' \
  > "$work/Testing/Temporary/LastTestsFailed.log"
out=$("$script" "$work" 5)
echo "$out"
expected="== the end of the output of failed test 'Shards/Suite.Fails/3' ($work)
failing line 98
failing line 99
failing line 100
Test Failed.
\"Shards/Suite.Fails/3\" end time: Dec 04 16:00 UTC
== the end of the output of failed test 'Suite.Fails' ($work)
3/3 Testing: Suite.Fails
another failure
\"Suite.Fails\" end time: Dec 04 16:00 UTC"
if [ "$out" != "$expected" ]; then
  echo "FAIL: expected:"; echo "$expected"; exit 1
fi
echo "PASS"
