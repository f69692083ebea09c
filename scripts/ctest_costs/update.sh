#!/usr/bin/env bash
# Refreshes the scheduling hints scripts/test.sh gives ctest in a fresh clone
# (scripts/ctest_costs/LANE.txt) from the last run of each lane's build: every
# test of 2 s or more, longest first, as "name runs seconds".
set -euo pipefail
cd "$(dirname "$0")/../.."
for pair in build:release build-asan:sanitizer build-tsan:tsan; do
  dir=${pair%%:*} lane=${pair#*:}
  costs="$dir/Testing/Temporary/CTestCostData.txt"
  [ -f "$costs" ] || { echo "no $costs: run that lane first" >&2; continue; }
  awk '$1 == "---" { exit } $3 >= 2 { printf "%s 1 %.1f\n", $1, $3 }' "$costs" |
    sort -k3 -rn > "scripts/ctest_costs/$lane.txt"
  echo "scripts/ctest_costs/$lane.txt: $(wc -l < "scripts/ctest_costs/$lane.txt") tests"
done
