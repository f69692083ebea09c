#!/usr/bin/python3
"""A bot author's first hour, end to end: the snags a new author hit, each
checked as that author would meet it.

    first_hour_test.py MODE BUILD_TOOLS_DIR SOURCE_DIR

MODE is one of:
  slow_bot   an event in a folder whose parent does not exist yet
             (--out=DIR/events/first), with a bot that watches its stream
             and never answers: its stream ends with FAILED_PRECONDITION
             saying it was made absent after 3 timeouts in a row, the
             event's progress line, its end and matches/*.json count its
             faults, and the referee's public key file beside its key file
             audits the logs (and so does the key file itself).
  by_hand    the debugger recipe of docs/bots.md, run as written (with
             cardref_bot as "my bot" and this build's paths): the event
             waits for the seat started by hand, whose command it prints;
             then the ratings page of its logs in headless Chromium, where
             a long name is not clipped.
  bot_name   cardref_bot --strategy=heuristic without --name joins as
             "heuristic", not "random".
  docs       docs/bots.md says what the referee does at a timeout (the
             game's neutral action, as docs/fault_policy.md says).

Needs the Python stubs on PYTHONPATH (build/python) and, for by_hand,
Debian's chromium, chromium-driver and python3-selenium.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

PARAMS = "--params=game_length=SHORT"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def load(path):
    with open(path) as f:
        return json.load(f)


SLOW_BOT = """#!/usr/bin/python3
# Joins, watches its stream and never answers; says how the stream ended.
import argparse, os, sys
sys.path[:0] = STUBS  # bots get no PYTHONPATH from the tournament
import grpc
from cardref.v1 import referee_pb2, referee_pb2_grpc
p = argparse.ArgumentParser()
for f in ("--server", "--match_id", "--name"):
    p.add_argument(f)
p.add_argument("--seat", type=int)
a = p.parse_args()
stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(a.server))
joined = stub.JoinMatch(referee_pb2.JoinMatchRequest(
    match_id=a.match_id, seat=a.seat,
    ticket=os.environ["CARDREF_JOIN_TICKET"]))
seat = referee_pb2.SeatRequest(match_id=joined.match_id, seat=joined.seat,
                               token=joined.token)
shown = 0
try:
    for obs in stub.WatchObservations(seat):
        shown += 1
    print(f"slow bot: stream ended OK after {shown}", file=sys.stderr)
except grpc.RpcError as e:
    print(f"slow bot: stream ended after {shown}: {e.code().name}: "
          f"{e.details()}", file=sys.stderr)
