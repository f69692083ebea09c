#!/usr/bin/env bash
# clang-tidy with the repository's .clang-tidy over cardref's own sources.
#   scripts/clang_tidy.sh BUILD_DIR --all            every .cc file of the tree
#   scripts/clang_tidy.sh BUILD_DIR --since COMMIT   .cc files changed since COMMIT
#   scripts/clang_tidy.sh BUILD_DIR FILE...          these files
# BUILD_DIR must have compile_commands.json (configure with
# -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, which scripts/build.sh does) and its
# generated protobuf headers built. Exit status 1 on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/clang_tidy.sh BUILD_DIR --all|--since COMMIT|FILE...}
shift
[ -f "$build/compile_commands.json" ] || {
  echo "clang_tidy.sh: $build/compile_commands.json is missing" >&2; exit 2; }
# A unity build lists its batch sources (Unity/unity_N_cxx.cxx) in the
# database, not the files they include: clang-tidy checks each file alone,
# so give every included file its batch's command.
db="$build/clang_tidy_db"
mkdir -p "$db"
/usr/bin/python3 - "$build/compile_commands.json" "$db/compile_commands.json" <<'PY'
import json, re, sys
entries = []
for e in json.load(open(sys.argv[1])):
    if "/Unity/unity_" not in e["file"]:
        entries.append(e)
        continue
    for source in re.findall(r'^#include "(.+)"$', open(e["file"]).read(), re.M):
        entries.append(dict(e, file=source,
                            command=e["command"].replace(e["file"], source)))
json.dump(entries, open(sys.argv[2], "w"), indent=0)
PY
case "${1:-}" in
  --all) mapfile -t files < <(git ls-files '*.cc') ;;
  --since) mapfile -t files < <(git diff --name-only --diff-filter=AM "$2" -- '*.cc') ;;
  *) files=("$@") ;;
esac
# Only files the build compiles (examples for other toolchains are not).
mapfile -t files < <(for f in "${files[@]}"; do
  grep -q "\"file\": \"$PWD/$f\"" "$db/compile_commands.json" && echo "$f"; done || true)
if [ ${#files[@]} -eq 0 ]; then echo "clang-tidy: no files to check"; exit 0; fi
echo "clang-tidy: ${#files[@]} files"
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p "$db" --quiet 2>&1 |
  grep -v -E "^[0-9]+ warnings? generated|^Suppressed [0-9]+ warnings|^Use -header-filter|^$" |
  tee "$build/clang_tidy.log" || true
if grep -q -E "(warning|error):" "$build/clang_tidy.log"; then
  echo "clang-tidy: findings above (also in $build/clang_tidy.log)"; exit 1
fi
echo "clang-tidy: clean"
