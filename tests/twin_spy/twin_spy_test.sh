#!/usr/bin/env bash
# Spies in a duplicate event learn nothing of their deal from its twins
# (docs/auth.md, "Twins"). Two spy entrants play one duplicate Craits deal
# set (two twins) under --bot_uids, twins one after the other and then at the same time;
# before each match every instance probes GetMatch and the public stream of
# every twin id its instances have seen, and the event folder's files. All
# must come back empty-handed; after the event, the finished deal sets are
# public (so the probes could have seen a leak). Exits 77 (skipped, with a
# message) when not root.
#   tests/twin_spy/twin_spy_test.sh BUILD_TOOLS_DIR BUILD_PYTHON_DIR
set -euo pipefail
BIN=$(cd "$1" && pwd)
PY=$(cd "$2" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../spy_test_lib.sh"
require_root_and_nobody
TMP=$(mktemp -d)
REFEREE=""
cleanup() {
  [ -n "$REFEREE" ] && kill "$REFEREE" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
chmod 755 "$TMP"
install -m 755 "$BIN/cardref_bot" "$TMP/cardref_bot"
install -m 755 "$HERE/spy_bot.py" "$TMP/spy_bot.py"
cp -r "$PY" "$TMP/python" && chmod -R a+rX "$TMP/python"
start_referee

status=0
for concurrency in 1 2; do
  spy="$TMP/spy$concurrency" event="$TMP/event$concurrency"
  mkdir -m 1777 "$spy"
  bot="/usr/bin/python3 $TMP/spy_bot.py $spy $event $TMP/cardref_bot --quiet"
  PYTHONPATH="$TMP/python" "$BIN/cardref_tournament" \
    --server="localhost:$(cat "$TMP/port")" \
    --organiser_token_file="$TMP/token" --bot_uids=3900000100-3900000109 \
    --bot="spy_a=$bot" --bot="spy_b=$bot" --games=craits:2 --duplicate \
    --matches=1 --concurrency=$concurrency --params=game_length=SHORT \
    --out="$event" >"$spy/event.out" 2>&1 ||
    { cat "$spy/event.out"; exit 1; }
  cat "$spy"/out.* >"$spy/all"
  echo "== twins $( [ $concurrency = 1 ] && echo 'one after the other' || echo 'at the same time'):"
  cat "$spy/all"
  played=$(grep -c '^played ' "$spy/all")
  probes=$(grep -c '^probed ' "$spy/all" || true)
  [ "$played" = 4 ] || { echo "FAIL: $played spy starts, expected 4 (one deal set of 2 matches, 2 seats)"; status=1; }
  [ "$probes" -gt 0 ] || { echo "FAIL: no spy saw a twin's id: the test cannot tell"; status=1; }
  if grep '^LEARNED' "$spy/all"; then echo "FAIL: a spy learned of its deal"; status=1; fi
  # Afterwards every deal set is over: the same probe now sees the seed.
  ids=$(sed -n 's/^played \([^ ]*\) .*/\1/p' "$spy/all" | sort -u)
  PYTHONPATH="$TMP/python" /usr/bin/python3 - "localhost:$(cat "$TMP/port")" $ids <<'PYEOF' || status=1
import sys, grpc
from cardref.v1 import referee_pb2, referee_pb2_grpc
stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(sys.argv[1]))
for match_id in sys.argv[2:]:
    info = stub.GetMatch(referee_pb2.GetMatchRequest(match_id=match_id))
    if not info.seed:
        sys.exit(f"FAIL: {match_id} is over with its whole deal set, yet its seed is withheld")
print(f"after the event: {len(sys.argv) - 2} matches show their seed")
PYEOF
done
[ $status = 0 ] && echo "PASS: no spy learned of its deal from a twin or the event folder"
exit $status
