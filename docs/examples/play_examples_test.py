#!/usr/bin/python3
"""The minimal example bots of docs/bots.md play a real referee to the end.

Usage: play_examples_test.py TOP REFEREE_BINARY BOT_COMMAND...
                             [--vs OTHER_COMMAND...]

1. Runs the stub-generation command exactly as docs/bots.md shows it (the
   line after "<!-- stub-command -->"), in a temp dir where `proto` is the
   repository's proto/ folder, and imports the stubs it made.
2. Starts REFEREE_BINARY on port 0 (loopback, no organiser credential, so
   anyone may create an open match).
3. Creates one match of each game (short variants) and starts BOT_COMMAND
   in every seat with --server, --match_id and --seat (with --vs: in seat 0
   only, OTHER in the other seats); the stubs are on PYTHONPATH for a
   Python bot.
4. Checks that every bot exited 0 and that every match FINISHED with every
   seat joined and a result for every seat.

Any bot taking --server, --match_id and --seat can be tried this way.
"""
import os
import subprocess
import sys
import tempfile
import time

SHORT = {"craits": {"game_length": "SHORT"}, "kraken": {"rounds": 4},
         "krass_kariert": {}}


def stub_command(top):
    """The documented one-line stub command of docs/bots.md."""
    lines = open(os.path.join(top, "docs", "bots.md")).read().splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "<!-- stub-command -->":
            for command in lines[i + 1:]:
                if command.strip() and not command.startswith("```"):
                    return command.strip()
    raise AssertionError("docs/bots.md has no line after <!-- stub-command -->")


def generate_stubs(top, tmp):
    work = os.path.join(tmp, "clone")
    os.mkdir(work)
    os.symlink(os.path.join(top, "proto"), os.path.join(work, "proto"))
    command = stub_command(top)
    print(f"stub command: {command}")
    subprocess.run(["bash", "-c", command], cwd=work, check=True)
    stubs = os.path.join(work, "stubs")
    assert os.path.exists(os.path.join(stubs, "cardref", "v1",
                                       "referee_pb2_grpc.py")), command
    return stubs


def start_referee(referee_bin, tmp):
    port_file = os.path.join(tmp, "port")
    referee = subprocess.Popen(
        [referee_bin, "--port=0", f"--port_file={port_file}",
         f"--log_dir={tmp}/logs", "--decision_time_limit_ms=20000"],
        stdout=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return referee, f"localhost:{open(port_file).read().strip()}"
        if referee.poll() is not None:
            raise AssertionError(
                f"the referee exited with {referee.returncode}")
        time.sleep(0.05)
    referee.kill()
    raise AssertionError("the referee wrote no port file")


def parse_args(argv):
    """(top, referee, bot, other); prints the usage and exits 0 for --help
    (or -h) as the first argument, 2 for too few arguments."""
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__.strip())
        sys.exit(0)
    if len(argv) < 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        print(f"play_examples_test.py: want TOP REFEREE_BINARY BOT_COMMAND..., "
              f"got {len(argv)} argument(s); --help says more",
              file=sys.stderr)
        sys.exit(2)
    top, referee_bin, bot = argv[0], argv[1], argv[2:]
    other = bot
    if "--vs" in bot:
        at = bot.index("--vs")
        bot, other = bot[:at], bot[at + 1:]
    if not bot or not other:
        print("play_examples_test.py: a bot command is empty (before or "
              "after --vs); --help says more", file=sys.stderr)
        sys.exit(2)
    return top, referee_bin, bot, other


def main():
    top, referee_bin, bot, other = parse_args(sys.argv[1:])
    top = os.path.abspath(top)  # the proto symlink must not be relative
    with tempfile.TemporaryDirectory() as tmp:
        stubs = generate_stubs(top, tmp)
        sys.path.insert(0, stubs)
        import grpc
        from cardref.v1 import game_pb2, referee_pb2, referee_pb2_grpc

        env = dict(os.environ, PYTHONPATH=stubs)
        env.pop("CARDREF_JOIN_TICKET", None)
        referee, server = start_referee(referee_bin, tmp)
        try:
            with grpc.insecure_channel(server) as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)
                for game, params in SHORT.items():
                    request = referee_pb2.CreateMatchRequest(game=game,
                                                             dealing_seed=11)
                    for name, value in params.items():
                        v = request.params.values[name]
                        if isinstance(value, int):
                            v.int_value = value
                        else:
                            v.enum_value = value
                    created = stub.CreateMatch(request)
                    bots = []
                    for s in range(created.num_seats):
                        command = (bot if s == 0 else other) + [
                            f"--server={server}",
                            f"--match_id={created.match_id}", f"--seat={s}"]
                        bots.append(subprocess.Popen(command, env=env))
                    codes = [b.wait(timeout=300) for b in bots]
                    assert codes == [0] * len(bots), (game, codes)
                    match = stub.GetMatch(
                        referee_pb2.GetMatchRequest(match_id=created.match_id))
                    assert match.status == game_pb2.MATCH_STATUS_FINISHED, match
                    assert len(match.result.scores) == created.num_seats, match
                    assert len(match.seats) == created.num_seats, match
                    names = [s.player_name for s in match.seats]
                    print(f"{game}: seats {names}, finished, "
                          f"scores {list(match.result.scores)}")
        finally:
            referee.terminate()
            referee.wait(timeout=10)
    print("the example bot finished a match of every game")


if __name__ == "__main__":
    main()
