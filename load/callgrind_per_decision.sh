#!/usr/bin/env bash
# Instructions per decision of the referee and of the echo under callgrind,
# from two cardref_load runs of different length (10 s and 20 s): the
# difference of their totals over the difference of their decisions, so
# start-up and idle costs cancel (BENCHMARKS.md).
# Usage: load/callgrind_per_decision.sh [cardref_load flags...]
# Needs valgrind; takes about 2 minutes. Build dir: $BUILD_DIR (build).
set -euo pipefail
cd "$(dirname "$0")/.."
load="$PWD/${BUILD_DIR:-build}/tools/cardref_load"
work=$(mktemp -d)
trap '[ -n "${KEEP_CALLGRIND:-}" ] || rm -rf "$work"' EXIT
for s in 10 20; do
  mkdir -p "$work/run$s"
  # cardref_load forks the referee, then the echo: valgrind follows both.
  valgrind --tool=callgrind --callgrind-out-file="$work/run$s/cg.%p" \
    "$load" --matches=4 --seconds=$s "$@" >"$work/run$s/out.txt" 2>/dev/null
done
python3 - "$work" <<'PY'
import glob, re, sys
work = sys.argv[1]
runs = {}
for s in (10, 20):
    out = open(f"{work}/run{s}/out.txt").read()
    decisions = {n: float(re.search(n + r"\s+([\d.]+) decisions/s", out).group(1)) * s
                 for n in ("referee", "echo")}
    files = sorted(glob.glob(f"{work}/run{s}/cg.*"), key=lambda f: int(f.rsplit(".", 1)[1]))
    totals = [int(re.search(r"summary: (\d+)", open(f).read()).group(1)) for f in files]
    runs[s] = (decisions, totals)  # totals: [client, referee, echo] in pid order
per = {}
for i, name in ((1, "referee"), (2, "echo")):
    (d10, t10), (d20, t20) = runs[10], runs[20]
    per[name] = (t20[i] - t10[i]) / (d20[name] - d10[name])
    print(f"{name}: {per[name]:.0f} instructions/decision")
print(f"ratio: {per['referee'] / per['echo']:.3f}")
PY
