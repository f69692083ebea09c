#!/usr/bin/env bash
# testdata/conformance holds copies of ../shared/conformance (the source of
# truth, beside the clone). Fails if a copy differs; exits 77 (skipped) with a
# message when ../shared is not there.
set -euo pipefail
top=$1
shared="$top/../shared/conformance"
if [ ! -d "$shared" ]; then
  echo "SKIPPED: $shared is not beside this clone; the copies are used as they are"
  exit 77
fi
status=0
for game in craits krass_kariert kraken; do
  if cmp -s "$shared/$game.jsonl" "$top/testdata/conformance/$game.jsonl"; then
    echo "same: $game.jsonl"
  else
    echo "DIFFERENT: testdata/conformance/$game.jsonl is not $shared/$game.jsonl; copy it again"
    status=1
  fi
done
exit $status
