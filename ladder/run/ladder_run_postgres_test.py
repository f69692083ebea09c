#!/usr/bin/python3
"""`cardref_ladder run` on PostgreSQL with several runner processes (the
workers of docs/scale.md, here on one machine), real processes.

    ladder_run_postgres_test.py BUILD_TOOLS_DIR

A PostgreSQL 15 server starts in a temp folder (as nobody when run as
root). A ladder is made in it with `cardref_ladder init --db=URL`; two
runners start at once on it, sharing one --dir: the reference bot is added
once, each new version validated once. Once rated matches are being
played, one runner is killed with SIGKILL while it holds a claim; the
other takes the match over after the lease and goes on; then it is stopped
with SIGTERM, which leaves no claim behind. Then: every finished match has
one result, no round is scheduled twice (the runners take turns through
the store), the killed runner's match is finished by the other, and the
ratings count every rated seat once. Exit 77 (skipped) without the server
binaries.
"""
import hashlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PG_BIN = "/usr/lib/postgresql/15/bin"


def fail(message):
    print("FAIL:", message, flush=True)
    sys.exit(1)


class Server:
    """initdb and postgres on a Unix socket in `folder` (no TCP)."""

    def __init__(self, folder):
        self.folder = folder
        self.data = os.path.join(folder, "data")
        user = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(folder, nobody.pw_uid, nobody.pw_gid)
            user = ["runuser", "-u", "nobody", "--"]
        log = open(os.path.join(folder, "server.log"), "w")
        subprocess.run(user + [f"{PG_BIN}/initdb", "-D", self.data, "-U",
                               "cardref", "--auth=trust", "--no-sync"],
                       stdout=log, stderr=subprocess.STDOUT, check=True)
        self.process = subprocess.Popen(
            user + [f"{PG_BIN}/postgres", "-D", self.data, "-k", folder,
                    "-c", "listen_addresses=", "-c", "fsync=off"],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 60
        while subprocess.run([f"{PG_BIN}/pg_isready", "-q", "-h", folder]
                             ).returncode != 0:
            if time.time() > deadline or self.process.poll() is not None:
                fail("the PostgreSQL server did not start")
            time.sleep(0.2)
        self.sql("postgres", "CREATE DATABASE ladder")
        self.url = f"postgresql:///ladder?host={folder}&user=cardref"

    def sql(self, database, statement):
        result = subprocess.run(
            [f"{PG_BIN}/psql", "-h", self.folder, "-U", "cardref", "-d",
             database, "-tAc", statement],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            fail(f"psql: {statement}: {result.stderr}")
        return [line.split("|") for line in result.stdout.splitlines()
                if line]

    def query(self, statement):
        return self.sql("ladder", statement)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def ladder(tools, *args):
    argv = [f"{tools}/cardref_ladder"] + list(args)
    print("$", " ".join(argv), flush=True)
    result = subprocess.run(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    print(result.stdout[-3000:], flush=True)
    if result.returncode != 0:
        fail(f"cardref_ladder {args[0]} exited {result.returncode}")


def wait_for(what, predicate, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    fail(f"{what} within {seconds} s")


def run(tools, tmp, server):
    url = server.url
    ladder(tools, "init", f"--db={url}", "--name=spread", "--games=craits:3",
           "--params=game_length=SHORT,rounds=4",
           "--decision_time_limit_ms=2000", "--match_budget_ms=60000")
    for strategy in ("heuristic", "random", "first"):
        ladder(tools, "add", f"--db={url}", f"--entrant={strategy}",
               f"--command={tools}/cardref_bot --strategy={strategy} --quiet",
               "--content_hash=" + hashlib.sha256(strategy.encode()).hexdigest())
    folder = os.path.join(tmp, "ladder")
    args = [f"{tools}/cardref_ladder", "run", f"--db={url}", f"--dir={folder}",
            "--trust_bots", "--lease_s=2", "--workers=1"]
    runners, outputs = [], []
    for n in range(2):
        outputs.append(open(os.path.join(tmp, f"runner{n}.out"), "w"))
        runners.append(subprocess.Popen(args, stdout=outputs[n],
                                        stderr=subprocess.STDOUT))
    try:
        doomed = runners[0]
        # A rated match in play by the runner about to be killed (its
        # claims are named <host>:<pid>:<worker>).
        owner_prefix = f":{doomed.pid}:"
        held = wait_for(
            "no rated match claimed by the first runner",
            lambda: [r for r in server.query(
                "SELECT id, claim_owner FROM matches WHERE state = 'claimed' "
                "AND kind = 'rated'") if owner_prefix in r[1]],
            60)
        interrupted = int(held[0][0])
        doomed.send_signal(signal.SIGKILL)
        doomed.wait()
        # The other runner takes it over once the lease ends, and goes on.
        wait_for(f"match {interrupted} was not finished by the other runner",
                 lambda: server.query(
                     f"SELECT worker FROM results WHERE match_id = "
                     f"{interrupted}"), 60)
        wait_for("fewer than 12 rated results",
                 lambda: int(server.query(
                     "SELECT COUNT(*) FROM results r JOIN matches m ON m.id "
                     "= r.match_id WHERE m.kind = 'rated'")[0][0]) >= 12, 90)
        runners[1].send_signal(signal.SIGTERM)
        if runners[1].wait(timeout=90) != 0:
            fail(f"the second runner exited {runners[1].returncode} on SIGTERM")
    finally:
        for r in runners:
            if r.poll() is None:
                r.kill()
                r.wait()
        for o in outputs:
            o.close()
    for n in range(2):
        with open(os.path.join(tmp, f"runner{n}.out")) as f:
            print(f"--- runner {n}\n" + f.read()[-3000:], flush=True)

    worker = server.query(
        f"SELECT worker FROM results WHERE match_id = {interrupted}")[0][0]
    if f":{doomed.pid}:" in worker:
        fail(f"match {interrupted} counts the killed runner's result")
    if int(server.query(f"SELECT attempts FROM matches WHERE id = "
                        f"{interrupted}")[0][0]) < 2:
        fail(f"match {interrupted} was not claimed again")
    claimed = server.query("SELECT id FROM matches WHERE state = 'claimed'")
    if claimed:
        fail(f"claims left after SIGTERM: {claimed}")
    finished = int(server.query(
        "SELECT COUNT(*) FROM matches WHERE state = 'finished'")[0][0])
    results = server.query("SELECT COUNT(*), COUNT(DISTINCT match_id) FROM "
                           "results")[0]
    if int(results[0]) != finished or results[0] != results[1]:
        fail(f"{results[0]} results for {finished} finished matches")
    twice = server.query(
        "SELECT game_id, round FROM matches WHERE kind = 'rated' GROUP BY "
        "game_id, round HAVING COUNT(*) > 1 OR COUNT(DISTINCT deal_set) > 1")
    if twice:
        fail(f"rounds scheduled twice: {twice}")
    references = server.query(
        "SELECT COUNT(*) FROM entrants WHERE name = 'reference'")[0][0]
    validations = server.query(
        "SELECT COUNT(*), COUNT(DISTINCT s.version_id) FROM matches m JOIN "
        "match_seats s ON s.match_id = m.id AND s.version_id <> (SELECT v.id "
        "FROM versions v JOIN entrants e ON e.id = v.entrant_id WHERE e.name "
        "= 'reference') WHERE m.kind = 'validation'")[0]
    if references != "1" or validations[0] != "3" or validations[1] != "3":
        fail(f"{references} reference entrants, {validations[0]} validation "
             f"matches for {validations[1]} versions (1, 3, 3 expected)")
    rated_seats = int(server.query(
        "SELECT COUNT(*) FROM result_seats s JOIN results r ON r.log_hash = "
        "s.log_hash JOIN matches m ON m.id = r.match_id WHERE m.kind = "
        "'rated'")[0][0])
    games = int(server.query("SELECT COALESCE(SUM(games), 0) FROM ratings")
                [0][0])
    if games != rated_seats:
        fail(f"ratings count {games} games for {rated_seats} rated seats")
    referees = os.listdir(os.path.join(folder, "referees"))
    if len(referees) != 2:
        fail(f"the runners' referees: {referees}, not one folder each")
    logs = set(os.listdir(os.path.join(folder, "logs")))
    missing = [h for (h,) in server.query("SELECT log_hash FROM results")
               if f"{h}.cardlog" not in logs]
    if missing:
        fail(f"results without their log in the shared folder: {missing}")
    ladder(tools, "standings", f"--db={url}")
    print(f"OK: {finished} results, match {interrupted} taken over after "
          "the kill", flush=True)


def main():
    tools = os.path.abspath(sys.argv[1])
    if not os.access(f"{PG_BIN}/postgres", os.X_OK):
        print(f"SKIP: no PostgreSQL server in {PG_BIN}")
        sys.exit(77)
    tmp = tempfile.mkdtemp(prefix="cardref-pgrun-")
    os.chmod(tmp, 0o755)
    server = None
    try:
        pg = os.path.join(tmp, "pg")
        os.mkdir(pg)
        server = Server(pg)
        run(tools, tmp, server)
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
