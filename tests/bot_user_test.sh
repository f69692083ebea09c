#!/usr/bin/env bash
# Untrusted bots run as another user cannot read the referee's logs.
# As root, cardref_tournament --trust_bots --bot_user=nobody starts every
# bot as 'nobody', outside the sandbox (tests/sandbox_tournament has the
# sandbox's own spies); each bot here is a spy that first tries to read the log
# directory (whose files hold every hand) and the organiser's token file,
# then plays as cardref_bot. Exits 77 (skipped, with a message) when not root.
#   tests/bot_user_test.sh BUILD_TOOLS_DIR
set -euo pipefail
BIN=$(cd "$1" && pwd)
. "$(dirname "$0")/spy_test_lib.sh"
require_root_and_nobody
TMP=$(mktemp -d)
REFEREE=""
trap '[ -n "$REFEREE" ] && kill $REFEREE 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
# The bot binary where 'nobody' may run it (the build tree may be private).
install -m 755 "$BIN/cardref_bot" "$TMP/cardref_bot"
mkdir -m 1777 "$TMP/spy"
cat >"$TMP/spy_bot.sh" <<'SPY'
#!/bin/sh
{
  echo "user $(id -un)"
  ls "$SPY_LOG_DIR" >/dev/null 2>&1 && echo "READ the log directory"
  cat "$SPY_LOG_DIR"/*.cardlog >/dev/null 2>&1 && echo "READ a log"
  cat "$SPY_TOKEN" >/dev/null 2>&1 && echo "READ the organiser token"
  [ -n "${CARDREF_ORGANISER_TOKEN:-}" ] && echo "SAW the organiser token"
  [ -n "${CARDREF_JOIN_TICKET:-}" ] && echo "has a ticket"
} >>"$SPY_OUT"
exec "$SPY_BOT" "$@"
SPY
chmod 755 "$TMP/spy_bot.sh"
start_referee

export SPY_LOG_DIR="$TMP/logs" SPY_TOKEN="$TMP/token" SPY_OUT="$TMP/spy/out"
export SPY_BOT="$TMP/cardref_bot"
export CARDREF_ORGANISER_TOKEN="must-not-reach-the-bots-0123456789"
"$BIN/cardref_tournament" --server="localhost:$(cat "$TMP/port")" \
  --organiser_token_file="$TMP/token" --bot="spy=$TMP/spy_bot.sh" \
  --trust_bots --bot_user=nobody --games=craits:2 --matches=1 --shard=0/2 --params=game_length=SHORT \
  --out="$TMP/event"
cat "$SPY_OUT"
# Every bot started (two per match, however many matches the shard holds)
# ran as nobody and was given a ticket.
started=$(grep -c '^user ' "$SPY_OUT")
[ "$started" -ge 2 ] && [ $((started % 2)) = 0 ] || { echo "FAIL: $started bot starts, expected two per match"; exit 1; }
[ "$(grep -c '^user nobody$' "$SPY_OUT")" = "$started" ] || { echo "FAIL: bots did not run as nobody"; exit 1; }
[ "$(grep -c '^has a ticket$' "$SPY_OUT")" = "$started" ] || { echo "FAIL: bots got no ticket"; exit 1; }
if grep -E '^(READ|SAW)' "$SPY_OUT"; then echo "FAIL: a bot reached a secret"; exit 1; fi
ls "$TMP"/logs/*.cardlog >/dev/null
"$BIN/cardref_analyze" audit "$TMP"/logs/*.cardlog
echo "PASS: bots ran as nobody, played, and reached no secret"
