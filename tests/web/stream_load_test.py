#!/usr/bin/python3
"""200 spectators on one live match, through the web front's event streams.

  stream_load_test.py CARDREF_REFEREE

The referee runs with --http_max_streams=200 and the default 8 streams per
client address; a crowd process (sse_crowd.py) holds 200 streams of one
match from 25 loopback addresses. In each of three rounds the same match
(the same deal, the same choices) is played over gRPC without spectators,
then with the crowd; the median time of a decision (observe + submit, as a
bot sees it) with the crowd must be at most 1.5 times that without it
(printed).
With the crowd in place the 201st stream is refused with 503, and a ninth
from one address with 429, each with a JSON error and Retry-After, while
the pages are still served; every one of the 200 streams then carries every
public event of the match and its end.
"""
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile

import web_util

MAX_STREAMS = 200
PER_ADDRESS = 8
# A Craits match of about 430 decisions (see live_page_test.py).
GAME, PARAMS, SEED, AVOID = "craits", {"num_players": 2}, 12, "draw"
MAX_RATIO = 1.5
ROUNDS = 3


def play(ref, before_start=None):
    m = web_util.Driver(ref.stub, GAME, ["ann", "bo"], seed=SEED,
                        params=PARAMS, avoid=AVOID)
    if before_start is not None:
        before_start(m)
    m.join()
    m.play_out()
    return m


def refused(port, path, source):
    """(status, headers, JSON body) of a stream asked for from `source`."""
    s = socket.create_connection(("127.0.0.1", port),
                                 source_address=(source, 0))
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.sock = s
    conn.request("GET", path)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), json.loads(body)


def main():
    referee_bin = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="cardref_web_load_")
    ref = web_util.Referee(referee_bin, tmp,
                           f"--http_max_streams={MAX_STREAMS}",
                           f"--http_max_streams_per_client={PER_ADDRESS}")
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAILED: " + what, flush=True)

    crowd = {}

    def gather_crowd(m, check_caps):
        path = f"/api/matches/{m.match_id}/events"
        crowd["proc"] = subprocess.Popen(
            [sys.executable,
             os.path.join(os.path.dirname(__file__), "sse_crowd.py"),
             str(ref.http_port), path, str(MAX_STREAMS), str(PER_ADDRESS)],
            stdout=subprocess.PIPE, text=True)
        ready = json.loads(crowd["proc"].stdout.readline())
        check(ready["statuses"] == {"200": MAX_STREAMS},
              f"the crowd's streams: {ready['statuses']}")
        if not check_caps:
            return
        # Full: the next client is refused, and so is a ninth stream from
        # one address; pages are still served.
        status, headers, body = refused(ref.http_port, path, "127.0.2.1")
        print(f"the 201st stream: {status} {body['error']['message']}")
        check(status == 503 and headers.get("Retry-After") == "10" and
              "the web front has 200 streams open" in body["error"]["message"],
              "the 201st stream's refusal")
        status, headers, body = refused(ref.http_port, path, "127.0.1.1")
        print(f"a 9th stream from one address: {status} "
              f"{body['error']['message']}")
        check(status == 429 and headers.get("Retry-After") == "10",
              "the 9th stream of one address's refusal")
        check(ref.get("/")[0] == 200, "the match list while full")
        check(ref.get(f"/matches/{m.match_id}")[0] == 200,
              "the match page while full")

    quiet, busy = [], []
    try:
        play(ref)  # warms the referee up; not measured
        # Rounds of a match without spectators, then the same match with
        # 200: whatever else the machine does weighs on both alike.
        for r in range(ROUNDS):
            q = play(ref)
            b = play(ref, before_start=lambda m, first=(r == 0):
                     gather_crowd(m, first))
            out, _ = crowd["proc"].communicate(timeout=60)
            result = json.loads(out.strip().splitlines()[-1])
            check(q.decisions == b.decisions,
                  f"round {r}: the matches were not played alike: "
                  f"{q.decisions}, {b.decisions}")
            _, indices, _ = web_util.public_tables(ref.http_port, b.match_id)
            check(all(result["ended"]),
                  f"{result['ended'].count(False)} streams without the end")
            check(set(result["steps"]) == {len(indices)},
                  f"events per stream {sorted(set(result['steps']))}, the "
                  f"match has {len(indices)}")
            quiet += q.step_seconds
            busy += b.step_seconds
            print(f"round {r}: {MAX_STREAMS} streams carried "
                  f"{result['bytes']} bytes, {len(indices)} events each; "
                  f"median decision {statistics.median(q.step_seconds) * 1e3:.3f}"
                  f" ms without, {statistics.median(b.step_seconds) * 1e3:.3f}"
                  " ms with them", flush=True)
        ratio = statistics.median(busy) / statistics.median(quiet)
        print(f"decision latency (median of {len(busy)} decisions each, "
              f"observe + submit): {statistics.median(quiet) * 1e3:.3f} ms "
              f"without spectators, {statistics.median(busy) * 1e3:.3f} ms "
              f"with {MAX_STREAMS} streams; ratio {ratio:.2f} "
              f"(at most {MAX_RATIO})")
        check(ratio <= MAX_RATIO, f"latency ratio {ratio:.2f}")
    finally:
        if "proc" in crowd and crowd["proc"].poll() is None:
            crowd["proc"].kill()
        ref.stop()
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
