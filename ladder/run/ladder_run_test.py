#!/usr/bin/python3
"""End-to-end tests of `cardref_ladder run` (docs/ladder.md), real processes.

    ladder_run_test.py MODE BUILD_TOOLS_DIR

MODE is one of:
  kill9       a runner killed with SIGKILL while a rated match is in play,
              then started again: the interrupted match is played again
              (claimed twice, one result), no result is lost or counted
              twice, and the ratings count every rated result once. Then
              SIGTERM to a runner with a match in play: it finishes and
              records it, leaves no claim and exits 0.
  referee_dies the runner's referee killed with SIGKILL mid-match: the
              match is voided as a referee-side fault (no result, no rating),
              the referee is started again with the same key, and the
              match's deal is replayed with the same seats and finished.
  validation  a new version plays its validation match and is ranked; a
              version that crashes is rejected with the reason shown by
              `versions` and `standings`; a retired version keeps its
              results and rating history and plays no more.
  heuristic   about 20 rated matches of the heuristic bot against two
              random ones: the standings put heuristic first; the batch
              refit is reported every 10 rated results; the JSON and
              CSV standings agree; a match is reproduced move for move;
              `export` lists every recorded result once.
  rejections  a version that times out (it stops answering) and one that
              submits illegal moves are rejected, each with its fault in
              `versions` and under the standings.
  too_few     `run --matches=N` with too few versions to seat a game exits
              at once with an error naming the game and what it needs;
              without --matches the runner says once that it waits.
  remote      a remote entrant (`add --remote`): the runner issues its
              credential into the ladder's folder (0600); while its bot is
              away its match is voided, not scored; a cardref_bot started
              by the test with the credential takes its seats by
              invitation, is validated, ranked and rated; runs after that
              keep the credential and the bot plays on.
  sandbox     (root; exit 77 otherwise) the ladder's bots in the sandbox,
              each as a uid of its own from the default range: matches are
              played and rated; a hostile version that joins, tries to read
              the ladder's database, logs, signing key and token (it cannot
              even see them) and then passes its memory limit mid-match is
              ended, reported to the referee (its match finishes and is
              recorded) and rejected with the limit as its reason.
"""
import csv
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

PARAMS = "--params=game_length=SHORT,rounds=4"


def fail(message):
    print("FAIL:", message, flush=True)
    sys.exit(1)


