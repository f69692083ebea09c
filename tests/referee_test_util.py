"""Helpers the Python tests share: a referee on a free port, short matches.

PYTHONPATH must hold the generated stubs.
"""
import os
import subprocess
import time

from cardref.v1 import referee_pb2

# Parameters that make a match of each game short.
SHORT = {"craits": {"game_length": "SHORT"}, "kraken": {"rounds": 2}}


def start_referee(referee_bin, tmp, *flags):
    """Starts `referee_bin` on a free port, logging to tmp/logs; returns
    (process, port)."""
    port_file = os.path.join(tmp, "port")
    referee = subprocess.Popen(
        [referee_bin, "--port=0", f"--port_file={port_file}",
         f"--log_dir={tmp}/logs", *flags], stdout=subprocess.DEVNULL)
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return referee, int(open(port_file).read().strip())
        time.sleep(0.1)
    referee.kill()
    raise AssertionError("the referee did not start")


def short_match(game, **fields):
    """A CreateMatchRequest of `game` with SHORT's parameters."""
    request = referee_pb2.CreateMatchRequest(game=game, **fields)
    for name, value in SHORT.get(game, {}).items():
        v = request.params.values[name]
        if isinstance(value, int):
            v.int_value = value
        else:
            v.enum_value = value
    return request
