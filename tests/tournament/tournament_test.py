#!/usr/bin/python3
"""End-to-end tests of cardref_tournament (docs/tournament.md).

    tournament_test.py MODE BUILD_TOOLS_DIR SOURCE_DIR

MODE is one of:
  round_robin  random and heuristic C++ bots and the Python bot in every
               game, duplicate deals, --concurrency=4: every bot in every
               seat, the same deck orders across each deal set, standings
               equal to `cardref_analyze ratings` on the same logs.
  resume       SIGKILL half-way, then the same event again: every scheduled
               match played exactly once.
  faults       bots that crash at start, hang, or reject their flags: the
               event finishes and their matches say why.
  stall        a bot that joins and never answers: its match is aborted at
               the wall-clock budget.
  referee_lost the referee dies mid-event: unplayed matches stay unrecorded
               and a second run on a new referee plays them, each once.
  server_refusals  with --server, an unknown game or an absent referee ends
               the run before the event's folder exists.
  flood        a bot that writes without end is ended at --max_bot_output_mb
               and its file stays within it.
  bot_limits   a bot that allocates without end and one that forks without
               end are killed past --max_bot_memory_mb and
               --max_bot_threads, and their matches say how much they had.
  busy_referee a referee that holds one match at a time serves an event
               playing three at once: refused matches wait for room.
  heuristic    the heuristic bot beats the random bot: the analyzer's 95%
               interval of its paired score against random lies above 1/2,
               and of the paired score difference excludes zero, in every
               game.
  invitations  --bot_lifetime=event with a pool of 3 processes per bot: a
               60-match event by invitation; every match finished and
               audits OK, and each bot process was started once and took
               its share of the seats.
  remote       --remote_bot=far: the event issues far's credential (with a
               latency allowance) to DIR/credentials/far.credential and waits;
               a bot started apart with it connects and plays its seats; the
               log headers carry its allowance, and the credential stays.
  sprt         --sprt=0,50: the heuristic bot against random stops with H1
               accepted well before the fixed length, exits 0, resumes to
               the same verdict with nothing played, and an event with the
               same secret stops at the same deal set with the same LLR; the
               heuristic bot against itself runs to the event's limit.
  demo         scripts/demo.sh with this build's binaries: every interval
               the demo prints, and every one in the JSON reports of its
               logs, rests on at least 5 independent units and has two
               different ends; the schedule repeats no seating.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

PARAMS = "--params=game_length=SHORT,rounds=4"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def run_tournament(tools, out, bots, extra, check=None):
    args = [f"{tools}/cardref_tournament", f"--out={out}", "--trust_bots",
            PARAMS] + [f"--bot={b}" for b in bots] + extra
    print("$", " ".join(args), flush=True)
    result = subprocess.run(args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    print(result.stdout[-6000:])
    if check is not None and result.returncode != check:
        fail(f"cardref_tournament exited {result.returncode}, not {check}")
    return result


def load(out, name):
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def records(out):
    with open(os.path.join(out, "matches.tsv")) as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def log_records(tools, path):
    text = subprocess.run([f"{tools}/cardref_log", "json", path], check=True,
                          stdout=subprocess.PIPE, text=True).stdout
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def deck_orders(tools, path):
    """The chance records of a log: every deck order dealt."""
    deals = [json.dumps(r["chance"], sort_keys=True)
             for r in log_records(tools, path) if "chance" in r]
    if not deals:
        fail(f"{path} has no chance records")
    return deals


def cpp_bots(tools):
    return [f"random={tools}/cardref_bot --quiet --strategy=random",
            f"heuristic={tools}/cardref_bot --quiet --strategy=heuristic"]


def round_robin(tools, src, tmp):
    out = os.path.join(tmp, "event")
    bots = cpp_bots(tools) + [
        f"python=/usr/bin/python3 {src}/bots/python/cardref_bot.py "
        "--quiet --strategy=heuristic"]
    run_tournament(tools, out, bots,
                   ["--games=craits:3,krass_kariert:3,kraken:4", "--duplicate",
                    "--matches=1", "--concurrency=4"], check=0)
    report = load(out, "report.json")
    matches = report["matches"]
    if report["scheduled"] != len(matches) or not matches:
        fail("not every scheduled match was played")
    seats_seen = {}
    deal_sets = {}
    for m in matches:
        if m["outcome"] != "finished":
            fail(f"{m['key']}: {m['outcome']}: {m['reason']}")
        for s in m["seats"]:
            seats_seen.setdefault(m["game"], set()).add((s["bot"], s["seat"]))
        deal_sets.setdefault(m["deal_set"], []).append(m)
    for game, players in (("craits", 3), ("krass_kariert", 3), ("kraken", 4)):
        want = {(b, s) for b in ("random", "heuristic", "python")
                for s in range(players)}
        if seats_seen.get(game) != want:
            fail(f"{game}: bot/seat pairs {sorted(seats_seen.get(game, []))}")
    for deal_set, ms in deal_sets.items():
        if len(ms) < 2:
            fail(f"deal set {deal_set} has one match only")
        seatings = [tuple(s["bot"] for s in m["seats"]) for m in ms]
        if len(set(seatings)) != len(seatings):
            fail(f"deal set {deal_set} plays a seating twice: {seatings}")
        for m in ms:
            if m["game"] == "kraken":
                teams = [{s["bot"] for s in m["seats"] if s["seat"] % 2 == t}
                         for t in (0, 1)]
                if teams[0] & teams[1]:
                    fail(f"{m['key']}: a bot on both teams: {teams}")
        orders = [deck_orders(tools, m["log"]) for m in ms]
        headers = [log_records(tools, m["log"])[0] for m in ms]
        # At the referee the deal set's id carries a tag of the event (12
        # hex digits of its secret's hash), the same for every twin.
        ids = {h["header"].get("dealSetId", "") for h in headers}
        if len(ids) != 1 or not re.fullmatch(
                r"[0-9a-f]{12}-" + re.escape(deal_set), ids.pop()):
            fail(f"{deal_set}: the log headers' deal_set_id differ or lack "
                 f"the event's tag: {[h['header'].get('dealSetId') for h in headers]}")
        # Every round's deal is the same deck order (cardref-deal-v1 labels
        # each by its round); reshuffles and the number of rounds depend on
        # play, so the deals of the rounds every match played are compared.
        deals = [[d for d in o if "CHANCE_KIND_DEAL" in d] for o in orders]
        rounds = min(len(d) for d in deals)
        if rounds == 0 or len({tuple(d[:rounds]) for d in deals}) != 1:
            fail(f"{deal_set}: the deck orders differ")
    # Its own referee syncs a log at the match's end only: a match cut off
    # by a crash is played again from the start.
    with open(os.path.join(out, "referee.out")) as f:
        if "(--log_sync=end)" not in f.read():
            fail("the tournament's own referee does not sync logs at the end "
                 "of a match only")
    logs = [m["log"] for m in matches]
    analyzer = subprocess.run(
        [f"{tools}/cardref_analyze", "ratings", "--format=json"] + logs,
        check=True, stdout=subprocess.PIPE, text=True).stdout
    with open(os.path.join(out, "standings.json")) as f:
        if json.load(f) != json.loads(analyzer):
            fail("standings.json differs from cardref_analyze ratings")
    print("PASS: every bot in every seat, equal deals per deal set, "
          "standings as the analyzer's")


def resume(tools, src, tmp):
    out = os.path.join(tmp, "event")
    bots = cpp_bots(tools) + [
        f"first={tools}/cardref_bot --quiet --strategy=first"]
    args = [f"{tools}/cardref_tournament", f"--out={out}", "--trust_bots",
            PARAMS, "--games=craits:3,kraken", "--duplicate", "--matches=1",
            "--concurrency=2"] + [f"--bot={b}" for b in bots]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    tsv = os.path.join(out, "matches.tsv")
    deadline = time.time() + 120
    while time.time() < deadline:
        if os.path.exists(tsv) and len(records(out)) >= 4:
            break
        if first.poll() is not None:
            fail("the first run ended before it could be killed")
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    done_before = {r[0] for r in records(out) if r[1] != "started"}
    print(f"killed after {len(done_before)} matches", flush=True)
    second = run_tournament(tools, out, bots,
                            ["--games=craits:3,kraken", "--duplicate",
                             "--matches=1", "--concurrency=2"], check=0)
    report = load(out, "report.json")
    keys = [r[0] for r in records(out)]
    if len(keys) != len(set(keys)) or len(keys) != report["scheduled"]:
        fail(f"{len(keys)} records for {report['scheduled']} scheduled")
    # Matches that finished on the referee just before the kill, but were
    # only recorded as started, are recovered from their logs.
    skipped = re.search(r"(\d+) already played", second.stdout)
    if not skipped or int(skipped.group(1)) < len(done_before):
        fail("the second run did not skip the matches already played")
    if any(r[1] != "finished" for r in records(out)):
        fail("a match is left unfinished or started")
    logs = sorted(r[3] for r in records(out))
    if len(set(logs)) != len(logs):
        fail("two matches share a log")
    # Every finished log in the folder is one recorded match: nothing twice.
    audit = subprocess.run(
        [f"{tools}/cardref_analyze", "audit", os.path.join(out, "logs")],
        stdout=subprocess.PIPE, text=True).stdout
    ok = sorted(line.split()[1] for line in audit.splitlines()
                if line.startswith("OK "))
    if ok != logs:
        fail(f"finished logs {len(ok)} != recorded matches {len(logs)}")
    print(f"PASS: {len(keys)} matches, each played once, after a SIGKILL")


def faults(tools, src, tmp):
    out = os.path.join(tmp, "event")
    crash = os.path.join(tmp, "crash.sh")
    hang = os.path.join(tmp, "hang.sh")
    picky = os.path.join(tmp, "picky.py")
    with open(crash, "w") as f:
        f.write("#!/bin/sh\necho 'crash bot: out of luck' >&2\nexit 3\n")
    with open(hang, "w") as f:
        f.write("#!/bin/sh\necho 'hang bot: thinking' >&2\nexec sleep 600\n")
    with open(picky, "w") as f:
        f.write("#!/usr/bin/python3\nimport argparse\n"
                "p = argparse.ArgumentParser()\n"
                "p.add_argument('--server')\np.parse_args()\n")
    for path in (crash, hang, picky):
        os.chmod(path, 0o755)
    # The bots and the schedule from a config file (tournament.proto),
    # the rest from flags.
    config = os.path.join(tmp, "event.textproto")
    with open(config, "w") as f:
        f.write(f"""
            bots {{ name: "random" command: ["{tools}/cardref_bot", "--quiet"] }}
            bots {{ name: "crash" command: "{crash}" }}
            bots {{ name: "hang" command: "{hang}" }}
            games: "craits:2"
            schedule: "gauntlet"
            matches: 1
            join_timeout_s: 3
        """)
    start = time.time()
    run_tournament(tools, out, [f"picky={picky}"],
                   [f"--config={config}", "--concurrency=4",
                    "--decision_time_limit_ms=300"], check=3)
    if time.time() - start > 60:
        fail("the faulty bots stalled the event")
    report = load(out, "report.json")
    if report["played"] != report["scheduled"] or report["scheduled"] != 6:
        fail(f"played {report['played']} of {report['scheduled']}")
    expect = {"crash": ("exit status 3", "out of luck"),
              "hang": ("killed", "thinking"),
              "picky": ("exit status 2", "unrecognized arguments")}
    for m in report["matches"]:
        if m["outcome"] not in ("cancelled", "aborted"):
            fail(f"{m['key']}: {m['outcome']}, expected it cancelled")
        for s in m["seats"]:
            if s["bot"] == "random":
                if s["failed"]:
                    fail(f"{m['key']}: the innocent bot is blamed: {s}")
                continue
            exit_text, stderr_text = expect[s["bot"]]
            if not s["failed"] or exit_text not in s["exit"]:
                fail(f"{m['key']} seat {s['seat']}: exit {s['exit']!r}")
            if stderr_text not in s.get("stderr_tail", ""):
                fail(f"{m['key']} seat {s['seat']}: stderr "
                     f"{s.get('stderr_tail')!r}")
            if f"seat {s['seat']} ({s['bot']})" not in m["reason"]:
                fail(f"{m['key']}: reason {m['reason']!r} names no seat")
    print("PASS: faulty bots cost their own matches, with the reason")


def refuses_flag(tools, tmp, flag, message):
    """`flag` makes cardref_tournament exit 2 with `message` before it
    creates the event's folder."""
    bad = subprocess.run(
        [f"{tools}/cardref_tournament", f"--out={tmp}/never", "--trust_bots",
         "--games=craits:2", flag] + [f"--bot={b}" for b in cpp_bots(tools)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if bad.returncode != 2 or message not in bad.stdout or \
            os.path.exists(f"{tmp}/never"):
        fail(f"{flag}: exit {bad.returncode}: {bad.stdout}")


def flood(tools, src, tmp):
    """A bot that writes without end: the kernel ends it at the output
    limit (SIGXFSZ), its file stays within it, and its match says so. It
    used to fill the disk until the match was over, and the report read
    the whole file for its tail."""
    out = os.path.join(tmp, "event")
    flooder = os.path.join(tmp, "flood.sh")
    with open(flooder, "w") as f:
        f.write("#!/bin/sh\necho 'flood bot: here it comes' >&2\n"
                "exec yes 'flood flood flood'\n")
    os.chmod(flooder, 0o755)
    start = time.time()
    run_tournament(tools, out, cpp_bots(tools)[:1] + [f"flood={flooder}"],
                   ["--games=craits:2", "--matches=1", "--max_bot_output_mb=1",
                    "--join_timeout_s=5"], check=3)
    if time.time() - start > 60:
        fail("the flooding bot stalled the event")
    report = load(out, "report.json")
    seats = [s for m in report["matches"] for s in m["seats"]
             if s["bot"] == "flood"]
    if not seats:
        fail("no match of the flooding bot")
    for s in seats:
        if not s["failed"] or "SIGXFSZ" not in s["exit"] or \
                "flood flood" not in s.get("stderr_tail", ""):
            fail(f"flood seat: {s}")
    for name in os.listdir(os.path.join(out, "bots")):
        size = os.path.getsize(os.path.join(out, "bots", name))
        if size > 1 << 20:
            fail(f"bots/{name} is {size} bytes, past the 1 MiB limit")
    refuses_flag(tools, tmp, "--max_bot_output_mb=0",
                 "--max_bot_output_mb must be 1 to 1024")
    print(f"PASS: {len(seats)} flooding seats ended at 1 MiB of output")


def bot_limits(tools, src, tmp):
    """A bot that allocates without end and one that forks without end are
    killed past their limits, and their seats say how much they had and
    which flag set the limit; the C++ bots play their own matches under the
    same limits (in the ASan lane too: the memory limit is on resident
    memory, not on address space). Such bots used to take the organiser's
    machine's memory and process table."""
    out = os.path.join(tmp, "event")
    hog = os.path.join(tmp, "hog.py")
    with open(hog, "w") as f:
        f.write("#!/usr/bin/python3\nimport sys\n"
                "print('hog bot: eating', file=sys.stderr, flush=True)\n"
                "chunks = []\n"
                "while True: chunks.append(b'x' * (1 << 20))\n")
    forker = os.path.join(tmp, "forker.sh")
    with open(forker, "w") as f:
        f.write("#!/bin/sh\necho 'fork bot: forking' >&2\n"
                "while :; do sleep 60 & done\n")
    for path in (hog, forker):
        os.chmod(path, 0o755)
    run_tournament(tools, out, cpp_bots(tools)[:2] +
                   [f"hog={hog}", f"forker={forker}"],
                   ["--games=craits:2", "--matches=1", "--max_bot_memory_mb=160",
                    "--max_bot_threads=64", "--join_timeout_s=5"], check=3)
    report = load(out, "report.json")
    seats = [s for m in report["matches"] for s in m["seats"]]
    bad_bots = ("hog", "forker")
    finished = [m for m in report["matches"]
                if all(s["bot"] not in bad_bots for s in m["seats"])]
    if not finished or any(m["outcome"] != "finished" for m in finished):
        fail(f"the C++ bots' own matches under the limits: {finished}")
    expected = {
        "hog": ("past its memory limit of 160 MiB (--max_bot_memory_mb)",
                "hog bot: eating"),
        "forker": ("processes and threads, past its limit of 64 "
                   "(--max_bot_threads)", "fork bot: forking")}
    for bot, (exit_text, stderr_text) in expected.items():
        # Against the other bad bot, whichever passes its limit first ends
        # the match: its opponent is then killed as innocent. Only its
        # matches against the C++ bots say what the limit does.
        mine = [s for m in report["matches"] for s in m["seats"]
                if s["bot"] == bot and
                not all(x["bot"] in bad_bots for x in m["seats"])]
        if not mine:
            fail(f"no match of the {bot}")
        for s in mine:
            if not s["failed"] or exit_text not in s["exit"] or \
                    stderr_text not in s.get("stderr_tail", ""):
                fail(f"{bot} seat: {s}")
    for s in seats:
        if s["bot"] not in bad_bots and s["failed"]:
            fail(f"a C++ bot failed under the same limits: {s}")
    refuses_flag(tools, tmp, "--max_bot_memory_mb=15",
                 "--max_bot_memory_mb must be 16 to 1048576")
    refuses_flag(tools, tmp, "--max_bot_threads=4097",
                 "--max_bot_threads must be 16 to 4096")
    print("PASS: the hog and the forker were killed at their limits")


STALL_BOT = """#!/usr/bin/python3
import argparse, os, sys, time
import grpc
from cardref.v1 import referee_pb2, referee_pb2_grpc
p = argparse.ArgumentParser()
for f in ("--server", "--match_id", "--name"):
    p.add_argument(f)
p.add_argument("--seat", type=int)
a = p.parse_args()
stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(a.server))
stub.JoinMatch(referee_pb2.JoinMatchRequest(
    match_id=a.match_id, seat=a.seat, player_name=a.name,
    ticket=os.environ["CARDREF_JOIN_TICKET"]))
print("stall bot: joined, now silent", file=sys.stderr, flush=True)
time.sleep(600)
"""


def stall(tools, src, tmp):
    """A bot that joins and never answers: the match is aborted at its
    wall-clock budget, and the event goes on."""
    out = os.path.join(tmp, "event")
    bot = os.path.join(tmp, "stall.py")
    with open(bot, "w") as f:
        f.write(STALL_BOT)
    os.chmod(bot, 0o755)
    start = time.time()
    run_tournament(tools, out, [f"random={tools}/cardref_bot --quiet",
                                f"stall={bot}"],
                   ["--games=craits:2", "--matches=1", "--concurrency=2",
                    "--decision_time_limit_ms=1000", "--match_budget_s=3"],
                   check=3)
    if time.time() - start > 30:
        fail("the silent bot stalled the event")
    report = load(out, "report.json")
    if report["played"] != 2:
        fail(f"played {report['played']} of 2")
    for m in report["matches"]:
        if m["outcome"] != "aborted" or "budget" not in m["reason"]:
            fail(f"{m['key']}: {m['outcome']}: {m['reason']!r}")
        exits = {s["bot"]: s["exit"] for s in m["seats"]}
        if "killed" not in exits["stall"] or "running" == exits["random"]:
            fail(f"{m['key']}: bots left running? {exits}")
    print("PASS: a silent bot's match is aborted at its budget")


def start_referee(tools, tmp, name, extra=()):
    port_file = os.path.join(tmp, f"{name}.port")
    referee = subprocess.Popen(
        [f"{tools}/cardref_referee", "--port=0", f"--port_file={port_file}",
         f"--log_dir={tmp}/{name}-logs"] + list(extra),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return referee, f"localhost:{open(port_file).read().strip()}"
        time.sleep(0.05)
    fail("the referee did not start")


def referee_lost(tools, src, tmp):
    """The referee dies mid-event: the event ends without recording the
    matches it could not play, and a second run on a new referee plays
    exactly those."""
    out = os.path.join(tmp, "event")
    bots = cpp_bots(tools)
    referee, server = start_referee(tools, tmp, "first")
    args = [f"{tools}/cardref_tournament", f"--out={out}", "--trust_bots",
            PARAMS, "--games=craits:2", "--matches=5", "--concurrency=2",
            f"--server={server}"] + [f"--bot={b}" for b in bots]
    first = subprocess.Popen(args, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    tsv = os.path.join(out, "matches.tsv")
    deadline = time.time() + 60
    while not (os.path.exists(tsv) and len(records(out)) >= 3):
        if time.time() > deadline or first.poll() is not None:
            fail("the first run ended before the referee could be killed")
        time.sleep(0.05)
    referee.kill()
    referee.wait()
    start = time.time()
    output, _ = first.communicate(timeout=120)
    print(output[-3000:])
    if first.returncode != 3 or "not played" not in output:
        fail(f"exit {first.returncode}; expected 3 and matches not played")
    # The runner gives a match up 5 s after the referee stops answering
    # about it, whatever its bots do (cardref_bot keeps reconnecting 30 s).
    if time.time() - start > 15:
        fail("a lost referee stalled the event")
    played_first = len([r for r in records(out) if r[1] != "started"])
    if any(r[1] == "not played" for r in records(out)):
        fail("a match that was not played is recorded")
    referee, server = start_referee(tools, tmp, "second")
    try:
        args[-len(bots) - 1] = f"--server={server}"
        second = subprocess.run(args, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        print(second.stdout[-3000:])
    finally:
        referee.kill()
        referee.wait()
    keys = [r[0] for r in records(out)]
    report = load(out, "report.json")
    if second.returncode != 0 or len(keys) != len(set(keys)) or \
            len(keys) != report["scheduled"] or \
            any(r[1] != "finished" for r in records(out)):
        fail(f"second run: exit {second.returncode}, {len(keys)} records")
    print(f"PASS: {played_first} matches before the referee died, the rest "
          "after, each once")


def server_refusals(tools, src, tmp):
    """With --server, a game the referee does not serve, or a referee that
    is not there, ends the run before the event's folder exists."""
    bots = cpp_bots(tools)
    referee, server = start_referee(tools, tmp, "refusals")
    try:
        cases = [("unknown game", server, "--games=nosuchgame:2", 2,
                  "the referee has no game 'nosuchgame'"),
                 ("player count", server, "--games=kraken:3", 2,
                  "kraken is for 4 to 4 players, not 3"),
                 ("no referee", "localhost:1", "--games=craits:2", 1,
                  "cannot reach the referee at localhost:1")]
        for name, address, games, code, message in cases:
            out = os.path.join(tmp, name.replace(" ", "_"))
            run = subprocess.run(
                [f"{tools}/cardref_tournament", f"--out={out}",
                 "--trust_bots", games, "--matches=2",
                 f"--server={address}"] + [f"--bot={b}" for b in bots],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                timeout=60)
            if run.returncode != code or message not in run.stdout:
                fail(f"{name}: exit {run.returncode}, not {code} with "
                     f"'{message}': {run.stdout}")
            if os.path.exists(out):
                fail(f"{name}: the event's folder was created: "
                     f"{os.listdir(out)}")
    finally:
        referee.kill()
        referee.wait()
    print("PASS: --server refusals leave no event folder")


def busy_referee(tools, src, tmp):
    """A referee that holds one match at a time (--max_matches_in_progress=1)
    and an event playing three at once: the refused CreateMatch calls are
    tried again until there is room, and every match finishes. They used to
    be recorded as failed, for good."""
    referee, server = start_referee(tools, tmp, "busy",
                                    ["--max_matches_in_progress=1"])
    out = os.path.join(tmp, "event")
    try:
        run_tournament(tools, out, cpp_bots(tools),
                       ["--games=craits:2", "--matches=3", "--concurrency=3",
                        f"--server={server}"], check=0)
    finally:
        referee.kill()
        referee.wait()
    outcomes = [r[1] for r in records(out)]
    if len(outcomes) < 3 or any(o != "finished" for o in outcomes):
        fail(f"outcomes {outcomes}")
    print(f"PASS: {len(outcomes)} matches through a referee that holds one")


def event_with_secret(folder, secret):
    """An event folder holding `secret`: the same deals and bot seeds on
    every run of a test."""
    os.makedirs(folder)
    fd = os.open(os.path.join(folder, "event.secret"),
                 os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, secret.encode())
    os.close(fd)
    return folder


def heuristic(tools, src, tmp):
    # A fixed secret: six deal sets are few, and a random secret now and
    # then gave Craits an interval reaching below 1/2. The verdict is then
    # the same on every run.
    out = event_with_secret(os.path.join(tmp, "event"), "4eb1" * 16 + "\n")
    run_tournament(tools, out, cpp_bots(tools),
                   ["--games=craits:2,krass_kariert:3,kraken:4",
                    "--duplicate", "--matches=6", "--concurrency=4"], check=0)
    logs = os.path.join(out, "logs")
    for game in ("craits", "krass_kariert", "kraken"):
        text = subprocess.run(
            [f"{tools}/cardref_analyze", "compare", "--format=json",
             f"--game={game}", "heuristic@cardref_bot 0.1.0 heuristic",
             "random@cardref_bot 0.1.0 random", logs],
            check=True, stdout=subprocess.PIPE, text=True).stdout
        c = json.loads(text)
        print(game, c["paired_score"], c["paired_score_ci"],
              c["score_difference"], c["score_difference_ci"])
        # A's score against B per deal set: above 1/2, or (every deal set
        # alike, so no interval) 1/2 nowhere near.
        ps = c["paired_score_ci"]
        if ps["low"] is not None:
            if not ps["low"] > 0.5:
                fail(f"{game}: the heuristic bot's paired score {ps}")
        elif not (c["paired_score"] > 0.6 and "no variance" in ps["note"]):
            fail(f"{game}: no interval of the paired score: {ps}")
        ci = c["score_difference_ci"]
        if ci["low"] is None or ci["high"] is None:
            fail(f"{game}: no interval of the score difference: {ci}")
        if int(ci["units"]) < 5:
            fail(f"{game}: an interval over {ci['units']} units")
        better_high = c.get("higher_score_is_better", False)
        if not (ci["low"] > 0 if better_high else ci["high"] < 0):
            fail(f"{game}: the heuristic bot does not beat random: {ci}")
    print("PASS: the heuristic bot beats the random bot in every game")


INTERVAL = re.compile(r"(-?\d+\.\d+)\.\.(-?\d+\.\d+)")


def check_intervals(where, node, units=None):
    """Every interval in a report's JSON: both ends or neither (then a
    note), two different ends, and at least 5 units under it."""
    if isinstance(node, list):
        for x in node:
            check_intervals(where, x, units)
        return
    if not isinstance(node, dict):
        return
    units = int(node.get("units", units) or 0) if "units" in node else units
    for low, high, note in (("low", "high", "note"),
                            ("ci_low", "ci_high", "ci_note")):
        if low not in node:
            continue
        lo, hi = node[low], node[high]
        if lo is not None and hi is not None:
            if not lo < hi:
                fail(f"{where}: a zero-width interval {lo}..{hi}: {node}")
            if units is not None and units < 5:
                fail(f"{where}: an interval over {units} units: {node}")
        elif not node.get(note):
            fail(f"{where}: a missing bound without a note: {node}")
    for value in node.values():
        check_intervals(where, value, units)


def demo(tools, src, tmp):
    out = os.path.join(tmp, "demo")
    env = dict(os.environ, CARDREF_DEMO_BIN=tools, CARDREF_DEMO_OUT=out)
    start = time.time()
    run = subprocess.run([os.path.join(src, "scripts", "demo.sh")], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=280)
    print(run.stdout[-8000:])
    if run.returncode != 0:
        fail(f"scripts/demo.sh exited {run.returncode}")
    took = re.search(r"== tournament took (\d+) s", run.stdout)
    print(f"demo: {time.time() - start:.0f} s, tournament "
          f"{took.group(1) if took else '?'} s")
    # What the demo prints: no interval with equal ends.
    for lo, hi in INTERVAL.findall(run.stdout):
        if lo == hi:
            fail(f"the demo prints a zero-width interval {lo}..{hi}")
    if "fewer than 5" in run.stdout:
        fail("the demo prints a statistic over fewer than 5 units")
    if "set aside" in run.stdout:
        fail("the demo's event repeats a game")
    if "NOT balanced" in run.stdout or "each bot sits in each seat" \
            not in run.stdout:
        fail("the demo's schedule is not balanced")
    # Every interval of its reports, in JSON.
    logs = os.path.join(out, "logs")
    analyze = f"{tools}/cardref_analyze"
    for command in ("stats", "ratings"):
        report = json.loads(subprocess.run(
            [analyze, command, "--format=json", logs], check=True,
            stdout=subprocess.PIPE, text=True).stdout)
        for game in report["games"]:
            if int(game["units"]) < 5:
                fail(f"{command} {game['game']}: {game['units']} units")
            check_intervals(f"{command} {game['game']}", game)
    with open(os.path.join(out, "event", "standings.json")) as f:
        check_intervals("standings", json.load(f)["games"])
    for game in ("craits", "krass_kariert", "kraken"):
        c = json.loads(subprocess.run(
            [analyze, "compare", "--format=json", f"--game={game}",
             "heuristic@cardref_bot 0.1.0 heuristic",
             "random@cardref_bot 0.1.0 random", logs], check=True,
            stdout=subprocess.PIPE, text=True).stdout)
        if int(c["units"]) < 5:
            fail(f"compare {game}: {c['units']} units")
        check_intervals(f"compare {game}", c)
    print("PASS: the demo's intervals rest on 5 units or more, none a point")


def invitations(tools, src, tmp):
    out = os.path.join(tmp, "event")
    bots = [f"random={tools}/cardref_bot --strategy=random",
            f"heuristic={tools}/cardref_bot --strategy=heuristic"]
    result = run_tournament(tools, out, bots,
                            ["--games=craits:2", "--duplicate", "--matches=30",
                             "--concurrency=4", "--bot_lifetime=event",
                             "--bot_pool=3"], check=0)
    report = load(out, "report.json")
    matches = report["matches"]
    if report["scheduled"] != 60 or len(matches) != 60:
        fail(f"{len(matches)} of {report['scheduled']} matches, not 60")
    for m in matches:
        if m["outcome"] != "finished":
            fail(f"{m['key']}: {m['outcome']}: {m['reason']}")
        if any(s["exit"] != "by invitation" for s in m["seats"]):
            fail(f"{m['key']}: a seat not played by invitation: {m['seats']}")
    # Signed by the event's own referee, whose public key is beside its key.
    audit = subprocess.run(
        [f"{tools}/cardref_analyze", "audit",
         f"--referee_key={os.path.join(out, 'referee_ed25519.pub')}"] +
        [m["log"] for m in matches],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if audit.returncode != 0:
        print(audit.stdout[-3000:])
        fail(f"the audit exited {audit.returncode}")
    # Each of the 6 processes started once, and each played seats.
    for bot in ("random", "heuristic"):
        line = f"{bot}: 3 processes of up to 2 matches at once, 3 starts"
        if line not in result.stdout:
            fail(f"no '{line}' in the output")
        for i in range(3):
            path = os.path.join(out, "bots", f"{bot}.pool{i}.stderr")
            text = open(path).read()
            if text.count("taking up to") != 1:
                fail(f"{path}: {text.count('taking up to')} streams opened")
            if "joined" not in text:
                fail(f"{path}: the process played no seat")
    leftovers = [f for f in os.listdir(os.path.join(out, "bots"))
                 if ".start" in f]
    if leftovers:
        fail(f"processes were started again: {leftovers}")
    print("PASS: 60 matches by invitation, audited, 6 processes started once")


def remote(tools, src, tmp):
    out = os.path.join(tmp, "event")
    args = [f"{tools}/cardref_tournament", f"--out={out}", "--trust_bots",
            PARAMS, f"--bot=random={tools}/cardref_bot --quiet",
            "--remote_bot=far", "--latency_allowance_ms=250",
            "--remote_wait_s=60", "--games=craits:2", "--duplicate",
            "--matches=2", "--concurrency=2"]
    print("$", " ".join(args), flush=True)
    event = subprocess.Popen(args, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    credential_file = os.path.join(out, "credentials", "far.credential")
    for _ in range(300):
        if os.path.exists(credential_file):
            break
        time.sleep(0.1)
    else:
        event.kill()
        fail("no credential file for the remote bot")
    if os.stat(credential_file).st_mode & 0o777 != 0o600:
        fail("the remote bot's credential file is not 0600")
    port = open(os.path.join(out, "referee.port")).read().strip()
    env = dict(os.environ,
               CARDREF_BOT_CREDENTIAL=open(credential_file).read().strip())
    far = subprocess.Popen(
        [f"{tools}/cardref_bot", "--strategy=heuristic",
         f"--server=localhost:{port}", "--max_matches=2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = event.communicate(timeout=240)
    finally:
        far.kill()
    far_output, _ = far.communicate()
    print(output[-4000:])
    if event.returncode != 0:
        fail(f"cardref_tournament exited {event.returncode}")
    # The invited bot calls itself by the name its credential binds.
    if "far: joined " not in far_output:
        fail(f"the remote bot did not say its name: {far_output[-500:]}")
    if "remote entrant far" not in output:
        fail("the event did not say it waits for the remote bot")
    report = load(out, "report.json")
    if len(report["matches"]) != 4:
        fail(f"{len(report['matches'])} matches, not 4")
    for m in report["matches"]:
        if m["outcome"] != "finished":
            fail(f"{m['key']}: {m['outcome']}: {m['reason']}")
        seat = [s["seat"] for s in m["seats"] if s["bot"] == "far"][0]
        header = log_records(tools, m["log"])[0]["header"]
        allowance = header["clock"].get("latencyAllowanceMillis", [])
        if [int(a) for a in allowance] != [250 if s == seat else 0
                                          for s in range(2)]:
            fail(f"{m['key']}: allowances {allowance}, far in seat {seat}")
    print("PASS: the remote bot connected with the issued credential and "
          "played its seats with its latency allowance")


def sprt(tools, src, tmp):
    bots = [f"heuristic={tools}/cardref_bot --quiet --strategy=heuristic",
            f"random={tools}/cardref_bot --quiet --strategy=random"]
    args = ["--games=craits:2", "--duplicate", "--matches=100",
            "--concurrency=3", "--sprt=0,50"]
    # A fixed secret: the same deals and bot seeds on every run of the test,
    # so where it stops is fixed too. (The heuristic bot wins nearly every
    # game; the SPRT waits for a deal set that is not a clean sweep, which
    # a random secret may put late.)
    secret = "5eed" * 16 + "\n"

    out = event_with_secret(os.path.join(tmp, "event"), secret)
    first = run_tournament(tools, out, bots, args, check=0)
    verdict = [l for l in first.stdout.splitlines()
               if l.startswith("SPRT: ")]
    if not verdict or not verdict[-1].startswith("SPRT: H1 accepted: LLR "):
        fail(f"no H1 verdict: {verdict}")
    games = int(re.search(r"(\d+) games;", verdict[-1]).group(1))
    played = len(records(out))
    if games >= 100 or played >= 110:
        fail(f"decided after {games} games, {played} played: not well "
             "before the 200 of the fixed length")
    # Resumed: the same verdict, nothing played.
    again = run_tournament(tools, out, bots, args, check=0)
    if "decided before this run" not in again.stdout or \
            again.stdout.splitlines()[-1] != verdict[-1]:
        fail("the resumed event did not end with the same verdict")
    if len(records(out)) != played:
        fail("the resumed event played matches")
    # The same secret: the same deals and bot seeds, the same decision,
    # here with matches played one at a time.
    twin = event_with_secret(os.path.join(tmp, "twin"), secret)
    second = run_tournament(tools, twin, bots,
                            [a for a in args if "concurrency" not in a], check=0)
    if second.stdout.splitlines()[-1] != verdict[-1]:
        fail(f"with the same secret: {second.stdout.splitlines()[-1]!r}, "
             f"not {verdict[-1]!r}")
    # A bot against itself: the deterministic heuristic in both seatings of
    # a deal wins one each, every deal set scores 1/2, and the test has no
    # spread to decide on: the event runs to its limit, whatever its
    # secret.
    same = [f"one={tools}/cardref_bot --quiet --strategy=heuristic",
            f"two={tools}/cardref_bot --quiet --strategy=heuristic"]
    third = run_tournament(tools, os.path.join(tmp, "same"), same,
                           ["--games=craits:2", "--duplicate", "--matches=8",
                            "--concurrency=3", "--sprt=0,50"], check=0)
    last = third.stdout.splitlines()[-1]
    if not (last.startswith("SPRT: H0 accepted") or
            last.startswith("SPRT: no decision")):
        fail(f"a bot against itself: {last}")
    if last.startswith("SPRT: no decision") and len(
            records(os.path.join(tmp, "same"))) != 16:
        fail("a bot against itself did not run to its limit")
    print(f"PASS: {verdict[-1]}; resumed and replayed alike; against itself: "
          f"{last}")


def main():
    mode, tools, src = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with tempfile.TemporaryDirectory() as tmp:
        {"round_robin": round_robin, "resume": resume, "faults": faults,
         "stall": stall, "referee_lost": referee_lost,
         "server_refusals": server_refusals, "busy_referee": busy_referee,
         "flood": flood, "bot_limits": bot_limits,
         "heuristic": heuristic, "demo": demo, "invitations": invitations,
         "remote": remote, "sprt": sprt}[mode](tools, src, tmp)


if __name__ == "__main__":
    main()
