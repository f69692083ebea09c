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
case "${1:-}" in
  --all) mapfile -t files < <(git ls-files '*.cc') ;;
  --since) mapfile -t files < <(git diff --name-only --diff-filter=AM "$2" -- '*.cc') ;;
  *) files=("$@") ;;
esac
# Only files the build compiles (examples for other toolchains are not).
mapfile -t files < <(for f in "${files[@]}"; do
  grep -q "\"file\": \"$PWD/$f\"" "$build/compile_commands.json" && echo "$f"; done || true)
if [ ${#files[@]} -eq 0 ]; then echo "clang-tidy: no files to check"; exit 0; fi
echo "clang-tidy: ${#files[@]} files"
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet 2>&1 |
  grep -v -E "^[0-9]+ warnings? generated|^Suppressed [0-9]+ warnings|^Use -header-filter|^$" |
  tee "$build/clang_tidy.log" || true
if grep -q -E "(warning|error):" "$build/clang_tidy.log"; then
  echo "clang-tidy: findings above (also in $build/clang_tidy.log)"; exit 1
fi
echo "clang-tidy: clean"
