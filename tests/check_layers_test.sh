#!/usr/bin/env bash
# scripts/check_layers.sh passes on the tree, and fails on a small tree that
# breaks each of its rules (so the check can fail).
# Usage: check_layers_test.sh TOP
set -euo pipefail
top=$1
"$top/scripts/check_layers.sh" "$top"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q .
mkdir -p games/cards_x referee/base analyzer
printf 'set(CARDREF_GAMES\n  cards_x\n)\n' > games/games.cmake
printf '#include "referee/grpc/server.h"\n' > referee/base/low.h
printf '#include "cardref/v1/game.pb.h"\n' > games/cards_x/cards_x.cc
printf '// Cards X scores a trick here.\nint x;\n' > analyzer/generic.cc
git add -A
if out=$("$top/scripts/check_layers.sh" "$tmp" 2>&1); then
  echo "FAIL: the check passed a tree that breaks its rules:"; echo "$out"; exit 1
fi
status=0
for want in "referee/base includes a higher layer" \
            "a game's engine includes protobuf" \
            "GAME NAMED: cards_x in generic code: analyzer/generic.cc"; do
  grep -qF "$want" <<<"$out" || { echo "FAIL: no '$want' in:"; echo "$out"; status=1; }
done
[ $status -eq 0 ] && echo "ok: the check fails on each broken rule"
exit $status
