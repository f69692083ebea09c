#!/usr/bin/python3
"""Python bots play full matches of every game against the C++ referee.

Usage: python_bot_test.py REFEREE_BINARY BOT_SCRIPT (PYTHONPATH must hold
the generated stubs). Starts the referee on a free port, creates one match
per game, runs one bot process per seat and checks every match finished
and every bot exited 0.
"""
import subprocess
import sys
import tempfile

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

from referee_test_util import short_match, start_referee


def main():
    referee_bin, bot_script = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        referee, port = start_referee(referee_bin, tmp)
        try:
            server = f"localhost:{port}"
            with grpc.insecure_channel(server) as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)
                games = stub.ListGames(referee_pb2.ListGamesRequest()).games
                assert len(games) == 3, games
                for info in games:
                    created = stub.CreateMatch(
                        short_match(info.id, dealing_seed=5))
                    bots = [subprocess.Popen(
                        [sys.executable, bot_script, f"--server={server}",
                         f"--match_id={created.match_id}", f"--seat={s}",
                         f"--seed={s}"]) for s in range(created.num_seats)]
                    codes = [b.wait(timeout=300) for b in bots]
                    assert codes == [0] * len(bots), (info.id, codes)
                    match = stub.GetMatch(
                        referee_pb2.GetMatchRequest(match_id=created.match_id))
                    assert match.status == game_pb2.MATCH_STATUS_FINISHED
                    print(f"{info.id}: finished, scores {list(match.result.scores)}")
                # A bad token is refused with the documented code.
                try:
                    stub.GetObservation(referee_pb2.SeatRequest(
                        match_id=created.match_id, seat=0, token="nope"))
                    raise AssertionError("a wrong token was accepted")
                except grpc.RpcError as e:
                    assert e.code() == grpc.StatusCode.PERMISSION_DENIED, e
        finally:
            referee.terminate()
            referee.wait(timeout=10)
    print("python bots: every game finished")


if __name__ == "__main__":
    main()
