#!/usr/bin/python3
"""A complete cardref bot in Python for every game: plain gRPC.

    tools/python/make_stubs.sh /tmp/stubs
    PYTHONPATH=/tmp/stubs /usr/bin/python3 tools/python/cardref_bot.py \
        --server=localhost:50051 --game=craits

It joins a match (--match_id, or any open match of --game; an invited seat
with the ticket in $CARDREF_JOIN_TICKET, as cardref_tournament passes it),
streams its observations and answers each decision by notation alone
(docs/notation.md). Strategies: "random" (a uniform legal action) and
"heuristic" (per game: Craits sheds its highest points and always announces
its last card; Krass Kariert plays its biggest block; Kraken claims every
bonus and declares the most; otherwise random). Flags default to the
CARDREF_SERVER, CARDREF_MATCH_ID, CARDREF_SEAT and CARDREF_PLAYER_NAME
environment variables the tournament sets.
"""
import argparse
import os
import random
import sys
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

# Craits card points (CR-13.1); 3s cancel other cards, so they are kept.
CRAITS_POINTS = {"A": 1, "2": 20, "3": -30, "4": 15, "5": 30, "6": 30,
                 "7": 20, "8": 50, "9": 30, "T": 25, "J": 10, "Q": 10,
                 "K": 10}


def heuristic_score(game, notation):
    """Higher is better; None leaves the choice to chance."""
    if game == "craits":
        if notation.startswith("fool"):
            return 1000
        if notation == "draw":
            return -1000
        if notation.startswith("play "):
            score = CRAITS_POINTS.get(notation[5], 0)
            return score + (500 if notation.endswith("!") else 0)
        return None
    if game == "krass_kariert":
        if not notation.startswith("play "):
            return -1
        block = notation.split()[1].split("-")
        try:
            return int(block[-1]) - int(block[0]) + 1
        except ValueError:
            return 0
    if game == "kraken":
        if notation.startswith("claim"):
            return 100
        if notation == "decline":
            return -100
        if notation.startswith("declare"):
            return len(notation)
        if notation.endswith("+stuk"):
            return 50
        return None
    return None


def choose(obs, strategy, rng):
    actions = list(obs.legal_actions)
    if strategy == "heuristic":
        scored = [(heuristic_score(obs.game, a.notation), i)
                  for i, a in enumerate(actions)]
        if all(s is not None for s, _ in scored):
            best = max(s for s, _ in scored)
            actions = [actions[i] for s, i in scored if s == best]
    return rng.choice(actions)


def join(stub, args):
    request = referee_pb2.JoinMatchRequest(
        match_id=args.match_id, game=args.game, player_name=args.name,
        player_version=f"python cardref_bot 2 {args.strategy}",
        ticket=os.environ.get("CARDREF_JOIN_TICKET", ""))
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


def play(stub, joined, strategy, rng):
    """Plays to the end; returns the last observation."""
    seat = referee_pb2.SeatRequest(match_id=joined.match_id, seat=joined.seat,
                                   token=joined.token)
    last = None
    sequence = 0
    for obs in stub.WatchObservations(seat):
        last = obs
        if obs.seat_to_act != joined.seat or not obs.legal_actions:
            continue
        choice = choose(obs, strategy, rng)
        sequence += 1
        try:
            stub.SubmitAction(referee_pb2.SubmitActionRequest(
                match_id=joined.match_id, seat=joined.seat,
                token=joined.token,
                action=game_pb2.Action(notation=choice.notation),
                decision_version=obs.version, sequence=sequence,
                # The stream brings the next decision (docs/bots.md).
                omit_observation=True))
        except grpc.RpcError as e:
            # The message names the rule broken or what was expected.
            print(f"seat {joined.seat}: {choice.notation!r} refused: "
                  f"{e.code().name}: {e.details()}", file=sys.stderr)
    return last


def main():
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default=env("CARDREF_SERVER",
                                                "localhost:50051"))
    parser.add_argument("--game", default="craits")
    parser.add_argument("--match_id", default=env("CARDREF_MATCH_ID", ""))
    parser.add_argument("--seat", type=int,
                        default=int(env("CARDREF_SEAT", "-1")))
    parser.add_argument("--name", default=env("CARDREF_PLAYER_NAME",
                                              "python"))
    parser.add_argument("--strategy", default="random",
                        choices=["random", "heuristic"])
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the random choices; default: the OS")
    parser.add_argument("--join_timeout_s", type=float, default=30)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with grpc.insecure_channel(args.server) as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        try:
            joined = join(stub, args)
        except grpc.RpcError as e:
            print(f"join failed: {e.code().name}: {e.details()}",
                  file=sys.stderr)
            return 1
        last = play(stub, joined, args.strategy, rng)
    finished = (last is not None
                and last.status == game_pb2.MATCH_STATUS_FINISHED)
    if not args.quiet:
        print(f"{joined.match_id} seat {joined.seat}: "
              f"{'finished' if finished else 'ended'}; scores "
              f"{list(last.result.scores) if last else []}")
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main())
