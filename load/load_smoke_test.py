#!/usr/bin/env python3
"""Smoke test of cardref_load: a short run prints one JSON object whose
figures are present and sane (both servers made decisions, a ratio > 0;
no timeout or late answer with a 5 s limit, late answers counted as the
players' own with a 1 ms limit); a run with --attack=rejections or
async_rejections also reports the healthy matches' latency under attack
against the unattacked run; --held_matches reports what waiting matches
cost; the echo's observations are the referee's size (the baseline sends
what the referee sends); the referee's logs go to a temporary directory
that is removed, or to --log_dir, where they stay; --rounds reports medians
inside their ranges; both clients (threads and callbacks) play, with their
starts ramped; refused CreateMatch calls are retried without a thread each
and the matches left at the stop are aborted; a referee that stops
answering ends the run --answer_grace_s late with exit 1; an unknown
--attack is a usage error naming the kinds. No timing is asserted."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from capped_referee import CappedReferee

# Each finding is printed at once, before any later one can fail.
sys.stdout.reconfigure(line_buffering=True)

binary = sys.argv[1]
referee_binary = sys.argv[2]
# A TMPDIR of this test's own: other tests' cardref_load runs, at the same
# time, make and remove theirs in /tmp.
tmpdir = tempfile.mkdtemp(prefix="load_smoke_")
run = subprocess.run(
    [binary, "--matches=2", "--seconds=1.5", "--format=json",
     "--decision_time_limit_ms=5000"],
    capture_output=True, text=True, timeout=120,
    env={**os.environ, "TMPDIR": tmpdir})
if run.returncode != 0:
    sys.exit(f"cardref_load exited {run.returncode}: {run.stderr}{run.stdout}")
report = json.loads(run.stdout)
for field in ("referee_decisions_per_s", "echo_decisions_per_s", "ratio",
              "referee_p99_us", "echo_p99_us", "timeouts",
              "false_timeouts", "late_answers",
              "referee_cpu_us_per_decision", "echo_cpu_us_per_decision",
              "referee_observation_bytes", "echo_observation_bytes",
              "left_running"):
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
# A 5 s limit: every answer leaves long before the deadline it was told.
if report["timeouts"] != 0 or report["late_answers"] != 0:
    problems.append("timeouts or late answers with a 5 s limit")
ref_bytes = report["referee_observation_bytes"]
echo_bytes = report["echo_observation_bytes"]
if not (ref_bytes > 0 and abs(echo_bytes - ref_bytes) <= 0.1 * ref_bytes):
    problems.append(f"echo observations ({echo_bytes} B) are not the "
                    f"referee's size ({ref_bytes} B) within 10%")
left = os.listdir(tmpdir)
if not left:
    os.rmdir(tmpdir)
if left:
    problems.append(f"temporary log directories left behind: {sorted(left)}")
if problems:
    sys.exit("; ".join(problems) + ": " + run.stdout)
print(run.stdout, end="")
if report["attack"] != "none" or "attack_p99_us" in report:
    sys.exit(f"an unattacked run reports an attack: {run.stdout}")

# A 1 ms limit: players answer after the deadline their observation told
# them (the observation alone takes longer to arrive), and those answers
# are counted as theirs; a timeout is false only for an answer sent in time.
late = subprocess.run(
    [binary, "--matches=2", "--seconds=1", "--format=json",
     "--decision_time_limit_ms=1"],
    capture_output=True, text=True, timeout=120)
if late.returncode != 0:
    sys.exit(f"cardref_load with a 1 ms limit exited {late.returncode}: "
             f"{late.stderr}{late.stdout}")
report = json.loads(late.stdout)
if not report["late_answers"] > 0:
    sys.exit(f"no late answer counted with a 1 ms limit: {late.stdout}")
if not 0 <= report["false_timeouts"] <= report["timeouts"]:
    sys.exit(f"false_timeouts not within 0..timeouts: {late.stdout}")
print(late.stdout, end="")

# Under attack: a flood of rejected submissions from one client, waiting
# for each answer and not.
for kind in ("rejections", "async_rejections"):
    attacked = subprocess.run(
        [binary, "--matches=2", "--seconds=1", "--format=json",
         "--decision_time_limit_ms=5000", f"--attack={kind}"],
        capture_output=True, text=True, timeout=120)
    if attacked.returncode != 0:
        sys.exit(f"cardref_load --attack exited {attacked.returncode}: "
                 f"{attacked.stderr}{attacked.stdout}")
    report = json.loads(attacked.stdout)
    for field in ("attack", "idle_p50_us", "idle_p99_us", "attack_p50_us",
                  "attack_p99_us", "attack_ratio_p99", "attack_decisions",
                  "attack_count", "attack_unit", "attack_rate"):
        if field not in report:
            sys.exit(f"missing field {field}: {attacked.stdout}")
    problems = []
    if report["attack"] != kind:
        problems.append(f"attack is not '{kind}'")
    if report["attack_unit"] != "rejected submissions":
        problems.append("attack_unit is not 'rejected submissions'")
    if not report["attack_count"] > 0:
        problems.append("the attacker made no rejected submission")
    if not report["attack_decisions"] > 0:
        problems.append("no healthy decision under attack")
    if not report["attack_p99_us"] >= report["attack_p50_us"] > 0:
        problems.append("attack latencies not 0 < p50 <= p99")
    if report["idle_p99_us"] != report["referee_p99_us"]:
        problems.append("idle_p99_us is not the unattacked run's p99")
    expected_ratio = report["attack_p99_us"] / report["idle_p99_us"]
    if abs(report["attack_ratio_p99"] - expected_ratio) > 0.01:
        problems.append(f"attack_ratio_p99 is not attack_p99_us / idle_p99_us "
                        f"({expected_ratio:.3f})")
    if problems:
        sys.exit("; ".join(problems) + ": " + attacked.stdout)
    print(attacked.stdout, end="")

# Beside waiting matches: each is counted, costs no descriptor (it holds no
# open log) and little memory, and the load still runs.
held = subprocess.run(
    [binary, "--matches=2", "--seconds=1", "--format=json",
     "--decision_time_limit_ms=5000", "--held_matches=300"],
    capture_output=True, text=True, timeout=180)
if held.returncode != 0:
    sys.exit(f"cardref_load --held_matches exited {held.returncode}: "
             f"{held.stderr}{held.stdout}")
report = json.loads(held.stdout)
problems = []
for field in ("held_matches", "held_kib_per_match", "held_fds_per_match",
              "held_decisions_per_s", "held_p99_us", "held_ratio"):
    if field not in report:
        problems.append(f"missing field {field}")
if not problems:
    if report["held_matches"] != 300:
        problems.append("not 300 held matches")
    if report["held_fds_per_match"] > 0.01:
        problems.append("waiting matches hold descriptors")
    if not report["held_decisions_per_s"] > 0:
        problems.append("no decision beside the held matches")
    expected = report["held_decisions_per_s"] / report["referee_decisions_per_s"]
    if abs(report["held_ratio"] - expected) > 0.01:
        problems.append("held_ratio is not held / idle decisions per second")
if problems:
    sys.exit("; ".join(problems) + ": " + held.stdout)
print(held.stdout, end="")

# --rounds: referee and echo measured in turns; medians, with the range.
rounds = subprocess.run(
    [binary, "--matches=1", "--seconds=0.5", "--format=json", "--rounds=3"],
    capture_output=True, text=True, timeout=120)
if rounds.returncode != 0:
    sys.exit(f"cardref_load --rounds exited {rounds.returncode}: "
             f"{rounds.stderr}{rounds.stdout}")
report = json.loads(rounds.stdout)
if report.get("rounds") != 3:
    sys.exit(f"--rounds=3 not reported: {rounds.stdout}")
if not (report["ratio_min"] <= report["ratio"] <= report["ratio_max"] and
        report["cpu_ratio_min"] <= report["cpu_ratio"] <=
        report["cpu_ratio_max"]):
    sys.exit(f"medians outside their ranges: {rounds.stdout}")
zero = subprocess.run([binary, "--rounds=0"], capture_output=True, text=True,
                      timeout=60)
if zero.returncode != 2 or "--rounds >= 1" not in zero.stderr:
    sys.exit(f"--rounds=0: exit {zero.returncode}, {zero.stderr}")

# The clients play the same matches (seat_streams on PlaySeat, whose
# round trip runs from an action to the match's next observation);
# --ramp_seconds spreads the starts.
for client in ("threads", "callbacks", "seat_streams"):
    played = subprocess.run(
        [binary, "--matches=3", "--seconds=1", "--format=json",
         f"--client={client}", "--ramp_seconds=0.5"],
        capture_output=True, text=True, timeout=120)
    if played.returncode != 0:
        sys.exit(f"cardref_load --client={client} exited "
                 f"{played.returncode}: {played.stderr}{played.stdout}")
    report = json.loads(played.stdout)
    if (report.get("client") != client or report.get("ramp_seconds") != 0.5 or
            not report["referee_decisions"] > 0 or
            not report["echo_decisions"] > 0 or report["errors"] != 0 or
            not report["referee_p50_us"] > 0 or
            not report["echo_p50_us"] > 0 or
            not report["referee_observation_bytes"] > 0):
        sys.exit(f"--client={client}: {played.stdout}")
for bad_flag in ("--client=carrier-pigeon", "--ramp_seconds=5",
                 "--answer_grace_s=1"):
    bad = subprocess.run([binary, "--seconds=2", bad_flag],
                         capture_output=True, text=True, timeout=60)
    if (bad.returncode != 2 or
            "--client=callbacks, threads or seat_streams" not in bad.stderr):
        sys.exit(f"{bad_flag}: exit {bad.returncode}, {bad.stderr}")

# --log_dir: the referee's logs are kept there.
with tempfile.TemporaryDirectory() as log_dir:
    kept = subprocess.run(
        [binary, "--matches=1", "--seconds=0.5", "--format=json",
         f"--log_dir={log_dir}"],
        capture_output=True, text=True, timeout=120)
    if kept.returncode != 0:
        sys.exit(f"cardref_load --log_dir exited {kept.returncode}: "
                 f"{kept.stderr}{kept.stdout}")
    if not glob.glob(os.path.join(log_dir, "*")):
        sys.exit(f"--log_dir={log_dir}: no log kept")

# A referee that refuses most CreateMatch calls (caps of 2): the callbacks
# client retries each refusal 100 ms later on its one retry thread, still
# plays, and stops on time. It used to start a thread per refusal (178
# threads here for 200 slots).
with CappedReferee(referee_binary) as referee:
    load = subprocess.Popen(
        [binary, f"--server=localhost:{referee.port}",
         "--game=krass_kariert", "--matches=200", "--seconds=2",
         "--decision_time_limit_ms=5000", "--format=json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    most_threads = 0
    while load.poll() is None:
        try:
            with open(f"/proc/{load.pid}/status") as status:
                for line in status:
                    if line.startswith("Threads:"):
                        most_threads = max(most_threads, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.02)
    out, err = load.communicate(timeout=120)
print(f"capped referee: load exit {load.returncode}, at most "
      f"{most_threads} threads; the referee's last lines:\n"
      f"{referee.log_tail}", end="", flush=True)
if load.returncode != 0:
    sys.exit(f"cardref_load against a capped referee exited "
             f"{load.returncode}: {err}{out}")
report = json.loads(out)
first_error = report["first_error"]
if not report["errors"] > 0 or not ("max_waiting_matches" in first_error
                                    or "max_matches_in_progress"
                                    in first_error):
    sys.exit(f"the capped referee refused nothing: {out}")
if not report["referee_decisions"] > 0:
    sys.exit(f"no decision beside the refusals: {out}")
# The matches the players were in at the stop were aborted (the run's
# figures are taken first), so nothing of this run plays on at the referee.
if report["left_running"] != 0:
    sys.exit(f"matches left running at the capped referee: {out}")
if most_threads > 60:
    sys.exit(f"{most_threads} threads for 200 refused slots: a thread "
             f"per retry?")
print(f"capped referee: {report['errors']} refusals retried, "
      f"{report['referee_decisions']} decisions, at most {most_threads} "
      f"threads")

# A referee that stops answering mid-run (SIGSTOP): the load ends anyway,
# --answer_grace_s (here 2 s, 10 by default) after the run, and says its
# figures are no measurement (exit 1). It used to wait for ever.
with CappedReferee(referee_binary) as referee:
    hung = subprocess.Popen(
        [binary, f"--server=localhost:{referee.port}", "--matches=2",
         "--seconds=5", "--format=json", "--answer_grace_s=2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Well inside the run even on a busy machine (with 2 s runs, a late
    # wake-up once paused it after the run had ended).
    time.sleep(1.5)
    referee.pause()
    try:
        out, err = hung.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        hung.kill()
        sys.exit("cardref_load still waits 120 s after a referee stopped "
                 "answering")
    finally:
        referee.resume()
if hung.returncode != 1 or "not answered 2 s after" not in err:
    sys.exit(f"against a stopped referee: exit {hung.returncode}, {err}{out}")
if not json.loads(out)["unanswered"] > 0:
    sys.exit(f"against a stopped referee, nothing unanswered: {out}")
print(f"a referee that stopped answering: {err.strip()}")

bad = subprocess.run([binary, "--attack=juggle"], capture_output=True,
                     text=True, timeout=60)
if bad.returncode != 2 or ("none, rejections, async_rejections, streams or "
                          "connections") not in bad.stderr:
    sys.exit(f"--attack=juggle: exit {bad.returncode}, {bad.stderr}")
