#!/usr/bin/python3
"""A complete cardref bot in Python for every game: plain gRPC.

    bots/python/make_stubs.sh /tmp/stubs
    PYTHONPATH=/tmp/stubs /usr/bin/python3 bots/python/cardref_bot.py \
        --server=localhost:50051 --game=craits

It joins a match (--match_id, or any open match of --game; an invited seat
with the ticket in $CARDREF_JOIN_TICKET, as cardref_tournament passes it),
streams its observations and answers each decision by notation alone
(docs/notation.md). Strategies: "random" (a uniform legal action) and
"heuristic" (per game: Craits sheds its highest points and always announces
its last card; Krass Kariert plays its biggest block; Kraken claims every
bonus and declares the most; otherwise random). Flags default to the
CARDREF_SERVER, CARDREF_MATCH_ID, CARDREF_SEAT and CARDREF_PLAYER_NAME
environment variables the tournament sets; the random choices are seeded by
--seed, else by CARDREF_MATCH_SEED (the tournament's, its own per match and
seat), else by the OS, so two matches never replay each other by accident.

On a network that fails it does what docs/bots.md asks: every unary call
has a deadline, a join is resent with its retry_key and an answer with its
sequence number (so the referee acts on each at most once), and a broken
stream is reopened from the last version seen.
"""
import argparse
import os
import random
import secrets
import sys
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc

# A unary call that takes longer has lost its referee (docs/bots.md).
CALL_TIMEOUT_S = 10
# Failures worth the same request again after a pause: the connection
# failed, or a limit that frees itself (a broken stream the referee has not
# closed yet still counts against the seat's streams).
TRANSIENT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
OVER = (game_pb2.MATCH_STATUS_FINISHED, game_pb2.MATCH_STATUS_ABORTED)


def backoff_pauses():
    """50 ms, doubling up to 1 s."""
    pause = 0.05
    while True:
        yield pause
        pause = min(pause * 2, 1.0)

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
    # Makes the join safe to resend: a join the referee took whose answer
    # was lost is answered again (the same seat and token), never a second
    # seat. From the OS, not --seed: it must not be guessable.
    request.retry_key = secrets.token_hex(16)
    deadline = time.time() + args.join_timeout_s
    pauses = backoff_pauses()
    while True:
        try:
            # Waits for a connection (the referee may be starting).
            return stub.JoinMatch(request, timeout=CALL_TIMEOUT_S,
                                  wait_for_ready=True)
        except grpc.RpcError as e:
            # Resent: the connection failed, or no open match yet (the
            # organiser may not have created it).
            again = (e.code() in TRANSIENT
                     or e.code() == grpc.StatusCode.DEADLINE_EXCEEDED
                     or (e.code() == grpc.StatusCode.NOT_FOUND
                         and not args.match_id))
            if not again or time.time() > deadline:
                raise
            time.sleep(next(pauses))


class Player:
    """Plays one seat to the end of its match."""

    def __init__(self, stub, joined, strategy, rng, reconnect_timeout_s):
        self.stub, self.joined = stub, joined
        self.strategy, self.rng = strategy, rng
        self.reconnect_timeout_s = reconnect_timeout_s
        self.sequence = 0
        self.reconnects = 0
        self.resends = 0

    def play(self):
        """Returns the last observation."""
        joined = self.joined
        last = None
        give_up = time.monotonic() + self.reconnect_timeout_s
        pauses = backoff_pauses()
        while True:
            # Reopened from the last version seen: recent_actions then holds
            # exactly what this bot missed.
            seat = referee_pb2.SeatRequest(
                match_id=joined.match_id, seat=joined.seat,
                token=joined.token,
                since_version=last.version if last else 0)
            try:
                for obs in self.stub.WatchObservations(seat):
                    give_up = time.monotonic() + self.reconnect_timeout_s
                    pauses = backoff_pauses()
                    last = obs
                    if (obs.seat_to_act == joined.seat
                            and obs.legal_actions):
                        self.answer(obs)
                return last
            except grpc.RpcError as e:
                if e.code() not in TRANSIENT:
                    raise
                # The stream is silent while other seats act, so one that
                # broke says nothing about whether the referee is there; a
                # unary call does (and shows a match that ended meanwhile).
                try:
                    now = self.stub.GetObservation(seat,
                                                   timeout=CALL_TIMEOUT_S)
                    give_up = time.monotonic() + self.reconnect_timeout_s
                    if now.status in OVER:
                        return now
                except grpc.RpcError as probe:
                    if probe.code() not in TRANSIENT:
                        raise
                if time.monotonic() > give_up:
                    raise
                self.reconnects += 1
                print(f"seat {joined.seat}: stream broke ({e.code().name}: "
                      f"{e.details()}); reopening from version "
                      f"{last.version if last else 0}", file=sys.stderr)
                time.sleep(next(pauses))

    def answer(self, obs):
        joined = self.joined
        choice = choose(obs, self.strategy, self.rng)
        self.sequence += 1
        request = referee_pb2.SubmitActionRequest(
            match_id=joined.match_id, seat=joined.seat, token=joined.token,
            action=game_pb2.Action(notation=choice.notation),
            decision_version=obs.version, sequence=self.sequence,
            # The stream brings the next decision (docs/bots.md).
            omit_observation=True)
        # Resent unchanged while the connection fails (or a rate limit holds
        # it back), until the decision's deadline: the same sequence makes
        # the referee apply it at most once.
        deadline = (obs.deadline_unix_millis / 1000
                    if obs.deadline_unix_millis else
                    time.time() + CALL_TIMEOUT_S)
        pauses = backoff_pauses()
        while True:
            try:
                self.stub.SubmitAction(request, timeout=CALL_TIMEOUT_S)
                return
            except grpc.RpcError as e:
                if e.code() in TRANSIENT and time.time() < deadline:
                    self.resends += 1
                    time.sleep(next(pauses))
                    continue
                # The message names the rule broken or what was expected.
                print(f"seat {joined.seat}: {choice.notation!r} refused: "
                      f"{e.code().name}: {e.details()}", file=sys.stderr)
                return


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
                        help="seed of the random choices; default: "
                        "$CARDREF_MATCH_SEED, else the OS")
    parser.add_argument("--join_timeout_s", type=float, default=30,
                        help="how long to keep looking for an open match")
    parser.add_argument("--reconnect_timeout_s", type=float, default=30,
                        help="how long to keep reopening a broken stream "
                        "while the referee does not answer")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    seed = args.seed
    if seed is None and env("CARDREF_MATCH_SEED", "").isdigit():
        seed = int(env("CARDREF_MATCH_SEED"))
    rng = random.Random(seed)  # None: seeded from the OS
    with grpc.insecure_channel(args.server) as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        try:
            joined = join(stub, args)
        except grpc.RpcError as e:
            print(f"join failed: {e.code().name}: {e.details()}",
                  file=sys.stderr)
            return 1
        player = Player(stub, joined, args.strategy, rng,
                        args.reconnect_timeout_s)
        try:
            last = player.play()
        except grpc.RpcError as e:
            print(f"seat {joined.seat}: stream ended: {e.code().name}: "
                  f"{e.details()}", file=sys.stderr)
            return 1
    finished = (last is not None
                and last.status == game_pb2.MATCH_STATUS_FINISHED)
    if not args.quiet:
        print(f"{joined.match_id} seat {joined.seat}: "
              f"{'finished' if finished else 'ended'} after "
              f"{player.reconnects} reconnects, {player.resends} resends; "
              f"scores {list(last.result.scores) if last else []}")
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main())
