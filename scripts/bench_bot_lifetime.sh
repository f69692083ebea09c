#!/bin/bash
# Games per core-hour with the example C++ bots, a process per seat per
# match (--bot_lifetime=match) against bots started once per event and
# handed their matches by invitation (--bot_lifetime=event), measured in
# the same run (BENCHMARKS.md, "Bot lifetime"). Not part of CI.
#
#   [PARAMS=game_length=SHORT,rounds=4] \
#     scripts/bench_bot_lifetime.sh [BUILD_TOOLS_DIR] [MATCHES] [ROUNDS]
#
# PARAMS (empty by default: each game's own defaults) goes to --params.
# For each game and lifetime, ROUNDS times (alternating the lifetimes):
# one duplicate event of the three example strategies, MATCHES deal sets,
# --concurrency=2, the tournament's own referee. CPU is the tournament's,
# its referee's and every bot's (all reaped children: /usr/bin/time of the
# tournament). Prints one line per run and a table of the medians.
set -euo pipefail
B=${1:-build/tools}
MATCHES=${2:-6}
ROUNDS=${3:-3}
PARAMS=${PARAMS:-}
OUT=$(mktemp -d /tmp/bench_bot_lifetime.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
declare -A CPU GAMES
for game in craits:3 krass_kariert:3 kraken:4; do
  for round in $(seq "$ROUNDS"); do
    for lifetime in match event; do
      dir="$OUT/${game%%:*}-$lifetime-$round"
      /usr/bin/time -o "$dir.time" -f "%U %S %e" \
        "$B/cardref_tournament" --out="$dir" --trust_bots \
        "--bot=random=$B/cardref_bot --quiet --strategy=random" \
        "--bot=heuristic=$B/cardref_bot --quiet --strategy=heuristic" \
        "--bot=first=$B/cardref_bot --quiet --strategy=first" \
        --games="$game" --duplicate --matches="$MATCHES" --concurrency=2 \
        ${PARAMS:+--params="$PARAMS"} \
        --bot_lifetime="$lifetime" >"$dir.out" 2>&1 ||
        { echo "$game $lifetime: the event failed:"; tail -5 "$dir.out"; exit 1; }
      read -r user sys wall <"$dir.time"
      games=$(grep -c $'\tfinished\t' "$dir/matches.tsv" || true)
      cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
      printf '%-16s %-6s round %d: %3d games, CPU %6.2f s, wall %6.2f s, %8.0f games per core-hour\n' \
        "$game" "$lifetime" "$round" "$games" "$cpu" "$wall" \
        "$(awk -v g="$games" -v c="$cpu" 'BEGIN { print g / c * 3600 }')"
      CPU[$game/$lifetime]+="$cpu "
      GAMES[$game/$lifetime]=$games
    done
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo
echo "| game | games per event | CPU per game, match lifetime | CPU per game, event lifetime | games per core-hour, match | games per core-hour, event | event cheaper by |"
echo "|---|---|---|---|---|---|---|"
for game in craits:3 krass_kariert:3 kraken:4; do
  g=${GAMES[$game/match]}
  m=$(echo "${CPU[$game/match]}" | median)
  e=$(echo "${CPU[$game/event]}" | median)
  awk -v game="$game" -v g="$g" -v m="$m" -v e="$e" 'BEGIN {
    printf "| %s | %d | %.0f ms | %.0f ms | %.0f | %.0f | **%.1fx** |\n",
      game, g, m / g * 1000, e / g * 1000, g / m * 3600, g / e * 3600, m / e }' 
done
