#!/usr/bin/python3
"""The example bots finish their matches over a network that keeps failing.

Usage: flaky_network_test.py REFEREE CARDREF_BOT PYTHON_BOT CARDREF_LOG
CARDREF_TOURNAMENT [REFEREE_FLAG...] (PYTHONPATH must hold the generated
stubs).

Starts the referee, and between it and the bots a TCP proxy that cuts every
connection it carries (both ways at once) at a random moment 0.15 to 0.6 s
after it opened. One match per game, played at the same time, its seats
shared between cardref_bot and the Python bot, all through a proxy of the
game's own. Every bot must exit 0, every match must finish, and the logs
must show that the bots answered every decision themselves (no fault, no
action by the referee) while the proxy cut connections in the middle of
play, on a referee that treats a seat without a stream as timed out
(--disconnect_is_timeout, after its default grace of
--disconnect_grace_ms). That takes what docs/bots.md asks of a bot:
deadlines, reopening a broken stream from the last version seen (a
PlaySeat stream for cardref_bot, WatchObservations for the Python bot), and
resending an answer unchanged when its connection failed. Then a short
cardref_tournament event through a proxy: every match finishes, and the
referee holds no match the event does not know.
"""
import json
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

from referee_test_util import short_match, start_referee


class CuttingProxy:
    """Forwards 127.0.0.1:port to `target`, cutting each connection after a
    random lifetime. Counts the connections it cut after bytes went both
    ways (those cut in the middle of calls)."""

    def __init__(self, target_port, seed):
        self.target_port = target_port
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.cut_in_use = 0
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.stopping = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.stopping:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                lifetime = self.rng.uniform(0.15, 0.6)
            try:
                server = socket.create_connection(
                    ("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            traffic = {"up": False, "down": False}
            pair = (client, server)
            threading.Thread(target=self._pump,
                             args=(client, server, traffic, "up"),
                             daemon=True).start()
            threading.Thread(target=self._pump,
                             args=(server, client, traffic, "down"),
                             daemon=True).start()
            timer = threading.Timer(lifetime, self._cut, args=(pair, traffic))
            timer.daemon = True
            timer.start()

    @staticmethod
    def _pump(source, sink, traffic, direction):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                traffic[direction] = True
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _cut(self, pair, traffic):
        if traffic["up"] and traffic["down"]:
            with self.lock:
                self.cut_in_use += 1
        for s in pair:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def stop(self):
        self.stopping = True
        self.listener.close()


def check_log(log_tool, path):
    """Fails if the referee played or faulted any seat in the log."""
    out = subprocess.run([log_tool, "json", path], check=True,
                         capture_output=True, text=True).stdout
    records = [json.loads(line) for line in out.splitlines() if line]
    faults = [r for r in records if "fault" in r]
    by_referee = [r for r in records
                  if r.get("action", {}).get("byReferee")]
    assert not faults, f"{path}: faults {faults[:2]}"
    assert not by_referee, f"{path}: referee actions {by_referee[:2]}"
    return len(records)


def listed_match_ids(referee_port):
    with grpc.insecure_channel(f"localhost:{referee_port}") as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        return [m.match_id for m in stub.ListMatches(
            referee_pb2.ListMatchesRequest(page_size=1000)).matches]


def tournament_through(proxy_port, referee_port, tournament_bin, cc_bot, tmp):
    """An event of cardref_tournament whose calls and bots all go through
    the proxy: every match must finish, and the referee must hold exactly
    the event's matches (a CreateMatch whose answer the proxy cut is resent
    with its retry_key, which makes no second match)."""
    out = f"{tmp}/event"
    before = set(listed_match_ids(referee_port))
    bots = [f"random={cc_bot} --quiet --strategy=random",
            f"heuristic={cc_bot} --quiet --strategy=heuristic"]
    run = subprocess.run(
        [tournament_bin, f"--out={out}", "--trust_bots",
         "--params=game_length=SHORT", "--games=craits:2", "--matches=1",
         "--concurrency=2", f"--server=127.0.0.1:{proxy_port}"]
        + [f"--bot={b}" for b in bots],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        timeout=240)
    assert run.returncode == 0, run.stdout[-3000:]
    records = {}  # key: the last line (a match is "started", then ended)
    for line in open(f"{out}/matches.tsv"):
        if line.strip():
            fields = line.rstrip("\n").split("\t")
            records[fields[0]] = fields
    outcomes = [r[1] for r in records.values()]
    assert len(outcomes) == 2 and all(o == "finished" for o in outcomes), \
        outcomes
    made = set(listed_match_ids(referee_port)) - before
    event_ids = {r[2] for r in records.values()}
    assert made == event_ids, \
        f"matches the event does not know: {sorted(made - event_ids)}"
    print(f"tournament: {len(outcomes)} matches finished through the proxy, "
          f"no match made twice")


def main():
    referee_bin, cc_bot, py_bot, log_tool, tournament_bin = sys.argv[1:6]
    extra_flags = sys.argv[6:]  # e.g. --disconnect_grace_ms=0, which fails
    with tempfile.TemporaryDirectory() as tmp:
        # Disconnects are timeouts here, after the default grace: a bot
        # that is slow to reopen a broken stream loses its decision.
        referee, port = start_referee(referee_bin, tmp,
                                      "--disconnect_is_timeout", *extra_flags)
        proxies = []
        try:
            reconnects = 0
            resends = 0
            with grpc.insecure_channel(f"localhost:{port}") as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)
                # The games are played at the same time, each through a
                # proxy of its own (which counts that game's cuts).
                games = []
                for info in stub.ListGames(referee_pb2.ListGamesRequest()).games:
                    created = stub.CreateMatch(short_match(
                        info.id, dealing_seed=7,
                        decision_time_limit_millis=10000))
                    proxy = CuttingProxy(port, seed=12 + len(proxies))
                    proxies.append(proxy)
                    via_proxy = f"127.0.0.1:{proxy.port}"
                    bots = []
                    for s in range(created.num_seats):
                        common = [f"--server={via_proxy}",
                                  f"--match_id={created.match_id}",
                                  f"--seat={s}", f"--seed={s + 1}"]
                        command = ([cc_bot] + common if s % 2 == 0
                                   else [sys.executable, py_bot] + common)
                        bots.append(subprocess.Popen(
                            command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True))
                    games.append((info, created, proxy, bots))
                for info, created, proxy, bots in games:
                    results = [(b.wait(timeout=300),) + b.communicate()
                               for b in bots]
                    for s, (code, out, err) in enumerate(results):
                        assert code == 0, (info.id, s, code, err[-2000:])
                        reconnects += err.count("reopening from version")
                        # The Python bot's last line: "... N resends;
                        # scores ..." (cardref_bot plays on one PlaySeat
                        # stream: a lost action is asked for again when it
                        # reopens, so it counts reconnects only).
                        sent_again = re.search(r"(\d+) resends", out)
                        if s % 2 == 1:
                            assert sent_again, (info.id, s, out[-500:])
                        resends += int(sent_again[1]) if sent_again else 0
                    match = stub.GetMatch(
                        referee_pb2.GetMatchRequest(match_id=created.match_id))
                    assert match.status == game_pb2.MATCH_STATUS_FINISHED, match
                    assert not match.forfeited_seats, match
                    policy = match.fault_policy
                    assert policy.disconnect_is_timeout, policy
                    assert policy.disconnect_grace_millis == 2000, policy
                    records = check_log(log_tool, match.log_path)
                    cuts = proxy.cut_in_use
                    print(f"{info.id}: finished ({records} records) through "
                          f"{cuts} cut connections")
                    assert cuts >= 3, f"{info.id}: only {cuts} cuts in play"
            assert reconnects > 0, "no bot had to reopen its stream"
            print(f"every match finished; the bots reopened their streams "
                  f"{reconnects} times, resent {resends} answers, and no "
                  f"decision was lost")
            tournament_through(proxies[0].port, port, tournament_bin, cc_bot,
                               tmp)
        finally:
            for proxy in proxies:
                proxy.stop()
            referee.terminate()
            referee.wait(timeout=10)


if __name__ == "__main__":
    main()
