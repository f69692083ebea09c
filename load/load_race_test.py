#!/usr/bin/env python3
"""Short cardref_load runs for the sanitizer lanes (label concurrency): the
three clients against the referee the tool starts, then the callback client
against a separate referee that refuses most CreateMatch calls (caps of 2),
so that refusals, retries and the run's stop all happen on gRPC's callback
threads at once. Under ThreadSanitizer a race in either process ends it
with a report (halt_on_error); under AddressSanitizer, a use after free.
In a plain build it is a quick run that must finish cleanly.

The capped run stops while CreateMatch calls are still being refused: a
slot's channel whose last reference dropped on a gRPC callback thread made
that thread delete the completion queue it was still reading (a double
free in 2 of 32 such runs under load, CI 2026-12-04)."""
import json
import subprocess
import sys

from capped_referee import CappedReferee

sys.stdout.reconfigure(line_buffering=True)

binary = sys.argv[1]
referee_binary = sys.argv[2]


def check(what, run):
    if run.returncode != 0:
        sys.exit(f"{what}: exit {run.returncode}\n{run.stderr[-4000:]}"
                 f"{run.stdout[-2000:]}")
    report = json.loads(run.stdout)
    if not report["referee_decisions"] > 0:
        sys.exit(f"{what}: no decision: {run.stdout}")
    return report


# 3 s: under TSan on a busy machine the thread client's 32 threads took
# longer than 1 s to make their first decision (no decision, exit 1).
for client in ("callbacks", "threads", "seat_streams"):
    run = subprocess.run(
        [binary, "--matches=8", "--seconds=3", "--format=json",
         f"--client={client}", "--decision_time_limit_ms=60000"],
        capture_output=True, text=True, timeout=240)
    report = check(f"--client={client}", run)
    print(f"--client={client}: {report['referee_decisions']} decisions, "
          f"{report['echo_decisions']} against the echo")

# 3 s here too: under TSan in CI, a 1 s run against the just-started capped
# referee ended before its first match began (no decision, exit 1).
with CappedReferee(referee_binary) as referee:
    runs = [subprocess.run(
        [binary, f"--server=localhost:{referee.port}", "--game=krass_kariert",
         "--matches=60", "--seconds=3", "--decision_time_limit_ms=60000",
         "--format=json"], capture_output=True, text=True, timeout=240)
            for _ in range(3)]
for i, run in enumerate(runs):
    report = check(f"capped referee, run {i + 1}", run)
    if report["left_running"] != 0:
        sys.exit(f"capped referee, run {i + 1}: matches left running: "
                 f"{run.stdout}")
    if not report["errors"] > 0:
        sys.exit(f"capped referee, run {i + 1}: nothing refused: "
                 f"{run.stdout}")
    print(f"capped referee, run {i + 1}: {report['errors']} refusals "
          f"retried, {report['referee_decisions']} decisions")
# SIGTERM is an orderly shutdown (exit 0); a sanitizer report is not.
if referee.exit_code != 0:
    sys.exit(f"the capped referee exited {referee.exit_code}:\n"
             f"{referee.log_tail}")
print("PASS")
