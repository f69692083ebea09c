#!/usr/bin/python3
"""Crash test: SIGKILL the referee at 20 random moments and restart it.

Usage: crash_test.py REFEREE_BINARY ANALYZE_BINARY [--kills=20] [--seed=S]
(PYTHONPATH must hold the generated stubs). Client threads create and play
matches (random legal actions over gRPC) while the referee is killed with
SIGKILL at random moments and restarted on the same log directory and port
each time (docs/recovery.md). Afterwards, with the referee up again:
  - every match a client saw finish is FINISHED in GetMatch (a reported
    result was on disk);
  - every log in the directory is FINISHED or ABORTED (closed out by the
    recovery scan, cause REFEREE_RESTARTED, served from the log);
  - every interrupted match was reported once, at the restart after its kill;
  - cardref_analyze audits every finished log OK and every interrupted one
    ABORTED (its prefix replays), none TAMPERED, CORRUPT or MISMATCH.
"""
import argparse
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

FINISHED = game_pb2.MATCH_STATUS_FINISHED
ABORTED = game_pb2.MATCH_STATUS_ABORTED
IN_PROGRESS = game_pb2.MATCH_STATUS_IN_PROGRESS

GAMES = [
    ("craits", {"num_players": 2, "game_length": "SHORT"}),
    ("krass_kariert", {"num_players": 3, "hand_size": 3}),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Referee:
    def __init__(self, binary, tmp, port):
        self.binary, self.tmp, self.port = binary, tmp, port
        self.starts = 0
        self.proc = None
        self.outputs = []

    def start(self):
        self.starts += 1
        out = os.path.join(self.tmp, f"referee{self.starts}.out")
        port_file = os.path.join(self.tmp, f"port{self.starts}")
        self.outputs.append(out)
        self.proc = subprocess.Popen(
            [self.binary, "--host=127.0.0.1", f"--port={self.port}",
             f"--port_file={port_file}", f"--log_dir={self.tmp}/logs",
             f"--signing_key_file={self.tmp}/referee.key",
             "--decision_time_limit_ms=0", "--evict_after_ms=1000"],
            stdout=open(out, "w"), stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if self.proc.poll() is not None or time.time() > deadline:
                raise AssertionError(f"referee did not start: {open(out).read()}")
            time.sleep(0.02)

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def recovered_lines(self, start):
        text = open(self.outputs[start - 1]).read()
        return [l for l in text.splitlines() if "cardref_referee: recovered" in l]


def set_params(request, params):
    for name, value in params.items():
        v = request.params.values[name]
        if isinstance(value, int):
            v.int_value = value
        else:
            v.enum_value = value


class Client(threading.Thread):
    """Plays whole matches, one at a time, every seat itself."""

    def __init__(self, address, seed, stop, reported_finished, lock):
        super().__init__(daemon=True)
        self.address, self.rng, self.stop = address, random.Random(seed), stop
        self.reported_finished, self.lock = reported_finished, lock
        self.matches = 0

    def run(self):
        channel = grpc.insecure_channel(self.address)
        stub = referee_pb2_grpc.RefereeStub(channel)
        while not self.stop.is_set():
            try:
                self.play_one(stub)
            except grpc.RpcError:
                time.sleep(0.05)  # the referee is down: next match later

    def play_one(self, stub):
        game, params = self.rng.choice(GAMES)
        request = referee_pb2.CreateMatchRequest(game=game, open=True)
        set_params(request, params)
        created = stub.CreateMatch(request, timeout=10)
        self.matches += 1
        tokens = []
        for seat in range(created.num_seats):
            joined = stub.JoinMatch(referee_pb2.JoinMatchRequest(
                match_id=created.match_id, seat=seat, player_name=f"p{seat}"),
                timeout=10)
            tokens.append(joined.token)
        obs = stub.GetObservation(referee_pb2.SeatRequest(
            match_id=created.match_id, seat=0, token=tokens[0]), timeout=10)
        while obs.status == IN_PROGRESS and not self.stop.is_set():
            seat = obs.seat_to_act
            if obs.seat != seat:
                obs = stub.GetObservation(referee_pb2.SeatRequest(
                    match_id=created.match_id, seat=seat, token=tokens[seat]),
                    timeout=10)
                continue
            action = self.rng.choice(list(obs.legal_actions))
            obs = stub.SubmitAction(referee_pb2.SubmitActionRequest(
                match_id=created.match_id, seat=seat, token=tokens[seat],
                action=action, decision_version=obs.version), timeout=10
            ).observation
        if obs.status == FINISHED:
            with self.lock:
                self.reported_finished.add(created.match_id)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("referee")
    parser.add_argument("analyze")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--clients", type=int, default=3)
    args = parser.parse_args()
    print(f"crash test: seed {args.seed}, {args.kills} kills")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        referee = Referee(args.referee, tmp, free_port())
        address = f"127.0.0.1:{referee.port}"
        stop = threading.Event()
        reported_finished, lock = set(), threading.Lock()
        referee.start()
        clients = [Client(address, args.seed * 100 + i, stop,
                          reported_finished, lock)
                   for i in range(args.clients)]
        for c in clients:
            c.start()
        for kill in range(args.kills):
            time.sleep(rng.uniform(0.2, 1.5))
            referee.kill()
            if kill == args.kills - 1:
                stop.set()
                for c in clients:
                    c.join(timeout=30)
            referee.start()
        with lock:
            finished = set(reported_finished)
        played = sum(c.matches for c in clients)
        channel = grpc.insecure_channel(address)
        stub = referee_pb2_grpc.RefereeStub(channel)
        reported = {}
        for start in range(2, referee.starts + 1):
            for line in referee.recovered_lines(start):
                m = re.search(r"recovered (\S+): (.*)", line)
                assert m, line
                assert m.group(1) not in reported, f"reported twice: {line}"
                reported[m.group(1)] = m.group(2)
        logs = sorted(n[:-len(".cardlog")] for n in os.listdir(f"{tmp}/logs")
                      if n.endswith(".cardlog"))
        statuses = {}
        for mid in logs:
            info = stub.GetMatch(referee_pb2.GetMatchRequest(match_id=mid),
                                 timeout=10)
            statuses[mid] = info.status
            assert info.status in (FINISHED, ABORTED), (mid, info)
            if info.status == ABORTED:
                assert info.from_log, (mid, "an interrupted match from its log")
                assert mid in reported, (mid, "aborted but never reported")
                assert "interrupted after" in reported[mid], reported[mid]
        for mid in finished:
            assert statuses.get(mid) == FINISHED, (
                mid, "its result was reported, but after the restart it is",
                statuses.get(mid))
        for mid, what in reported.items():
            if "interrupted after" in what:
                assert statuses.get(mid) == ABORTED, (mid, what)
            else:
                assert "removed" in what or "complete" in what, (mid, what)
        audit = subprocess.run(
            [args.analyze, "audit", "--quiet", f"{tmp}/logs"],
            capture_output=True, text=True, timeout=300)
        verdicts = {}
        for line in audit.stdout.splitlines():
            m = re.match(r"(\w+) \S*/(\S+?)\.cardlog", line)
            if m:
                verdicts[m.group(2)] = (m.group(1), line)
        for mid in logs:
            verdict, line = verdicts.get(mid, ("MISSING", mid))
            want = "OK" if statuses[mid] == FINISHED else "ABORTED"
            assert verdict == want, (f"audit of {mid}: want {want}, got", line)
        n_finished = sum(1 for s in statuses.values() if s == FINISHED)
        n_aborted = len(logs) - n_finished
        print(f"crash test: {args.kills} kills, {played} matches started, "
              f"{len(logs)} logs: {n_finished} finished (audit OK, "
              f"{len(finished)} seen finished by clients), {n_aborted} "
              f"interrupted (ABORTED, prefix audits), "
              f"{sum(1 for w in reported.values() if 'removed' in w)} "
              f"never-started logs removed")
        assert n_finished > 0 and n_aborted > 0, "the kills missed every game"
        referee.proc.terminate()
        referee.proc.wait(timeout=30)


if __name__ == "__main__":
    main()
