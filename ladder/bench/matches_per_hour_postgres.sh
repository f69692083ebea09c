#!/usr/bin/env bash
# Matches per hour of 1, 2 and 4 `cardref_ladder run` workers, each a runner
# process of its own as on separate hosts, against one PostgreSQL 15 server
# (BENCHMARKS.md, "Ladder"): a throwaway server on a Unix socket (run as
# nobody when we are root), durable commits (fsync on), one ladder per
# worker count with the heuristic, random and first strategies as entrants
# and the random reference bot; N rated Krass Kariert matches in all, timed
# after the validation matches. Not a test: run it alone.
#
#   ladder/bench/matches_per_hour_postgres.sh [BUILD_TOOLS_DIR [N [GAME]]]
set -euo pipefail
tools=$(realpath "${1:-build/tools}")
n=${2:-24}
game=${3:-krass_kariert:3}
pg=/usr/lib/postgresql/15/bin
[ -x "$pg/postgres" ] || { echo "needs Debian's postgresql-15"; exit 1; }
tmp=$(mktemp -d)
as_server=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$tmp"
  as_server=(runuser -u nobody --)
fi
"${as_server[@]}" "$pg/initdb" -D "$tmp/data" -U cardref --auth=trust >/dev/null
"${as_server[@]}" "$pg/pg_ctl" -D "$tmp/data" -l "$tmp/server.log" -w \
  -o "-k $tmp -c listen_addresses=" start >/dev/null
trap '"${as_server[@]}" "$pg/pg_ctl" -D "$tmp/data" -m fast stop >/dev/null; rm -rf "$tmp"' EXIT

for workers in 1 2 4; do
  "$pg/psql" -h "$tmp" -U cardref -d postgres -qc "CREATE DATABASE w$workers"
  url="postgresql:///w$workers?host=$tmp&user=cardref"
  dir=$(mktemp -d)
  "$tools/cardref_ladder" init --db="$url" --name=bench --games="$game" >/dev/null
  for s in heuristic random first; do
    "$tools/cardref_ladder" add --db="$url" --entrant="$s" \
      --command="$tools/cardref_bot --strategy=$s --quiet" \
      --content_hash="$(echo "$s" | sha256sum | cut -c1-64)" >/dev/null
  done
  # The validation matches first (3: one per new entrant), untimed.
  "$tools/cardref_ladder" run --db="$url" --dir="$dir" --trust_bots \
    --matches=3 >/dev/null 2>&1
  start=$(date +%s.%N)
  pids=()
  for ((w = 0; w < workers; ++w)); do
    "$tools/cardref_ladder" run --db="$url" --dir="$dir" --trust_bots \
      --workers=1 --matches=$((n / workers)) >/dev/null 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$n" -v w="$workers" -v g="$game" \
    'BEGIN { printf "%-16s %d worker(s): %d matches in %.1f s: %.0f matches per hour\n", g, w, n, e - s, n * 3600 / (e - s) }'
  rm -rf "$dir"
done
