"""What the web front's tests share: a referee with its web front on free
ports, a driver that plays a match one decision at a time over gRPC, and a
plain reader of server-sent events.

PYTHONPATH must hold the generated stubs (build/python) and tests/ (for
referee_test_util).
"""
import http.client
import json
import os
import random
import subprocess
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

from referee_test_util import short_match

OVER = (game_pb2.MATCH_STATUS_FINISHED, game_pb2.MATCH_STATUS_ABORTED)


def wait_for_file(path, proc, what):
    for _ in range(200):
        if os.path.exists(path) and open(path).read().strip():
            return int(open(path).read().strip())
        if proc.poll() is not None:
            raise AssertionError(f"the referee exited ({proc.returncode}) "
                                 f"before writing its {what}")
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the referee did not write its {what}")


class Referee:
    """cardref_referee with --http_port=0, logging to tmp/logs."""

    def __init__(self, referee_bin, tmp, *flags):
        self.tmp = tmp
        port_file = os.path.join(tmp, "port")
        http_file = os.path.join(tmp, "http_port")
        for f in (port_file, http_file):
            if os.path.exists(f):
                os.remove(f)
        self.log_dir = os.path.join(tmp, "logs")
        self.proc = subprocess.Popen(
            [referee_bin, "--port=0", f"--port_file={port_file}",
             f"--log_dir={self.log_dir}", "--http_port=0",
             f"--http_port_file={http_file}", *flags],
            stdout=subprocess.DEVNULL)
        self.port = wait_for_file(port_file, self.proc, "port")
        self.http_port = wait_for_file(http_file, self.proc, "web port")
        self.channel = grpc.insecure_channel(f"localhost:{self.port}")
        self.stub = referee_pb2_grpc.RefereeStub(self.channel)

    def url(self, path):
        return f"http://127.0.0.1:{self.http_port}{path}"

    def get(self, path, headers=None):
        """(status, headers, body) of a GET."""
        conn = http.client.HTTPConnection("127.0.0.1", self.http_port,
                                          timeout=30)
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        body = resp.read()
        conn.close()
        return resp.status, dict(resp.getheaders()), body

    def get_json(self, path):
        status, _, body = self.get(path)
        assert status == 200, (path, status, body)
        return json.loads(body)

    def stop(self):
        self.channel.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Driver:
    """Plays every seat of one match, one decision per step(), choosing
    among the legal actions with a seeded RNG."""

    def __init__(self, stub, game, names, seed=1, **fields):
        self.stub = stub
        created = stub.CreateMatch(short_match(game, open=True, **fields))
        self.match_id = created.match_id
        self.num_seats = created.num_seats
        self.rng = random.Random(seed)
        self.names = names
        self.tokens = []
        self.decisions = 0

    def join(self):
        for seat in range(self.num_seats):
            joined = self.stub.JoinMatch(referee_pb2.JoinMatchRequest(
                match_id=self.match_id, seat=seat,
                player_name=self.names[seat % len(self.names)],
                player_version="v1"))
            self.tokens.append(joined.token)

    def observe(self, seat):
        return self.stub.GetObservation(referee_pb2.SeatRequest(
            match_id=self.match_id, seat=seat, token=self.tokens[seat]))

    def over(self):
        return self.observe(0).status in OVER

    def step(self):
        """One decision; False once the match is over."""
        obs = self.observe(0)
        if obs.status in OVER:
            return False
        seat = obs.seat_to_act
        if seat != 0:
            obs = self.observe(seat)
        action = obs.legal_actions[self.rng.randrange(len(obs.legal_actions))]
        self.stub.SubmitAction(referee_pb2.SubmitActionRequest(
            match_id=self.match_id, seat=seat, token=self.tokens[seat],
            action=action, decision_version=obs.version))
        self.decisions += 1
        return True

    def play_out(self):
        while self.step():
            pass


class EventReader:
    """One server-sent event stream, read with http.client."""

    def __init__(self, http_port, path, headers=None, timeout=30):
        self.conn = http.client.HTTPConnection("127.0.0.1", http_port,
                                               timeout=timeout)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        self.status = self.resp.status
        self.headers = dict(self.resp.getheaders())

    def events(self):
        """Yields (id or None, event name, data as parsed JSON) until the
        server closes the stream."""
        fields = {}
        while True:
            line = self.resp.readline()
            if not line:
                return
            line = line.decode("utf-8").rstrip("\n")
            if line == "":
                if "event" in fields or "data" in fields:
                    yield (int(fields["id"]) if "id" in fields else None,
                           fields.get("event", "message"),
                           json.loads(fields.get("data", "null")))
                fields = {}
                continue
            if line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def close(self):
        self.conn.close()


def read_all(http_port, path, headers=None):
    """Every event of a stream that ends (a match over)."""
    reader = EventReader(http_port, path, headers)
    assert reader.status == 200, (path, reader.status)
    out = list(reader.events())
    reader.close()
    return out