def ladder(tools, *args, check=0):
    argv = [f"{tools}/cardref_ladder"] + list(args)
    print("$", " ".join(argv), flush=True)
    result = subprocess.run(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    print(result.stdout[-5000:], flush=True)
    if check is not None and result.returncode != check:
        fail(f"cardref_ladder {args[0]} exited {result.returncode}, not {check}")
    return result.stdout


def make_ladder(tools, db, bots):
    ladder(tools, "init", f"--db={db}", "--name=test", "--games=craits:3",
           PARAMS, "--decision_time_limit_ms=2000", "--match_budget_ms=60000")
    for name, command, content in bots:
        ladder(tools, "add", f"--db={db}", f"--entrant={name}",
               f"--command={command}", f"--content_hash={content}")


def bot(tools, strategy):
    return f"{tools}/cardref_bot --strategy={strategy} --quiet"


def hash_of(text):
    import hashlib
    return hashlib.sha256(text.encode()).hexdigest()


def query(db, sql, *args):
    with sqlite3.connect(db, timeout=10) as conn:
        return conn.execute(sql, args).fetchall()


def check_books(db):
    """Every rated result counted once: results are unique per match and per
    log hash, and the ratings count each rated result's seats once."""
    finished = query(db, "SELECT COUNT(*) FROM matches WHERE state='finished'")
    results = query(db, "SELECT COUNT(*), COUNT(DISTINCT match_id) FROM results")
    if results[0][0] != finished[0][0] or results[0][1] != results[0][0]:
        fail(f"{results[0][0]} results for {finished[0][0]} finished matches")
    rated_seats = query(
        db, "SELECT COUNT(*) FROM result_seats s JOIN results r ON "
        "r.log_hash = s.log_hash JOIN matches m ON m.id = r.match_id "
        "WHERE m.kind = 'rated'")[0][0]
    games = query(db, "SELECT COALESCE(SUM(games), 0) FROM ratings")[0][0]
    history = query(db, "SELECT COUNT(*) FROM rating_history")[0][0]
    if games != rated_seats or history != rated_seats:
        fail(f"ratings count {games} games and {history} changes for "
             f"{rated_seats} rated seats")
    return results[0][0]


def kill9(tools, tmp):
    db = os.path.join(tmp, "l.db")
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("first", bot(tools, "first"), hash_of("f"))])
    args = [f"{tools}/cardref_ladder", "run", f"--db={db}", "--trust_bots",
            "--lease_s=2", "--workers=1"]
    print("$", " ".join(args), flush=True)
    out = open(os.path.join(tmp, "run1.out"), "w")
    runner = subprocess.Popen(args + ["--matches=30"], stdout=out,
                              stderr=subprocess.STDOUT)
    # Wait for a rated match in play, its bots starting. A short match (a
    # quarter of a second) may end in between: the runner is stopped
    # (SIGSTOP: it alone writes the store) to check that the match is still
    # claimed, and let go to look again if not, waiting half as long after
    # the claim each time (at worst the kill comes just after a claim).
    interrupted = None
    wait_after_claim = 0.15
    deadline = time.time() + 30
    while time.time() < deadline and interrupted is None:
        rows = query(db, "SELECT id FROM matches WHERE state='claimed' AND "
                     "kind='rated'")
        if not rows:
            time.sleep(0.02)
            continue
        time.sleep(wait_after_claim)
        runner.send_signal(signal.SIGSTOP)
        still = query(db, "SELECT state FROM matches WHERE id=?", rows[0][0])
        if still and still[0][0] == "claimed":
            interrupted = rows[0][0]
        else:
            runner.send_signal(signal.SIGCONT)
            wait_after_claim /= 2
    before = check_books(db) if interrupted is not None else None
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    out.close()
    print(open(os.path.join(tmp, "run1.out")).read(), flush=True)
    if interrupted is None:
        fail("no rated match was claimed within 30 s")
    state = query(db, "SELECT state, attempts FROM matches WHERE id=?",
                  interrupted)[0]
    if state != ("claimed", 1):
        fail(f"match {interrupted} after the kill: {state}, not claimed once")
    if check_books(db) != before:
        fail("results changed after the kill")
    # Once the dead worker's lease has ended, the match is the oldest to
    # claim: the second run plays it first.
    time.sleep(2.5)
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--lease_s=2",
           "--matches=3")
    state = query(db, "SELECT state, attempts FROM matches WHERE id=?",
                  interrupted)[0]
    if state != ("finished", 2):
        fail(f"match {interrupted} after the restart: {state}, not finished "
             "on its second claim")
    after = check_books(db)
    if after != before + 3:
        fail(f"{after} results after the restart, expected {before} + 3")
    # SIGTERM: the match in play is finished and recorded, nothing is left
    # claimed, and the runner exits 0.
    runner = subprocess.Popen(args, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 30
    while time.time() < deadline and not query(
            db, "SELECT id FROM matches WHERE state='claimed'"):
        time.sleep(0.05)
    runner.send_signal(signal.SIGTERM)
    try:
        out, _ = runner.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        runner.kill()
        fail("the runner did not stop within 30 s of SIGTERM")
    print(out, flush=True)
    if runner.returncode != 0:
        fail(f"the runner exited {runner.returncode} after SIGTERM")
    if query(db, "SELECT id FROM matches WHERE state='claimed'"):
        fail("a claim was left after SIGTERM")
    final = check_books(db)
    if final <= after:
        fail("the match in play at SIGTERM was not recorded")
    print(f"kill9: match {interrupted} replayed; {after} results, each once; "
          "SIGTERM finished the match in play")


def referee_dies(tools, tmp):
    db = os.path.join(tmp, "l.db")
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("first", bot(tools, "first"), hash_of("f"))])
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=2")
    args = [f"{tools}/cardref_ladder", "run", f"--db={db}", "--trust_bots",
            "--matches=3"]
    print("$", " ".join(args), flush=True)
    runner = subprocess.Popen(args, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    interrupted = None
    deadline = time.time() + 30
    while time.time() < deadline and interrupted is None:
        rows = query(db, "SELECT id FROM matches WHERE state='claimed'")
        interrupted = rows[0][0] if rows else None
        time.sleep(0.05)
    if interrupted is None:
        runner.kill()
        fail("no match was claimed within 30 s")
    # The runner's referee: its child running cardref_referee.
    referee = None
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline") as f:
                cmd = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == runner.pid and "cardref_referee" in cmd:
            referee = int(pid)
    if referee is None:
        runner.kill()
        fail("the runner's referee was not found")
    os.kill(referee, signal.SIGKILL)
    try:
        out, _ = runner.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        runner.kill()
        fail("the runner did not finish after its referee died")
    print(out, flush=True)
    if runner.returncode != 0:
        fail(f"the runner exited {runner.returncode}")
    voided = query(db, "SELECT state, reason, deal_set, seed FROM matches "
                   "WHERE id=?", interrupted)[0]
    if voided[0] != "voided" or "referee-side fault" not in voided[1]:
        fail(f"match {interrupted} after its referee died: {voided}")
    if query(db, "SELECT COUNT(*) FROM results WHERE match_id=?",
             interrupted)[0][0] != 0:
        fail("the voided match has a result")
    seats = query(db, "SELECT version_id FROM match_seats WHERE match_id=? "
                  "ORDER BY seat", interrupted)
    replays = [r[0] for r in query(
        db, "SELECT id FROM matches WHERE deal_set=? AND seed=? AND id>? AND "
        "state='finished'", voided[2], voided[3], interrupted)
        if query(db, "SELECT version_id FROM match_seats WHERE match_id=? "
                 "ORDER BY seat", r[0]) == seats]
    if not replays:
        fail(f"the deal of match {interrupted} was not replayed and finished")
    if "starting it again" not in out:
        fail("the runner did not say it restarted its referee")
    check_books(db)
    print(f"referee_dies: match {interrupted} voided, its deal replayed as "
          f"match {replays[0]}, no bot scored for it")


def validation(tools, tmp):
    db = os.path.join(tmp, "l.db")
    crash = os.path.join(tmp, "crash_bot.sh")
    with open(crash, "w") as f:
        f.write("#!/bin/sh\necho 'segfault in my_strategy()' >&2\nexit 3\n")
    os.chmod(crash, 0o755)
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("first", bot(tools, "first"), hash_of("f"))])
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=6",
           "--workers=2")
    # A new entrant, and a crashing one.
    ladder(tools, "add", f"--db={db}", "--entrant=newcomer",
           f"--command={bot(tools, 'heuristic')}", f"--content_hash={hash_of('n')}")
    ladder(tools, "add", f"--db={db}", "--entrant=crasher",
           f"--command={crash}", f"--path={crash}")
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=12",
           "--workers=2")
    versions = json.loads(ladder(tools, "versions", f"--db={db}",
                                 "--format=json"))
    by_name = {v["entrant"]: v for v in versions}
    if by_name["newcomer"]["status"] != "ranked":
        fail(f"newcomer is {by_name['newcomer']['status']}, not ranked")
    crasher = by_name["crasher"]
    if crasher["status"] != "rejected" or "exit status 3" not in crasher[
            "reason"] or "segfault in my_strategy" not in crasher["reason"]:
        fail(f"crasher: {crasher}")
    standings_text = ladder(tools, "standings", f"--db={db}")
    if "rejected: crasher" not in standings_text or "exit status 3" not in \
            standings_text:
        fail("the standings do not show why crasher was rejected")
    standings = json.loads(ladder(tools, "standings", f"--db={db}",
                                  "--format=json"))
    players = [e["player"] for e in standings["games"][0]["standings"]]
    newcomer = f"newcomer-v{by_name['newcomer']['version']}"
    if newcomer not in players:
        fail(f"{newcomer} is not in the standings {players}")
    newcomer_games = [e["games"] for e in standings["games"][0]["standings"]
                      if e["player"] == newcomer][0]
    if newcomer_games < 1:
        fail("the ranked newcomer played no rated game")
    if any(p.startswith("crasher") for p in players):
        fail("a rejected version is in the standings")
    # Retire `first`: its history stays, it gets no more games.
    first = by_name["first"]["version"]
    history = query(db, "SELECT COUNT(*) FROM rating_history WHERE "
                    "version_id=?", first)[0][0]
    seated = query(db, "SELECT COUNT(*) FROM match_seats WHERE version_id=?",
                   first)[0][0]
    if history == 0:
        fail("first has no rating history to keep")
    ladder(tools, "set-status", f"--db={db}", f"--version_id={first}",
           "--status=retired", "--reason=replaced")
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=4",
           "--workers=2")
    if query(db, "SELECT COUNT(*) FROM rating_history WHERE version_id=?",
             first)[0][0] != history:
        fail("the retired version's rating history changed")
    if query(db, "SELECT COUNT(*) FROM match_seats s JOIN matches m ON "
             "m.id = s.match_id WHERE s.version_id=? AND m.state != 'voided'",
             first)[0][0] > seated:
        fail("the retired version was seated in a new match")
    exported = list(csv.DictReader(io.StringIO(
        ladder(tools, "export", f"--db={db}"))))
    if not any(r["player"] == f"first-v{first}" for r in exported):
        fail("the retired version's results are not exported")
    check_books(db)
    print("validation: ranked, rejected with its reason, retired kept")


