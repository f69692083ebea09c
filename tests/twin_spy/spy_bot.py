#!/usr/bin/env python3
"""A spy entrant in a duplicate event (run by twin_spy_test.sh as the bot
command). Before it plays, it tries everything a bot author could to learn
its own deal from the other matches of its deal set: GetMatch and the public
stream of every match id its instances have seen (they share a folder), and
the event folder's files. What it learns goes to a file of its own; then it
plays as cardref_bot.

  spy_bot.py SPY_DIR EVENT_DIR CARDREF_BOT [cardref_bot arguments]
"""
import glob
import os
import sys
import time

import grpc
from cardref.v1 import referee_pb2, referee_pb2_grpc


def main():
    spy_dir, event_dir, bot = sys.argv[1:4]
    me = os.environ["CARDREF_MATCH_ID"]
    seat = os.environ.get("CARDREF_SEAT", "?")
    out = open(os.path.join(spy_dir, f"out.{os.getuid()}.{os.getpid()}"), "w")
    # Tell the other instances this match's id, then give a twin played at
    # the same time a moment to do the same.
    with open(os.path.join(spy_dir, f"id.{os.getuid()}.{os.getpid()}"), "w") as f:
        f.write(me + "\n")
    time.sleep(0.5)
    seen = set()
    for path in glob.glob(os.path.join(spy_dir, "id.*")):
        with open(path) as f:
            seen.add(f.read().strip())
    seen.discard(me)
    stub = referee_pb2_grpc.RefereeStub(
        grpc.insecure_channel(os.environ["CARDREF_SERVER"]))
    for other in sorted(seen):
        info = stub.GetMatch(referee_pb2.GetMatchRequest(match_id=other))
        out.write(f"probed {other} status {info.status}\n")
        if info.seed or info.seats or info.deal_set_id or info.result.ranks:
            out.write(f"LEARNED details of twin {other} while playing {me}\n")
        try:
            events = stub.WatchMatch(
                referee_pb2.WatchMatchRequest(match_id=other), timeout=2)
            for _ in events:
                out.write(f"LEARNED events of twin {other} while playing {me}\n")
                break
        except grpc.RpcError as e:
            out.write(f"stream refused: {e.code().name}\n")
    for path in [os.path.join(event_dir, "matches.tsv"),
                 os.path.join(event_dir, "event.secret")]:
        try:
            open(path).read()
            out.write(f"LEARNED: read {path}\n")
        except OSError:
            pass
    try:
        os.listdir(event_dir)
        out.write(f"LEARNED: listed {event_dir}\n")
    except OSError:
        pass
    out.write(f"played {me} seat {seat}\n")
    out.close()
    os.execv(bot, [bot] + sys.argv[4:])


if __name__ == "__main__":
    main()
