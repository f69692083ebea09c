#!/usr/bin/python3
"""A minimal cardref bot: takes one seat and plays the first legal action.

Stubs (no C++ build needed; from the repository's top folder):

    mkdir -p stubs && protoc -I proto --python_out=stubs --grpc_out=stubs --plugin=protoc-gen-grpc=/usr/bin/grpc_python_plugin proto/cardref/v1/*.proto

Run (Debian's python3-grpcio and python3-protobuf, hence /usr/bin/python3):

    PYTHONPATH=stubs /usr/bin/python3 docs/examples/minimal_bot.py \\
        --server=localhost:50051 --match_id=ID --seat=0

Without --match_id it joins the oldest open match of --game. An invited
seat's ticket is read from the environment variable CARDREF_JOIN_TICKET.
The guide is docs/bots.md.
"""
import argparse
import os
import sys

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc


def submit(stub, joined, obs, sequence):
    """Sends obs.legal_actions[0]; resends lost calls with the same sequence."""
    request = referee_pb2.SubmitActionRequest(
        match_id=joined.match_id, seat=joined.seat, token=joined.token,
        action=obs.legal_actions[0],   # typed form and notation, as sent
        decision_version=obs.version,  # never applied to a later decision
        sequence=sequence)             # a resend is answered, not re-applied
    for attempt in range(3):
        try:
            stub.SubmitAction(request, timeout=10)
            return
        except grpc.RpcError as e:
            if e.code() != grpc.StatusCode.UNAVAILABLE or attempt == 2:
                # The message names the rule broken or what was expected.
                print(f"seat {joined.seat}: {request.action.notation!r} "
                      f"refused: {e.code().name}: {e.details()}",
                      file=sys.stderr)
                return


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", default="localhost:50051")
    parser.add_argument("--match_id", default="")
    parser.add_argument("--game", default="craits")
    parser.add_argument("--seat", type=int, default=-1)
    parser.add_argument("--name", default="minimal_py")
    # Flags of a newer runner are no reason to forfeit a match.
    args, unknown = parser.parse_known_args()
    if unknown:
        print(f"minimal_bot.py: ignoring {' '.join(unknown)}", file=sys.stderr)

    ticket = os.environ.get("CARDREF_JOIN_TICKET", "")
    join = referee_pb2.JoinMatchRequest(
        match_id=args.match_id, game=args.game, ticket=ticket,
        # An invited seat plays under the organiser's name for it.
        player_name="" if ticket else args.name,
        player_version="minimal_bot.py 1")
    if args.seat >= 0:
        join.seat = args.seat

    with grpc.insecure_channel(args.server) as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        joined = stub.JoinMatch(join, timeout=10)
        seat = referee_pb2.SeatRequest(match_id=joined.match_id,
                                       seat=joined.seat, token=joined.token)
        last = None
        sequence = 0
        # One message each time this seat must act, and one at the end.
        for obs in stub.WatchObservations(seat):
            last = obs
            if obs.seat_to_act == joined.seat and obs.legal_actions:
                sequence += 1
                submit(stub, joined, obs, sequence)

    finished = (last is not None and
                last.status == game_pb2.MATCH_STATUS_FINISHED)
    print(f"{joined.match_id} seat {joined.seat}: "
          f"{'finished' if finished else 'ended'}, scores "
          f"{list(last.result.scores) if last else []}")
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main())