def heuristic(tools, tmp):
    db = os.path.join(tmp, "l.db")
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("random", bot(tools, "random"), hash_of("r"))])
    ran = ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=22",
                 "--workers=2", "--refit_every=10")
    # The periodic refit is run and reported.
    refits = [line for line in ran.splitlines() if line.startswith("refit ")]
    if len(refits) < 2 or "after 10 rated results" not in refits[0] or \
            "Kendall tau" not in refits[0]:
        fail(f"the refit was not reported every 10 rated results: {refits}")
    standings = json.loads(ladder(tools, "standings", f"--db={db}",
                                  "--format=json"))
    rows = standings["games"][0]["standings"]
    for row in rows:
        for key in ("player", "rating", "mu", "sigma", "games"):
            if key not in row:
                fail(f"standings entry without {key}: {row}")
        if abs(row["rating"] - (row["mu"] - 3 * row["sigma"])) > 1e-9:
            fail(f"rating is not mu - 3 sigma: {row}")
    if not rows[0]["player"].startswith("heuristic-"):
        fail(f"heuristic is not first: {rows}")
    table = list(csv.DictReader(io.StringIO(
        ladder(tools, "standings", f"--db={db}", "--format=csv"))))
    if [r["player"] for r in table] != [r["player"] for r in rows]:
        fail("the CSV standings differ from the JSON ones")
    results = check_books(db)
    exported = json.loads(ladder(tools, "export", f"--db={db}",
                                 "--format=json"))
    if len(exported) != results or len({r["log_hash"] for r in exported}) \
            != results:
        fail(f"export lists {len(exported)} results, the store {results}")
    rated = [r for r in exported if r["kind"] == "rated"]
    out = ladder(tools, "reproduce", f"--db={db}",
                 f"--match={rated[-1]['match']}", "--trust_bots")
    if "the new log matches the old one" not in out:
        fail("the reproduced match differs")
    print(f"heuristic: first of {len(rows)} after {results} results; "
          "reproduced")


