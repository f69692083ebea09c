#!/usr/bin/env bash
# The main job, end to end on localhost: installs packages if missing,
# builds, starts a referee with the default configuration, plays a short
# tournament of the example bots in every game, writes the
# logs, audits every log by replaying it and prints the statistics and the
# paired comparison of the two bots in each game.
#   scripts/demo.sh [--matches=N] [other cardref_tournament flags]
# Environment: CARDREF_DEMO_BIN=DIR runs the binaries in DIR and skips the
# build (the demo's test does); CARDREF_DEMO_OUT=DIR writes the event there
# instead of out/demo-<time>.
set -euo pipefail
cd "$(dirname "$0")/.."

t0=$(date +%s)
if [ -n "${CARDREF_DEMO_BIN:-}" ]; then
  BIN=$CARDREF_DEMO_BIN
else
  echo "== building"
  scripts/build.sh
  echo "== build took $(( $(date +%s) - t0 )) s"
  BIN=build/tools
fi

OUT=${CARDREF_DEMO_OUT:-"out/demo-$(date -u +%Y%m%d-%H%M%S)"}
mkdir -p "$OUT"
# The organiser credential, as a real event has one (docs/auth.md): a random
# token in an owner-only file, read by the referee and the tournament runner.
( umask 077; od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$OUT/organiser.token" )
"$BIN/cardref_referee" --port=0 --port_file="$OUT/port" \
  --organiser_token_file="$OUT/organiser.token" \
  --log_dir="$OUT/logs" >"$OUT/referee.out" 2>&1 &
REFEREE=$!
trap 'kill $REFEREE 2>/dev/null || true; wait $REFEREE 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s "$OUT/port" ] && break; sleep 0.1; done
if [ ! -s "$OUT/port" ]; then
  echo "the referee did not start:"; cat "$OUT/referee.out"; exit 1
fi
SERVER="localhost:$(cat "$OUT/port")"
echo "== referee on $SERVER, logs in $OUT/logs"

t1=$(date +%s)
echo "== tournament"
# Short variants keep the demo quick; every game that has them uses them.
# The example bots are ours, so they may run as this user (--trust_bots);
# see the README for running untrusted bots as another user.
# A round-robin of the random and the heuristic example bots with duplicate
# deals: each deal replayed in every distinct seating of the two bots. At a
# table of 3 one bot holds two seats, each bot in turn (two groups, each
# deal set in 3 seatings); in Kraken each bot holds a partnership, on both
# sides of the deal. 5 deal sets per group: every interval rests on at
# least 5 independent units, the fewest the analyzer gives one for
# (docs/analyzer.md, "Inference"). 70 matches, under a minute on 2 cores;
# report and standings in $OUT/event.
"$BIN/cardref_tournament" --server="$SERVER" \
  --bot="random=$BIN/cardref_bot --quiet --strategy=random" \
  --bot="heuristic=$BIN/cardref_bot --quiet --strategy=heuristic" \
  --organiser_token_file="$OUT/organiser.token" --trust_bots \
  --games=craits:3,krass_kariert:3,kraken --duplicate --matches=5 \
  --concurrency=2 --out="$OUT/event" --params=game_length=SHORT,rounds=4 "$@"
echo "== tournament took $(( $(date +%s) - t1 )) s"

# The referee printed its public key; the audit checks every signature
# against it (and every hash chain and seed commitment).
KEY=$(sed -n 's/.*public key \([0-9a-f]\{64\}\).*/\1/p' "$OUT/referee.out" | head -n 1)
echo "== audit (every log replayed through the engine, signed by $KEY)"
"$BIN/cardref_analyze" audit --referee_key="$KEY" "$OUT"/logs/*.cardlog
echo "== statistics"
"$BIN/cardref_analyze" stats "$OUT/logs"
echo "== heuristic against random, paired by deal set"
# The players' keys (name@version) and the games, from the ratings' CSV.
RATINGS=$("$BIN/cardref_analyze" ratings --format=csv --bootstrap=0 "$OUT/logs")
HEURISTIC=$(echo "$RATINGS" | sed -n 's/^[^,]*,\(heuristic@[^,]*\),.*/\1/p' | head -n 1)
RANDOM_BOT=$(echo "$RATINGS" | sed -n 's/^[^,]*,\(random@[^,]*\),.*/\1/p' | head -n 1)
for game in $(echo "$RATINGS" | tail -n +2 | cut -d, -f1 | sort -u); do
  "$BIN/cardref_analyze" compare --game="$game" "$HEURISTIC" "$RANDOM_BOT" \
    "$OUT/logs"
done
echo "== done in $(( $(date +%s) - t0 )) s; logs: $OUT/logs"
