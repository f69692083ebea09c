#!/usr/bin/python3
"""A complete cardref bot in Python: the referee's API is plain gRPC.

    PYTHONPATH=build/python /usr/bin/python3 tools/python/random_bot.py \
        --server=localhost:50051 --game=craits

It joins a match (--match_id, or any open match of --game), streams its
observations and answers each decision with a random legal action, sent by
its notation alone. The stubs come from proto/ (CMake generates them into
build/python with protoc and grpc_python_plugin).
"""
import argparse
import random
import sys
import time

import grpc

from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc
from cardref.v1 import game_pb2


def join(stub, args):
    request = referee_pb2.JoinMatchRequest(
        match_id=args.match_id, game=args.game, player_name=args.name,
        player_version="python random_bot 1")
    if args.seat >= 0:
        request.seat = args.seat
    deadline = time.time() + args.join_timeout_s
    while True:
        try:
            return stub.JoinMatch(request)
        except grpc.RpcError as e:
            # No open match yet: the organiser may not have created it.
            if (e.code() != grpc.StatusCode.NOT_FOUND or args.match_id
                    or time.time() > deadline):
                raise
            time.sleep(0.1)


def play(stub, joined, rng):
    """Plays to the end; returns the last observation."""
    seat = referee_pb2.SeatRequest(match_id=joined.match_id, seat=joined.seat,
                                   token=joined.token)
    last = None
    for obs in stub.WatchObservations(seat):
        last = obs
        if obs.seat_to_act != joined.seat or not obs.legal_actions:
            continue
        choice = rng.choice(obs.legal_actions)
        action = game_pb2.Action(notation=choice.notation)
        try:
            stub.SubmitAction(referee_pb2.SubmitActionRequest(
                match_id=joined.match_id, seat=joined.seat,
                token=joined.token, action=action,
                decision_version=obs.version))
        except grpc.RpcError as e:
            # The message names the rule broken or what was expected.
            print(f"seat {joined.seat}: {choice.notation!r} refused: "
                  f"{e.code().name}: {e.details()}", file=sys.stderr)
    return last


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="localhost:50051")
    parser.add_argument("--game", default="craits")
    parser.add_argument("--match_id", default="")
    parser.add_argument("--seat", type=int, default=-1)
    parser.add_argument("--name", default="python_random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--join_timeout_s", type=float, default=30)
    args = parser.parse_args()
    with grpc.insecure_channel(args.server) as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        joined = join(stub, args)
        last = play(stub, joined, random.Random(args.seed))
    finished = last is not None and last.status == game_pb2.MATCH_STATUS_FINISHED
    print(f"{joined.match_id} seat {joined.seat}: "
          f"{'finished' if finished else 'ended'}; scores "
          f"{list(last.result.scores) if last else []}")
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main())
