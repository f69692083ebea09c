#!/usr/bin/env bash
# Instructions per decision of the referee and of the echo under callgrind,
# from two cardref_load runs of different length (10 s and 20 s): the
# difference of their totals over the difference of their decisions, so
# start-up and idle costs cancel (BENCHMARKS.md).
# Usage: load/callgrind_per_decision.sh [cardref_load flags...]
# Needs valgrind; takes about a minute. Build dir: $BUILD_DIR (build).
# SHORT_SECONDS and LONG_SECONDS (10, 20) set the two runs: longer runs
# average over more deals (the referee's cost per decision varies with the
# game's course by about 1%; the echo's does not).
set -euo pipefail
cd "$(dirname "$0")/.."
load="$PWD/${BUILD_DIR:-build}/tools/cardref_load"
work=$(mktemp -d)
trap '[ -n "${KEEP_CALLGRIND:-}" ] || rm -rf "$work"' EXIT
short=${SHORT_SECONDS:-10}
long=${LONG_SECONDS:-20}
for s in "$short" "$long"; do
  mkdir -p "$work/run$s"
  # cardref_load forks the referee, then the echo: valgrind follows both.
  valgrind --tool=callgrind --callgrind-out-file="$work/run$s/cg.%p" \
    "$load" --matches=4 --seconds=$s "$@" >"$work/run$s/out.txt" 2>/dev/null
done
python3 - "$work" "$short" "$long" <<'PY'
import glob, re, sys
work, short, long = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
runs = {}
for s in (short, long):
    out = open(f"{work}/run{s}/out.txt").read()
    decisions = {n: float(re.search(n + r"\s+([\d.]+) decisions/s", out).group(1)) * s
                 for n in ("referee", "echo")}
    # Each process by what it runs (pids can wrap): only the referee plays
    # matches, only the echo runs EchoService.
    totals = {}
    for f in glob.glob(f"{work}/run{s}/cg.*"):
        text = open(f).read()
        name = ("referee" if "cardref::service::Match::" in text else
                "echo" if "load::EchoService::" in text else "client")
        totals[name] = int(re.search(r"summary: (\d+)", text).group(1))
    runs[s] = (decisions, totals)
per = {}
for name in ("referee", "echo"):
    (d10, t10), (d20, t20) = runs[short], runs[long]
    per[name] = (t20[name] - t10[name]) / (d20[name] - d10[name])
    print(f"{name}: {per[name]:.0f} instructions/decision")
print(f"ratio: {per['referee'] / per['echo']:.3f}")
PY
