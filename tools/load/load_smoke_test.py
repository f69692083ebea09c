#!/usr/bin/env python3
"""Smoke test of cardref_load: a short run prints one JSON object whose
figures are present and sane (both servers made decisions, a ratio > 0)."""
import json
import subprocess
import sys

binary = sys.argv[1]
run = subprocess.run(
    [binary, "--matches=2", "--seconds=1.5", "--format=json",
     "--decision_time_limit_ms=5000"],
    capture_output=True, text=True, timeout=120)
if run.returncode != 0:
    sys.exit(f"cardref_load exited {run.returncode}: {run.stderr}{run.stdout}")
report = json.loads(run.stdout)
for field in ("referee_decisions_per_s", "echo_decisions_per_s", "ratio",
              "referee_p99_us", "echo_p99_us", "timeouts",
              "referee_cpu_us_per_decision", "echo_cpu_us_per_decision"):
    if field not in report:
        sys.exit(f"missing field {field}: {run.stdout}")
problems = []
if not report["referee_decisions"] > 0:
    problems.append("no referee decision")
if not report["echo_decisions"] > 0:
    problems.append("no echo decision")
if not report["ratio"] > 0:
    problems.append("ratio not > 0")
if not report["referee_p99_us"] >= report["referee_p50_us"] > 0:
    problems.append("referee latencies not 0 < p50 <= p99")
if not report["echo_p99_us"] >= report["echo_p50_us"] > 0:
    problems.append("echo latencies not 0 < p50 <= p99")
if report["referee_cpu_us_per_decision"] <= 0:
    problems.append("no referee server CPU measured")
if report["errors"] != 0:
    problems.append(f"errors: {report['first_error']}")
if problems:
    sys.exit("; ".join(problems) + ": " + run.stdout)
print(run.stdout, end="")
