#!/usr/bin/env bash
# Matches per hour of one `cardref_ladder run` worker for each game, with the
# example bots (BENCHMARKS.md, "Ladder"): a fresh ladder per game with the
# heuristic and random strategies as entrants (and the built-in random
# reference bot), full-length games at default parameters; N rated matches
# timed after the validation matches. Not a test: run it alone.
#
#   ladder/bench/matches_per_hour.sh [BUILD_TOOLS_DIR [N]]
set -euo pipefail
tools=${1:-build/tools}
n=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in craits:3 krass_kariert:3 kraken:4; do
  db="$tmp/${spec%%:*}.db"
  "$tools/cardref_ladder" init --db="$db" --name=bench --games="$spec" >/dev/null
  for s in heuristic random; do
    "$tools/cardref_ladder" add --db="$db" --entrant="$s" \
      --command="$tools/cardref_bot --strategy=$s --quiet" \
      --content_hash="$(echo "$s" | sha256sum | cut -c1-64)" >/dev/null
  done
  # The validation matches first (2: one per new entrant), untimed.
  "$tools/cardref_ladder" run --db="$db" --trust_bots --matches=2 >/dev/null
  start=$(date +%s.%N)
  "$tools/cardref_ladder" run --db="$db" --trust_bots --matches="$n" \
    --workers=1 >/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$n" -v g="$spec" \
    'BEGIN { printf "%-16s %d matches in %.1f s: %.0f matches per hour, %.2f s each\n", g, n, e - s, n * 3600 / (e - s), (e - s) / n }'
done
