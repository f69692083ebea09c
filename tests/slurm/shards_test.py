#!/usr/bin/python3
"""Shard-then-merge equals a single run, with plain processes (no Slurm):
the steps of deploy/slurm/cardref_task.sh that every job array and Indexed
Job runs (docs/scale.md).

    shards_test.py MODE BUILD_TOOLS_DIR SOURCE_DIR

MODE is one of:
  tournament  one event played in one process, then the same event (same
              secret) as N = 1, 2, 3 shards run at once and merged: the
              merged standings.json and standings.txt are the single run's,
              byte for byte. A shard run again plays nothing; a task given
              another N for the same event is refused.
  audit       golden and tampered logs audited in one process, then as
              N = 1, 2, 3, 4 shards merged: the same findings (JSON), text
              and exit code.
"""
import os
import shutil
import subprocess
import sys
import tempfile

PARAMS = "--params=game_length=SHORT,rounds=4"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def run(args, check=0, env=None):
    print("$", " ".join(args), flush=True)
    result = subprocess.run(args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    print(result.stdout[-3000:])
    if check is not None and result.returncode != check:
        fail(f"{args[0]} {args[1]} exited {result.returncode}, not {check}")
    return result


def read(path):
    with open(path, "rb") as f:
        return f.read()


def tournament(tools, src, tmp):
    task = os.path.join(src, "deploy/slurm/cardref_task.sh")
    env = dict(os.environ, CARDREF_BIN=tools)
    flags = ["--trust_bots", PARAMS,
             f"--bot=random={tools}/cardref_bot --quiet --strategy=random",
             f"--bot=heuristic={tools}/cardref_bot --quiet --strategy=heuristic",
             f"--bot=first={tools}/cardref_bot --quiet --strategy=first",
             "--games=craits:3,krass_kariert:3,kraken:4", "--duplicate",
             "--matches=2", "--concurrency=2"]
    single = os.path.join(tmp, "single")
    run([f"{tools}/cardref_tournament", f"--out={single}"] + flags, env=env)
    want_json = read(os.path.join(single, "standings.json"))
    want_text = read(os.path.join(single, "standings.txt"))
    if b'"ci_low"' not in want_json or b"kraken" not in want_json:
        fail("the single run's standings have no ratings")
    # Under the sanitizers N = 2 alone: the instrumented binaries are what
    # that lane checks, and four runs of the event cost it 3 minutes.
    shard_counts = (2,) if os.environ.get("CARDREF_SANITIZED") else (1, 2, 3)
    for n in shard_counts:
        event = os.path.join(tmp, f"event{n}")
        os.makedirs(event)
        # The same event: the same secret, hence the same deals.
        shutil.copy2(os.path.join(single, "event.secret"), event)
        procs = [subprocess.Popen([task, "tournament-shard", event, str(i),
                                   str(n)] + flags, env=env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
                 for i in range(n)]
        for i, p in enumerate(procs):
            out, _ = p.communicate(timeout=600)
            if p.returncode != 0:
                print(out[-3000:])
                fail(f"N={n}: shard {i} exited {p.returncode}")
        run([task, "tournament-merge", event, str(n)], env=env)
        if read(os.path.join(event, "standings.json")) != want_json:
            fail(f"N={n}: merged standings.json differs from the single run")
        if read(os.path.join(event, "standings.txt")) != want_text:
            fail(f"N={n}: merged standings.txt differs from the single run")
        summary = read(os.path.join(event, "summary.txt")).decode()
        scheduled = len(read(os.path.join(single, "matches.tsv")).splitlines())
        if f"event: {scheduled} matches, {scheduled} finished" not in summary:
            fail(f"N={n}: summary.txt says {summary!r}, not {scheduled}")
        print(f"N={n}: merged standings equal the single run's")
    # Resubmitting a finished task resumes it: nothing is played again.
    again = run([task, "tournament-shard", os.path.join(tmp, "event2"), "1",
                 "2"] + flags, env=env)
    if " 0 to play" not in again.stdout:
        fail("the shard run again played matches again")
    # Another N (or other flags) for the same event folder is refused.
    wrong = run([task, "tournament-shard", os.path.join(tmp, "event2"), "0",
                 "3"] + flags, check=2, env=env)
    if "same N and arguments" not in wrong.stdout:
        fail("a task with another N was not refused with a reason")
    print(f"PASS: shards {shard_counts} merged equal the single run; resume "
          "and mismatch checked")


def audit(tools, src, tmp):
    task = os.path.join(src, "deploy/slurm/cardref_task.sh")
    env = dict(os.environ, CARDREF_BIN=tools)
    inputs = [os.path.join(src, "testdata/logs"),
              os.path.join(src, "testdata/tampered")]
    single_json = run([f"{tools}/cardref_analyze", "audit", "--quiet",
                       "--format=json"] + inputs, check=None)
    single_text = run([f"{tools}/cardref_analyze", "audit", "--quiet"]
                      + inputs, check=None)
    if single_json.returncode != 1 or '"MISMATCH"' not in single_json.stdout:
        fail("the tampered logs do not audit with errors in one run")
    for n in (1, 2, 3, 4):
        out = os.path.join(tmp, f"audit{n}")
        procs = [subprocess.Popen([task, "audit-shard", out, str(i), str(n)]
                                  + inputs, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
                 for i in range(n)]
        for i, p in enumerate(procs):
            text, _ = p.communicate(timeout=600)
            if p.returncode != 0:
                print(text[-3000:])
                fail(f"N={n}: audit shard {i} exited {p.returncode}")
        run([task, "audit-merge", out, str(n)], env=env)
        if read(os.path.join(out, "audit.jsonl")).decode() != \
                single_json.stdout:
            fail(f"N={n}: merged findings differ from the single run's")
        if read(os.path.join(out, "audit.txt")).decode() != \
                single_text.stdout:
            fail(f"N={n}: merged text report differs from the single run's")
        code = read(os.path.join(out, "audit.exit")).decode().strip()
        if code != str(single_json.returncode):
            fail(f"N={n}: audit.exit is {code}, not {single_json.returncode}")
        print(f"N={n}: merged findings equal the single run's")
    # A shard already written is not audited again; a missing one stops
    # the merge, naming it.
    again = run([task, "audit-shard", os.path.join(tmp, "audit3"), "2", "3"]
                + inputs, env=env)
    if "already written" not in again.stdout:
        fail("a finished audit shard was audited again")
    os.remove(os.path.join(tmp, "audit3/partials/audit-1-of-3.partial"))
    missing = run([task, "audit-merge", os.path.join(tmp, "audit3"), "3"],
                  check=2, env=env)
    if "audit shard 1 of 3 has not run" not in missing.stdout:
        fail("the merge of a missing shard does not name it")
    print("PASS: audits of 1, 2, 3, 4 shards merged equal the single run")


def main():
    mode, tools, src = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with tempfile.TemporaryDirectory() as tmp:
        {"tournament": tournament, "audit": audit}[mode](tools, src, tmp)


if __name__ == "__main__":
    main()
