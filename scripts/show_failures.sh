#!/usr/bin/env bash
# Prints the end of each failed test's output from the last ctest run in
# BUILD_DIR, after the run's summary: CI shows only the head and tail of a
# long log, and ctest's --output-on-failure prints a failure in the middle.
# Call it after a failed run only: ctest leaves LastTestsFailed.log of an
# earlier run in place when a later one passes.
#   scripts/show_failures.sh BUILD_DIR [LINES]
set -uo pipefail
dir="$1/Testing/Temporary"
lines="${2:-60}"
[ -f "$dir/LastTestsFailed.log" ] || exit 0
# LastTest.log holds every test's section, from "N/M Testing: NAME" to
# "\"NAME\" end time: ..."; LastTestsFailed.log a line "N:NAME" per failure.
while IFS= read -r entry; do
  name="${entry#*:}"
  echo "== the end of the output of failed test '$name' ($1)"
  awk -v name="$name" '
    !on && $0 ~ /^[0-9]+\/[0-9]+ Testing: / &&
        substr($0, index($0, ": ") + 2) == name { on = 1 }
    on { print }
    on && index($0, "\"" name "\" end time:") == 1 { exit }
  ' "$dir/LastTest.log" | tail -n "$lines"
done < "$dir/LastTestsFailed.log"
