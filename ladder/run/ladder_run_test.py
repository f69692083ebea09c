#!/usr/bin/python3
"""End-to-end tests of `cardref_ladder run` (docs/ladder.md), real processes.

    ladder_run_test.py MODE BUILD_TOOLS_DIR

MODE is one of:
  kill9       a runner killed with SIGKILL while a rated match is in play,
              then started again: the interrupted match is played again
              (claimed twice, one result), no result is lost or counted
              twice, and the ratings count every rated result once.
  validation  a new version plays its validation match and is ranked; a
              version that crashes is rejected with the reason shown by
              `versions` and `standings`; a retired version keeps its
              results and rating history and plays no more.
  heuristic   about 20 rated matches of the heuristic bot against two
              random ones: the standings put heuristic first; the batch
              refit is reported every 10 rated results; the JSON and
              CSV standings agree; a match is reproduced move for move;
              `export` lists every recorded result once.
"""
import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

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
    # Wait for a rated match in play, with its bots joined.
    interrupted = None
    deadline = time.time() + 30
    while time.time() < deadline and interrupted is None:
        rows = query(db, "SELECT id FROM matches WHERE state='claimed' AND "
                     "kind='rated'")
        if rows:
            interrupted = rows[0][0]
        else:
            time.sleep(0.05)
    if interrupted is None:
        runner.kill()
        fail("no rated match was claimed within 30 s")
    time.sleep(0.4)
    before = check_books(db)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    out.close()
    print(open(os.path.join(tmp, "run1.out")).read(), flush=True)
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
    # A retry of a recorded log changes nothing: the store keys by hash.
    print(f"kill9: match {interrupted} replayed; {after} results, each once")


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


def main():
    mode, tools = sys.argv[1], sys.argv[2]
    started = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        {"kill9": kill9, "validation": validation,
         "heuristic": heuristic}[mode](tools, tmp)
    print(f"{mode}: {time.time() - started:.1f} s")


if __name__ == "__main__":
    main()
