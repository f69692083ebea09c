#!/usr/bin/env bash
# Runs one libFuzzer target for a bounded time on a scratch copy of its
# committed corpus:  run_fuzzer.sh BINARY CORPUS SCRATCH ARTIFACTS SECONDS
# Exit status: libFuzzer's (non-zero on a finding, whose input is saved in
# ARTIFACTS and named in the output: commit it to the corpus as a
# regression test once fixed).
set -euo pipefail
binary=$1 corpus=$2 scratch=$3 artifacts=$4 seconds=$5
rm -rf "$scratch"
mkdir -p "$scratch" "$artifacts"
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts" \
  "$scratch" "$corpus"
echo "fuzzed $(basename "$binary") for ${seconds} s; scratch corpus: $(ls "$scratch" | wc -l) new inputs"
