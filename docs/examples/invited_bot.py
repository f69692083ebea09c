#!/usr/bin/python3
"""A minimal cardref bot as a service: connects once, plays every seat it is invited to.

It holds one WatchInvitations stream with its bot credential and plays the
first legal action in every seat the referee invites it to, each on a
thread of its own (docs/bots.md, "Invitations"). Stubs as for
minimal_bot.py; run (the credential in the environment, never on the
command line):

    CARDREF_BOT_CREDENTIAL=$(cat alice.credential) PYTHONPATH=stubs \\
        /usr/bin/python3 docs/examples/invited_bot.py \\
        --server=localhost:50051 --max_matches=4

It stops when its stream ends (the credential was revoked, the referee
stopped) or after --matches seats were played (0: never).
"""
import argparse
import os
import sys
import threading
import time

import grpc

from cardref.v1 import game_pb2
from cardref.v1 import referee_pb2
from cardref.v1 import referee_pb2_grpc


def play(stub, credential, invitation, results):
    """Joins the invited seat with its ticket and the credential; plays it."""
    joined = stub.JoinMatch(referee_pb2.JoinMatchRequest(
        match_id=invitation.match_id, ticket=invitation.ticket,
        credential=credential,  # only the entrant's credential takes its seat
        player_version="invited_bot.py 1"), timeout=10)
    seat = referee_pb2.SeatRequest(match_id=joined.match_id,
                                   seat=joined.seat, token=joined.token)
    last, sequence = None, 0
    for obs in stub.WatchObservations(seat):
        last = obs
        if obs.seat_to_act == joined.seat and obs.legal_actions:
            sequence += 1
            try:
                stub.SubmitAction(referee_pb2.SubmitActionRequest(
                    match_id=joined.match_id, seat=joined.seat,
                    token=joined.token, action=obs.legal_actions[0],
                    decision_version=obs.version, sequence=sequence,
                    omit_observation=True), timeout=10)
            except grpc.RpcError as e:
                print(f"{joined.match_id} seat {joined.seat}: refused: "
                      f"{e.code().name}: {e.details()}", file=sys.stderr)
    finished = last is not None and last.status == game_pb2.MATCH_STATUS_FINISHED
    print(f"{joined.match_id} seat {joined.seat}: "
          f"{'finished' if finished else 'ended'}", flush=True)
    results.append(finished)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server",
                        default=os.environ.get("CARDREF_SERVER",
                                               "localhost:50051"))
    parser.add_argument("--max_matches", type=int,
                        default=int(os.environ.get("CARDREF_MAX_MATCHES", "1")))
    parser.add_argument("--games", default=os.environ.get("CARDREF_GAMES", ""))
    parser.add_argument("--matches", type=int, default=0)
    args, unknown = parser.parse_known_args()  # a newer runner's flags
    if unknown:
        print(f"invited_bot.py: ignoring {' '.join(unknown)}", file=sys.stderr)
    credential = os.environ.get("CARDREF_BOT_CREDENTIAL", "")
    if not credential:
        print("invited_bot.py: set CARDREF_BOT_CREDENTIAL", file=sys.stderr)
        return 2

    results, threads, taken = [], [], set()
    with grpc.insecure_channel(args.server) as channel:
        stub = referee_pb2_grpc.RefereeStub(channel)
        request = referee_pb2.WatchInvitationsRequest(
            credential=credential, max_matches=args.max_matches,
            games=[g for g in args.games.split(",") if g])
        ended = None
        give_up = time.monotonic() + 30
        while ended is None:
            stream = stub.WatchInvitations(request, wait_for_ready=True)
            try:
                for event in stream:
                    give_up = time.monotonic() + 30
                    if event.HasField("open"):
                        print(f"{event.open.entrant}: up to "
                              f"{event.open.max_matches} matches at once",
                              flush=True)
                        continue
                    # A broken stream's seats come again on the next one.
                    key = (event.invitation.match_id, event.invitation.seat)
                    if key in taken:
                        continue
                    taken.add(key)
                    thread = threading.Thread(
                        target=play, args=(stub, credential,
                                           event.invitation, results))
                    thread.start()
                    threads.append(thread)
                    if args.matches and len(threads) >= args.matches:
                        stream.cancel()
                        ended = "done"
                        break
                else:
                    ended = "the stream ended"
            except grpc.RpcError as e:
                if ended == "done":
                    break
                # A broken connection: open the stream again for a while.
                if (e.code() != grpc.StatusCode.UNAVAILABLE or
                        time.monotonic() > give_up):
                    ended = f"{e.code().name}: {e.details()}"
                    print(f"invitation stream ended: {ended}",
                          file=sys.stderr)
                else:
                    time.sleep(0.2)
        for thread in threads:
            thread.join()
    ok = ended == "done" and len(results) == len(threads) and all(results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