def python_bot(folder, name, body):
    """A bot in Python: the project's bots/python/cardref_bot.py with its
    choice of action replaced by `body` (a function `choose(obs, strategy,
    rng)`), on stubs made by bots/python/make_stubs.sh, all in `folder` (so
    that it is all a sandboxed bot needs to see besides the system)."""
    stubs = os.path.join(folder, "stubs")
    if not os.path.isdir(stubs):
        subprocess.run([os.path.join(SRC, "bots/python/make_stubs.sh"), stubs],
                       check=True)
    with open(os.path.join(SRC, "bots/python/cardref_bot.py")) as f:
        library = f.read()
    with open(os.path.join(folder, "cardref_bot.py"), "w") as f:
        f.write(library)
    path = os.path.join(folder, f"{name}.py")
    with open(path, "w") as f:
        f.write("#!/usr/bin/python3\nimport os, sys, time\n"
                "here = os.path.dirname(os.path.abspath(__file__))\n"
                "sys.path[:0] = [os.path.join(here, 'stubs'), here]\n"
                "import cardref_bot\n" + body +
                "cardref_bot.choose = choose\n"
                "sys.exit(cardref_bot.main())\n")
    os.chmod(path, 0o755)
    return f"/usr/bin/python3 {path}"


def rejections(tools, tmp):
    db = os.path.join(tmp, "l.db")
    bots_dir = os.path.join(tmp, "bots")
    os.mkdir(bots_dir)
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("first", bot(tools, "first"), hash_of("f"))])
    # Stops answering at its first decision: its decisions time out.
    slow = python_bot(bots_dir, "slow", "def choose(obs, strategy, rng):\n"
                      "    time.sleep(3600)\n")
    # Answers every decision with a move no game has.
    illegal = python_bot(
        bots_dir, "illegal",
        "class Move:\n    notation = 'zz-not-a-move'\n"
        "def choose(obs, strategy, rng):\n    return Move()\n")
    ladder(tools, "add", f"--db={db}", "--entrant=slow", f"--command={slow}",
           f"--content_hash={hash_of('s')}")
    ladder(tools, "add", f"--db={db}", "--entrant=illegal",
           f"--command={illegal}", f"--content_hash={hash_of('i')}")
    ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=6",
           "--workers=2")
    versions = {v["entrant"]: v for v in json.loads(
        ladder(tools, "versions", f"--db={db}", "--format=json"))}
    for name, words in (("slow", "timeout"), ("illegal", "reject")):
        v = versions[name]
        if v["status"] != "rejected" or "validation match" not in \
                v["reason"] or words not in v["reason"]:
            fail(f"{name}: {v}, not rejected for its {words}s")
    for name in ("heuristic", "first"):
        if versions[name]["status"] != "ranked":
            fail(f"{name} is {versions[name]['status']}, not ranked")
    standings_text = ladder(tools, "standings", f"--db={db}")
    for name in ("slow", "illegal"):
        # The reason may end with the bot's output, over several lines.
        shown = f"rejected: {name} version {versions[name]['version']}: " \
            f"{versions[name]['reason']}"
        if shown not in standings_text:
            fail(f"the standings do not show why {name} was rejected")
    check_books(db)
    print("rejections: the timing-out and the illegal version rejected, "
          "with their faults")


