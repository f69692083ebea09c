#!/usr/bin/python3
"""A crowd of server-sent event clients in a process of its own (so that
reading them costs the test's driver nothing):

  sse_crowd.py PORT PATH COUNT PER_ADDRESS

opens COUNT streams of http://127.0.0.1:PORT/PATH, PER_ADDRESS from each
loopback address 127.0.1.1, 127.0.1.2, ... (the web front caps streams per
client address). Once every stream has its status line it prints one JSON
line {"statuses": {status: count}}, then reads every stream until the
server closes it, and prints {"steps": [...], "ended": [...], "bytes": N}:
the step events and whether the end event came, per stream. Exits after
60 s whatever happens.
"""
import json
import selectors
import socket
import sys
import time

STEP = b"\nevent: step\n"
END = b"\nevent: end\n"


def main():
    port, path = int(sys.argv[1]), sys.argv[2]
    count, per_address = int(sys.argv[3]), int(sys.argv[4])
    sel = selectors.DefaultSelector()
    conns = []
    for k in range(count):
        s = socket.socket()
        s.bind((f"127.0.1.{1 + k // per_address}", 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  "Accept: text/event-stream\r\n\r\n".encode())
        s.setblocking(False)
        conn = {"sock": s, "head": b"", "tail": b"", "status": None,
                "steps": 0, "ended": False, "open": True}
        conns.append(conn)
        sel.register(s, selectors.EVENT_READ, conn)
    deadline = time.monotonic() + 60
    announced = False
    total = 0
    while time.monotonic() < deadline and any(c["open"] for c in conns):
        for key, _ in sel.select(timeout=0.5):
            c = key.data
            data = c["sock"].recv(65536)
            if not data:
                c["open"] = False
                sel.unregister(c["sock"])
                c["sock"].close()
                continue
            total += len(data)
            if c["status"] is None:
                c["head"] += data
                if b"\r\n" in c["head"]:
                    c["status"] = int(c["head"].split(b" ", 2)[1])
            # Counted in C, across the chunks' edges: the crowd must cost
            # the machine little beside the referee it loads.
            window = c["tail"] + data
            c["steps"] += window.count(STEP)
            c["ended"] = c["ended"] or END in window
            c["tail"] = window[-(len(STEP) - 1):]
        if not announced and all(c["status"] is not None for c in conns):
            announced = True
            statuses = {}
            for c in conns:
                statuses[str(c["status"])] = statuses.get(str(c["status"]), 0) + 1
            print(json.dumps({"statuses": statuses}), flush=True)
    print(json.dumps({"steps": [c["steps"] for c in conns],
                      "ended": [c["ended"] for c in conns],
                      "bytes": total}), flush=True)


if __name__ == "__main__":
    main()
