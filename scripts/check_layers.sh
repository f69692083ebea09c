#!/usr/bin/env bash
# The layer rules of docs/architecture.md, checked on every source file:
#   1. a lower layer never includes a higher one;
#   2. a game's engine includes no protobuf and no other layer but the game
#      API (its parts in games/<g>/<g>_{codec,view,json,stats,heuristic}.cc
#      each include their own layer);
#   3. code outside a game's folder names no game, comments included. The
#      mains (tools/*_main.cc: flag defaults and the examples of --help), tests,
#      test data and docs may; so may the registration (games/games.cmake,
#      proto/cardref/v1).
# Prints every violation; exits 1 if there is one.
# Usage: scripts/check_layers.sh [TOP]
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
status=0

# forbid DIR_REGEX INCLUDE_REGEX WHY: files under DIR_REGEX that include a
# path matching INCLUDE_REGEX.
forbid() {
  local dirs=$1 includes=$2 why=$3
  local hits
  hits=$(git ls-files '*.cc' '*.h' '*.in' | grep -E "$dirs" |
           xargs -r grep -nE "^#include \"($includes)" || true)
  if [ -n "$hits" ]; then
    echo "LAYER: $why"
    echo "$hits" | sed 's/^/  /'
    status=1
  fi
}

higher_than_base='referee/(record|codec|service|grpc)/|games/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/|sandbox/'
forbid '^referee/base/' "$higher_than_base" "referee/base includes a higher layer"
forbid '^sandbox/' 'referee/(record|codec|service|grpc)/|games/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "the sandbox includes a higher layer"
forbid '^games/api/' 'referee/(record|codec|service|grpc)/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/|cardref/v1/' \
  "the game API includes a higher layer or protobuf"
forbid '^referee/record/' 'referee/(codec|service|grpc)/|games/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "referee/record includes a higher layer"
forbid '^referee/codec/' 'referee/(service|grpc)/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "referee/codec includes a higher layer"
forbid '^referee/service/' 'referee/grpc/|grpcpp/|analyzer/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "referee/service includes gRPC or a higher layer"
forbid '^referee/grpc/' 'analyzer/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "referee/grpc includes a higher layer"
forbid '^analyzer/' 'referee/grpc/|tools/|tournament/|load/|ladder/|web/|bots/' \
  "the analyzer includes the gRPC edge or a higher layer"
forbid '^(tournament|load|ladder|web|bots|games)/' 'tools/' \
  "a library includes tools/ (the mains)"

# A game's engine: every file of the folder but its parts, tests and the
# declarations of its parts.
engine=$(git ls-files 'games/*.cc' 'games/*.h' | grep -v '^games/api/' |
           grep -vE '_(codec|view|json|stats|heuristic)\.cc$|_entry_points\.h$|_test\.cc$|_test_util\.h$|/testing/[^/]+\.h$' || true)
hits=$(echo "$engine" | xargs -r grep -nE '^#include "(cardref/v1/|grpcpp/|google/protobuf|referee/(record|codec|service|grpc)/|analyzer/|tools/|bots/)' || true)
if [ -n "$hits" ]; then
  echo "LAYER: a game's engine includes protobuf or a layer above the game API"
  echo "$hits" | sed 's/^/  /'
  status=1
fi

# No generic code names a game.
games=$(sed -n '/set(CARDREF_GAMES/,/)/p' games/games.cmake | grep -vE 'set\(|^\)' |
          sed -E 's/#.*//; s/[[:space:]]//g' | grep -v '^$')
for path in $games; do
  g=$(basename "$path")
  words="$g|$(echo "$g" | sed -E 's/(^|_)([a-z])/ \U\2/g; s/^ //')"
  hits=$(git ls-files '*.cc' '*.h' '*.in' '*.cmake' 'CMakeLists.txt' '*/CMakeLists.txt' |
           grep -vE "^games/$path/|^tests/|^testdata/|^docs/|_test\.cc$|_test_util\.h$|/testing/|^proto/|^games/games\.cmake$|^tools/[a-z_]*_main\.cc$" |
           xargs -r grep -nliE "$words" || true)
  for f in $hits; do
    echo "GAME NAMED: $g in generic code: $f"
    grep -niE "$words" "$f" | head -3 | sed 's/^/  /'
    status=1
  done
done

[ $status -eq 0 ] && echo "ok: layers respected, no generic code names a game"
exit $status