def too_few(tools, tmp):
    db = os.path.join(tmp, "l.db")
    make_ladder(tools, db, [("first", bot(tools, "first"), hash_of("f"))])
    start = time.time()
    out = ladder(tools, "run", f"--db={db}", "--trust_bots", "--matches=5",
                 check=1)
    if time.time() - start > 30:
        fail("run --matches waited instead of failing")
    if "FAILED_PRECONDITION" not in out or "craits:3 needs 3 ranked" \
            not in out or "2 ranked version(s)" not in out:
        fail("the error does not name the game and what it needs")
    # `first` was validated before the runner gave up.
    if query(db, "SELECT status FROM versions v JOIN entrants e ON "
             "e.id = v.entrant_id WHERE e.name='first'")[0][0] != "ranked":
        fail("first was not validated first")
    # Without --matches: it waits, and says so once.
    args = [f"{tools}/cardref_ladder", "run", f"--db={db}", "--trust_bots"]
    runner = subprocess.Popen(args, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    time.sleep(3)
    runner.send_signal(signal.SIGTERM)
    out, _ = runner.communicate(timeout=30)
    print(out, flush=True)
    if runner.returncode != 0:
        fail(f"the waiting runner exited {runner.returncode}")
    if out.count("waiting for entrants: craits:3 needs 3") != 1:
        fail("the waiting runner did not say once what it waits for")
    print("too_few: --matches fails at once naming the game; without it the "
          "runner waits and says so once")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def remote(tools, tmp):
    db = os.path.join(tmp, "l.db")
    make_ladder(tools, db, [("first", bot(tools, "first"), hash_of("f"))])
    added = ladder(tools, "add", f"--db={db}", "--remote=far")
    version = query(db, "SELECT v.id FROM versions v JOIN entrants e ON "
                    "e.id = v.entrant_id WHERE e.name='far'")[0][0]
    player = f"far-v{version}"
    credential_file = os.path.join(f"{db}.d", "credentials",
                                   f"{player}.credential")
    if credential_file not in added:
        fail("add --remote does not say where the credential will be")
    ladder(tools, "add", f"--db={db}", "--remote=far", check=1)
    port = free_port()
    # Its bot away: its validation match is voided, not scored against it,
    # and the version still validates.
    out = ladder(tools, "run", f"--db={db}", "--trust_bots",
                 f"--referee_port={port}", "--remote_wait_s=1", "--matches=2")
    if f"remote entrant {player}: its bot credential" not in out or \
            credential_file not in out:
        fail("the runner did not say where the credential is")
    away = query(db, "SELECT m.state, m.reason FROM matches m JOIN "
                 "match_seats s ON s.match_id = m.id WHERE s.version_id=?",
                 version)
    if not away or away[0][0] != "voided" or "not connected" not in \
            away[0][1]:
        fail(f"the remote entrant's match without its bot: {away}")
    if query(db, "SELECT status FROM versions WHERE id=?",
             version)[0][0] != "validating":
        fail("the remote version was judged without its bot")
    args = [f"{tools}/cardref_ladder", "run", f"--db={db}", "--trust_bots",
            f"--referee_port={port}", "--remote_wait_s=30"]
    print("$", " ".join(args), flush=True)
    runner = subprocess.Popen(args + ["--matches=5"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    for _ in range(300):
        if os.path.exists(credential_file):
            break
        time.sleep(0.1)
    else:
        runner.kill()
        fail("the runner wrote no credential for the remote entrant")
    if os.stat(credential_file).st_mode & 0o777 != 0o600:
        fail("the credential file is not owner-only")
    env = dict(os.environ,
               CARDREF_BOT_CREDENTIAL=open(credential_file).read().strip())
    far = subprocess.Popen(
        [f"{tools}/cardref_bot", "--strategy=heuristic", "--quiet",
         f"--server=localhost:{port}", "--matches=0", "--max_matches=2",
         "--reconnect_timeout_s=60"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        try:
            out, _ = runner.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            runner.kill()
            fail("the runner did not finish its matches")
        print(out, flush=True)
        if runner.returncode != 0:
            fail(f"the runner exited {runner.returncode}")
        if "issued before" not in out:
            fail("the runner issued the remote entrant a new credential")
        status = query(db, "SELECT status, reason FROM versions WHERE id=?",
                       version)[0]
        if status[0] != "ranked":
            fail(f"the remote version is {status}, not ranked")
        standings = json.loads(ladder(tools, "standings", f"--db={db}",
                                      "--format=json"))
        rows = {r["player"]: r for r in standings["games"][0]["standings"]}
        if player not in rows or rows[player]["games"] < 1:
            fail(f"{player} was not rated: {rows}")
        before = rows[player]["games"]
        # A second run: the referee's folder kept the credential, none is
        # issued, and the bot (reconnecting) plays on.
        out = ladder(tools, "run", f"--db={db}", "--trust_bots",
                     f"--referee_port={port}", "--remote_wait_s=60",
                     "--matches=2")
        if "issued before" not in out:
            fail("the second run issued the remote entrant a new credential")
        standings = json.loads(ladder(tools, "standings", f"--db={db}",
                                      "--format=json"))
        rows = {r["player"]: r for r in standings["games"][0]["standings"]}
        if rows[player]["games"] <= before:
            fail("the remote bot played no match in the second run")
    finally:
        far.kill()
        print(far.communicate()[0][-3000:], flush=True)
    check_books(db)
    print(f"remote: {player} connected with the issued credential, ranked "
          f"and rated ({rows[player]['games']} games); kept across runs")


def sandbox(tools, tmp):
    if os.geteuid() != 0:
        print("SKIP: the bot sandbox needs root (cgroups, a uid per bot)")
        sys.exit(77)
    # The sandbox's uids must reach the bots' folders (not the ladder's).
    os.chmod(tmp, 0o755)
    db = os.path.join(tmp, "l.db")
    hostile_dir = os.path.join(tmp, "hostile")
    os.mkdir(hostile_dir, 0o755)
    targets = [db, f"{db}.d/logs", f"{db}.d/referee/referee_ed25519.key",
               f"{db}.d/referee/organiser.token"]
    # It joins and plays; at its first decision it looks for the ladder's
    # files, then hoards memory past its limit mid-match.
    hostile = python_bot(hostile_dir, "hostile", f"""
def choose(obs, strategy, rng):
    print('uid', os.getuid(), file=sys.stderr)
    for path in {targets!r}:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                open(path, 'rb').read(16)
            print('READ', path, file=sys.stderr)
        except OSError as e:
            print('cannot read', path, e.errno, file=sys.stderr)
    sys.stderr.flush()
    hoard = b'x' * (600 << 20)
    print('survived its memory limit', len(hoard), file=sys.stderr)
    return list(obs.legal_actions)[0]
""")
    for root, dirs, files in os.walk(hostile_dir):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o755)
    make_ladder(tools, db, [
        ("heuristic", bot(tools, "heuristic"), hash_of("h")),
        ("first", bot(tools, "first"), hash_of("f"))])
    ladder(tools, "add", f"--db={db}", "--entrant=hostile",
           f"--command={hostile}")
    out = ladder(tools, "run", f"--db={db}", "--matches=6", "--workers=2",
                 "--max_bot_memory_mb=128", "--max_bot_cpu_s=60")
    if "bots run in the sandbox" not in out:
        fail("the runner did not say its bots run in the sandbox")
    versions = {v["entrant"]: v for v in json.loads(
        ladder(tools, "versions", f"--db={db}", "--format=json"))}
    v = versions["hostile"]
    if v["status"] != "rejected" or "memory limit" not in v["reason"]:
        fail(f"hostile: {v}, not rejected at its memory limit")
    # Ended mid-match at its limit, the bot was reported to the referee,
    # which settled its seat: the match finished and was recorded.
    state = query(db, "SELECT m.state FROM matches m JOIN match_seats s ON "
                  "s.match_id = m.id WHERE s.version_id = ? AND "
                  "m.kind = 'validation'", v["version"])
    if state != [("finished",)]:
        fail(f"the hostile bot's validation match: {state}, not finished")
    for name in ("heuristic", "first"):
        if versions[name]["status"] != "ranked":
            fail(f"{name} is {versions[name]['status']}, not ranked")
    # What the hostile bot saw: none of the ladder's files, as a uid of
    # the sandbox's range.
    seen = ""
    bots_dir = f"{db}.d/bots"
    for name in os.listdir(bots_dir):
        text = open(os.path.join(bots_dir, name), errors="replace").read()
        if "cannot read" in text or "READ " in text:
            seen += text
    print(seen, flush=True)
    if "READ " in seen or "survived" in seen:
        fail("the hostile bot read the ladder's files or kept its hoard")
    if seen.count("cannot read") < len(targets):
        fail("the hostile bot's attempts are not in its output")
    uid = int(seen.split("uid ", 1)[1].split()[0])
    if not 1900100000 <= uid <= 1900100999:
        fail(f"the hostile bot ran as uid {uid}, not one of the sandbox's")
    rated = query(db, "SELECT COUNT(*) FROM results r JOIN matches m ON "
                  "m.id = r.match_id WHERE m.kind='rated'")[0][0]
    if rated < 1:
        fail("no rated match was played in the sandbox")
    check_books(db)
    print(f"sandbox: {rated} rated match(es) in the sandbox; the hostile bot "
          "read nothing and was rejected at its memory limit")


def main():
    mode, tools = sys.argv[1], sys.argv[2]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        {"kill9": kill9, "referee_dies": referee_dies,
         "validation": validation, "heuristic": heuristic,
         "rejections": rejections, "too_few": too_few, "remote": remote,
         "sandbox": sandbox}[mode](tools, tmp)
    print(f"{mode}: {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