"""


def run(args, **kwargs):
    print("$", " ".join(shlex.quote(a) for a in args), flush=True)
    result = subprocess.run(args, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)
    print(result.stdout[-4000:])
    return result


def slow_bot(tools, src, tmp):
    bot = os.path.join(tmp, "slow.py")
    with open(bot, "w") as f:
        stubs = [p for p in os.environ.get("PYTHONPATH", "").split(":") if p]
        f.write(SLOW_BOT.replace("STUBS", repr(stubs)))
    os.chmod(bot, 0o755)
    # As docs/bots.md writes it: events/ does not exist yet.
    out = os.path.join(tmp, "events", "first")
    result = run([f"{tools}/cardref_tournament", f"--out={out}",
                  "--trust_bots", PARAMS, "--games=craits:2", "--matches=1",
                  "--decision_time_limit_ms=400",
                  f"--bot=quick={tools}/cardref_bot --quiet --strategy=first",
                  f"--bot=slow={bot}"])
    if result.returncode != 0:
        fail(f"cardref_tournament exited {result.returncode}")
    report = load(os.path.join(out, "report.json"))
    if report["played"] != 2:
        fail(f"played {report['played']} of 2")
    for m in report["matches"]:
        seats = {s["bot"]: s for s in m["seats"]}
        slow, quick = seats["slow"], seats["quick"]
        f = slow["faults"]
        if (m["outcome"] != "finished" or f["timeouts"] != 3 or
                not f["absent"] or f["played_for"] <= 3):
            fail(f"{m['key']}: {m['outcome']}, slow's faults {f}")
        if quick["faults"]["timeouts"] or quick["faults"]["played_for"]:
            fail(f"{m['key']}: quick's faults {quick['faults']}")
        if slow["exit"] != "exit status 0" or slow["failed"]:
            fail(f"{m['key']}: slow exited {slow['exit']!r}")
        line = (f"{m['key']} finished - faults: seat {slow['seat']} (slow): "
                f"3 timeouts, made absent, {f['played_for']} decisions "
                f"played by the referee")
        if line not in result.stdout:
            fail(f"no progress line {line!r}")
        told = open(os.path.join(out, "bots", f"{m['key']}.seat"
                                 f"{slow['seat']}.stderr")).read()
        expected = (f"slow bot: stream ended after 3: FAILED_PRECONDITION: "
                    f"seat {slow['seat']} was made absent after 3 timeouts "
                    f"in a row (docs/fault_policy.md)")
        if expected not in told:
            fail(f"the slow bot was not told: {told!r}")
    if not re.search(r"slow: faults in 2 match\(es\): 6 timeouts, "
                     r"\d+ rejected submissions, made absent in 2",
                     result.stdout):
        fail("no per-bot fault summary at the end")
    # The public key beside the key file audits the logs; so does the key
    # file itself (its owner's); a stranger's key does not.
    pub = os.path.join(out, "referee_ed25519.pub")
    if not os.path.exists(pub) or oct(os.stat(pub).st_mode & 0o777) != "0o644":
        fail(f"no public key file {pub}")
    for key in (pub, os.path.join(out, "referee_ed25519.key")):
        audit = run([f"{tools}/cardref_analyze", "audit", "--quiet",
                     f"--referee_key={key}", os.path.join(out, "logs")])
        if audit.returncode != 0 or "signed by the trusted key" not in audit.stdout:
            fail(f"the audit with --referee_key={key} failed")
    audit = run([f"{tools}/cardref_analyze", "audit", "--quiet",
                 "--referee_key=" + "11" * 32, os.path.join(out, "logs")])
    if audit.returncode == 0:
        fail("a stranger's key passed the audit")
    print("PASS: the absent bot was told, its faults counted, the logs "
          "audited with the key file beside them")


def by_hand(tools, src, tmp):
    """The recipe of docs/bots.md, "Your bot under a debugger", as written."""
    text = open(os.path.join(src, "docs", "bots.md")).read()
    section = text.split("## Your bot under a debugger", 1)[1]
    blocks = re.findall(r"```\n(.*?)```", section, re.S)
    command = blocks[0].replace("\\\n", " ")
    # This build's paths; cardref_bot as "my bot", under a long name (the
    # ratings page must not clip it).
    long_name = "a_bot_with_a_rather_long_name_that_used_to_be_clipped_xyz"
    command = (command.replace("build/tools", tools)
               .replace("./my_bot", f"{tools}/cardref_bot --strategy=first")
               .replace("events/debug", os.path.join(tmp, "events", "debug"))
               .replace("mine", long_name))
    args = shlex.split(command) + [PARAMS]
    if "--by_hand=" + long_name not in args:
        fail(f"the documented command has no --by_hand: {command}")
    print("$", " ".join(shlex.quote(a) for a in args), flush=True)
    event = subprocess.Popen(args, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    out = os.path.join(tmp, "events", "debug")
    seen = []
    started = time.time()
    pending = None
    for line in event.stdout:
        print(line, end="", flush=True)
        seen.append(line)
        if pending is not None and line.startswith("  env $(cat "):
            # The printed command, run as the recipe's second terminal does
            # (no debugger here: gdb -batch -ex run would do the same).
            printed = line.strip()
            env_file = printed.split("$(cat ", 1)[1].split(")", 1)[0]
            if env_file != os.path.join(out, "by_hand.env"):
                fail(f"by_hand.env is elsewhere: {env_file}")
            if oct(os.stat(env_file).st_mode & 0o777) != "0o600":
                fail("by_hand.env is not owner-only")
            env = dict(os.environ)
            for kv in open(env_file).read().split():
                name, value = kv.split("=", 1)
                env[name] = value
            if not env.get("CARDREF_JOIN_TICKET"):
                fail("no ticket in by_hand.env")
            if env["CARDREF_JOIN_TICKET"] in "".join(seen):
                fail("the ticket was printed")
            mine = printed.split(") ", 1)[1]
            subprocess.Popen(shlex.split(mine), env=env,
                             stdout=subprocess.DEVNULL)
            pending = None
        if line.startswith("by hand: "):
            pending = line
        if time.time() - started > 120:
            event.kill()
            fail("the event did not end")
    if event.wait() != 0:
        fail(f"the event exited {event.returncode}")
    report = load(os.path.join(out, "report.json"))
    hand = [s for m in report["matches"] for s in m["seats"]
            if s["bot"] == long_name]
    if report["played"] != 2 or len(hand) != 2 or any(
            s["exit"] != "started by hand" or s["failed"] for s in hand):
        fail(f"the seats started by hand: {hand}")
    if sum(l.startswith("by hand: ") for l in seen) != 2:
        fail("not one 'by hand' line per match")

    # The ratings page: no name's text starts left of the chart.
    page = os.path.join(tmp, "ratings.html")
    if run([f"{tools}/cardref_analyze", "ratings", "--quiet", f"--html={page}",
            os.path.join(out, "logs")]).returncode != 0:
        fail("cardref_analyze ratings --html failed")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.get("file://" + page)
        # Each text of the ratings chart and the head-to-head map, and how
        # far inside its chart it is on each side (negative: clipped).
        boxes = driver.execute_script("""
          return Array.from(document.querySelectorAll('svg.ratings, svg.heatmap'))
            .flatMap(svg => {
              const box = svg.getBoundingClientRect();
              return Array.from(svg.querySelectorAll('text')).map(t => {
                const r = t.getBoundingClientRect();
                return [t.textContent, r.left - box.left, r.top - box.top,
                        box.right - r.right, box.bottom - r.bottom];
              });
            });""")
    finally:
        driver.quit()
    names = [b for b in boxes if b[0].startswith(long_name)]
    if len(names) != 3:  # the ratings chart, a row and a column of the map
        fail(f"the charts do not show {long_name} 3 times: {boxes}")
    clipped = [b for b in boxes if min(b[1:]) < -1]
    if clipped:
        fail(f"clipped on the ratings page (text, room left, top, right, "
             f"bottom): {clipped}")
    print("PASS: the documented debugger recipe ran; the ratings page shows "
          "the long name whole")


def bot_name(tools, src, tmp):
    sys.path.insert(0, os.environ.get("PYTHONPATH", ""))
    import grpc
    from cardref.v1 import referee_pb2, referee_pb2_grpc
    port_file = os.path.join(tmp, "port")
    referee = subprocess.Popen(
        [f"{tools}/cardref_referee", "--port=0", f"--port_file={port_file}",
         f"--log_dir={tmp}/logs"], stdout=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if os.path.exists(port_file) and open(port_file).read().strip():
                break
            time.sleep(0.05)
        server = f"localhost:{open(port_file).read().strip()}"
        stub = referee_pb2_grpc.RefereeStub(grpc.insecure_channel(server))
        request = referee_pb2.CreateMatchRequest(game="craits")
        request.params.values["num_players"].int_value = 2
        request.params.values["game_length"].enum_value = "SHORT"
        created = stub.CreateMatch(request)
        env = dict(os.environ)
        for name in [n for n in env if n.startswith("CARDREF_")]:
            del env[name]
        bots = [subprocess.Popen(
            [f"{tools}/cardref_bot", f"--server={server}", "--quiet",
             f"--match_id={created.match_id}", f"--seat={seat}",
             f"--strategy={strategy}"], env=env)
            for seat, strategy in enumerate(["heuristic", "first"])]
        if [b.wait(timeout=60) for b in bots] != [0, 0]:
            fail("a cardref_bot failed")
        match = stub.GetMatch(
            referee_pb2.GetMatchRequest(match_id=created.match_id))
        names = [s.player_name for s in match.seats]
        if names != ["heuristic", "first"]:
            fail(f"joined as {names}, not as their strategies")
    finally:
        referee.terminate()
        referee.wait(timeout=10)
    print("PASS: cardref_bot without --name joins under its strategy's name")


def docs(tools, src, tmp):
    bots = open(os.path.join(src, "docs", "bots.md")).read()
    policy = open(os.path.join(src, "docs", "fault_policy.md")).read()
    limits = bots.split("## Time limits and retries", 1)[1].split("\n## ", 1)[0]
    if "**neutral\naction**" not in limits and "**neutral action**" not in limits:
        fail("docs/bots.md, 'Time limits and retries', does not say the "
             "referee plays the game's neutral action")
    if re.search(r"\*\*first\*\*\s+legal", bots):
        fail("docs/bots.md still says the referee plays the first legal action")
    if "the game's **neutral action**" not in policy:
        fail("docs/fault_policy.md no longer says 'neutral action'")
    print("PASS: docs/bots.md and docs/fault_policy.md agree on the substitute")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("slow_bot", "by_hand",
                                                 "bot_name", "docs"):
        print(__doc__)
        sys.exit(2)
    mode, tools, src = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    with tempfile.TemporaryDirectory() as tmp:
        {"slow_bot": slow_bot, "by_hand": by_hand, "bot_name": bot_name,
         "docs": docs}[mode](tools, os.path.abspath(src), tmp)


if __name__ == "__main__":
    main()
