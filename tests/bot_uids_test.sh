#!/usr/bin/env bash
# Bots of one user can reach each other; with --bot_uids they cannot, even
# outside the sandbox (--trust_bots: plain processes; tests/sandbox_tournament
# has the sandbox's own spies).
# As root, each bot here is a spy: it notes its uid and pid, waits for the
# other bot, then tries to signal it and to read its environment (which holds
# its seat's ticket), leaves a process behind that escaped its process group
# (setsid), and plays as cardref_bot. Under --bot_user=nobody (the control)
# the spies reach each other, which shows the checks can fail; under
# --bot_uids every bot has a uid of its own from the range, reaches nothing,
# and nothing of it outlives its match. Exits 77 (skipped, with a message)
# when not root.
#   tests/bot_uids_test.sh BUILD_TOOLS_DIR
set -euo pipefail
BIN=$(cd "$1" && pwd)
. "$(dirname "$0")/spy_test_lib.sh"
require_root_and_nobody
FIRST=3900000000 LAST=3900000009
TMP=$(mktemp -d)
REFEREE=""
cleanup() {
  [ -n "$REFEREE" ] && kill "$REFEREE" 2>/dev/null
  # The control run's escaped processes (the --bot_uids run leaves none).
  for f in "$TMP"/spy*/escaped.*; do
    [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
  done
  wait 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"
install -m 755 "$BIN/cardref_bot" "$TMP/cardref_bot"
cat >"$TMP/spy_bot.sh" <<'SPY'
#!/bin/sh
me=$(id -u)
out="$SPY_DIR/out.$me.$$"  # a file of its own: another uid could not append
echo "$$" >"$SPY_DIR/pid.$me.$$"
echo "user $me" >>"$out"
sleep 1
for f in "$SPY_DIR"/pid.*; do
  other=$(cat "$f")
  [ "$other" = "$$" ] && continue
  kill -0 "$other" 2>/dev/null && echo "SIGNALLED another bot" >>"$out"
  cat "/proc/$other/environ" >/dev/null 2>&1 &&
    echo "READ another bot's environment" >>"$out"
done
setsid sleep 300 </dev/null >/dev/null 2>&1 &
echo "$!" >"$SPY_DIR/escaped.$$"
exec "$SPY_BOT" "$@"
SPY
chmod 755 "$TMP/spy_bot.sh"
start_referee
export SPY_BOT="$TMP/cardref_bot"

# One match of two spies (--matches=1 schedules two, one per seat order;
# --shard=0/2 plays the first).
play() {  # play NAME FLAG
  mkdir -m 1777 "$TMP/$1"
  SPY_DIR="$TMP/$1" "$BIN/cardref_tournament" \
    --server="localhost:$(cat "$TMP/port")" \
    --organiser_token_file="$TMP/token" --bot="spy=$TMP/spy_bot.sh" \
    --trust_bots "$2" --games=craits:2 --matches=1 --shard=0/2 --params=game_length=SHORT \
    --out="$TMP/$1/event"
  cat "$TMP/$1"/out.* >"$TMP/$1/out"
  echo "== $1:"; cat "$TMP/$1/out"
}

play spy_control --bot_user=nobody
grep -q '^SIGNALLED another bot$' "$TMP/spy_control/out" &&
  grep -q "^READ another bot's environment$" "$TMP/spy_control/out" ||
  { echo "FAIL: the control's spies did not reach each other: the test cannot tell"; exit 1; }

play spy_uids "--bot_uids=$FIRST-$LAST"
uids=$(sed -n 's/^user //p' "$TMP/spy_uids/out" | sort -u)
[ "$(echo "$uids" | wc -l)" = 2 ] || { echo "FAIL: not a uid per bot: $uids"; exit 1; }
for uid in $uids; do
  [ "$uid" -ge "$FIRST" ] && [ "$uid" -le "$LAST" ] ||
    { echo "FAIL: uid $uid is not from --bot_uids"; exit 1; }
done
if grep -E '^(SIGNALLED|READ)' "$TMP/spy_uids/out"; then
  echo "FAIL: a bot reached another bot"; exit 1
fi
for f in "$TMP"/spy_uids/escaped.*; do
  pid=$(cat "$f")
  if [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status"; then
    echo "FAIL: process $pid of a bot outlived its match"; exit 1
  fi
done
"$BIN/cardref_analyze" audit "$TMP"/logs/*.cardlog
echo "PASS: each bot ran as a uid of its own, reached no other bot, and left nothing running"
