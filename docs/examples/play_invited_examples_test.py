#!/usr/bin/python3
"""The invited example bots of docs/bots.md play every game by invitation.

Usage: play_invited_examples_test.py TOP REFEREE_BINARY ADMIN_BINARY BOT_COMMAND...

1. Generates the Python stubs with docs/bots.md's command (as
   play_examples_test.py does).
2. Starts REFEREE_BINARY on port 0 with an organiser credential, and issues
   a bot credential for the entrant "invited" with ADMIN_BINARY
   (cardref_referee_admin issue --credential_file).
3. Starts BOT_COMMAND once, with --server, --max_matches=9 and --matches=9
   appended and the credential in CARDREF_BOT_CREDENTIAL.
4. Once its invitation stream is open (ListBotCredentials), creates one
   match of each game (short variants) with every seat invited to the bot:
   9 seats in all, all at once.
5. Checks that the bot exited 0, that every match FINISHED with every seat
   held by the entrant, and that revoking the credential with ADMIN_BINARY
   works.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_examples_test import SHORT, generate_stubs  # noqa: E402

ENTRANT = "invited"
TOKEN = "organiser-token-for-the-invited-example-0123456789"


def start_referee(referee_bin, tmp):
    token_file = os.path.join(tmp, "organiser.token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
        f.write(TOKEN)
    port_file = os.path.join(tmp, "port")
    referee = subprocess.Popen(
        [referee_bin, "--port=0", f"--port_file={port_file}",
         f"--log_dir={tmp}/logs", f"--organiser_token_file={token_file}",
         "--decision_time_limit_ms=20000"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(tmp, "ref.err"), "w"))
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return referee, f"localhost:{open(port_file).read().strip()}", token_file
        if referee.poll() is not None:
            raise AssertionError(f"the referee exited with {referee.returncode}")
        time.sleep(0.05)
    referee.kill()
    raise AssertionError("the referee wrote no port file")


def main():
    argv = sys.argv[1:]
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__.strip())
        return 0
    if len(argv) < 4:
        print("play_invited_examples_test.py: want TOP REFEREE_BINARY "
              "ADMIN_BINARY BOT_COMMAND...; --help says more", file=sys.stderr)
        return 2
    top, referee_bin, admin_bin, bot = (os.path.abspath(argv[0]), argv[1],
                                        argv[2], argv[3:])
    with tempfile.TemporaryDirectory() as tmp:
        stubs = generate_stubs(top, tmp)
        sys.path.insert(0, stubs)
        import grpc
        from cardref.v1 import game_pb2, referee_pb2, referee_pb2_grpc

        referee, server, token_file = start_referee(referee_bin, tmp)
        admin = [admin_bin, f"--server={server}",
                 f"--organiser_token_file={token_file}"]
        metadata = [("authorization", f"Bearer {TOKEN}")]
        bot_process = None
        try:
            credential_file = os.path.join(tmp, "invited.credential")
            subprocess.run(admin + ["issue", f"--entrant={ENTRANT}",
                                    f"--credential_file={credential_file}"],
                           check=True)
            assert os.stat(credential_file).st_mode & 0o777 == 0o600
            credential = open(credential_file).read().strip()
            env = dict(os.environ, PYTHONPATH=stubs,
                       CARDREF_BOT_CREDENTIAL=credential)
            for leftover in ("CARDREF_JOIN_TICKET", "CARDREF_MATCH_ID"):
                env.pop(leftover, None)
            bot_process = subprocess.Popen(
                bot + [f"--server={server}", "--max_matches=9", "--matches=9"],
                env=env)
            with grpc.insecure_channel(server) as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)
                for _ in range(400):
                    listed = stub.ListBotCredentials(
                        referee_pb2.ListBotCredentialsRequest(),
                        metadata=metadata)
                    if any(e.name == ENTRANT and e.streams == 1
                           for e in listed.entrants):
                        break
                    assert bot_process.poll() is None, "the bot exited early"
                    time.sleep(0.05)
                else:
                    raise AssertionError("the bot opened no invitation stream")
                created = []
                for game, params in SHORT.items():
                    request = referee_pb2.CreateMatchRequest(game=game)
                    for name, value in params.items():
                        v = request.params.values[name]
                        if isinstance(value, int):
                            v.int_value = value
                        else:
                            v.enum_value = value
                    seats = {"craits": 2, "krass_kariert": 3, "kraken": 4}[game]
                    if game != "kraken":
                        request.params.values["num_players"].int_value = seats
                    for _ in range(seats):
                        request.seat_assignments.add(player_name=ENTRANT,
                                                     invite=True)
                    created.append(stub.CreateMatch(request, metadata=metadata))
                code = bot_process.wait(timeout=300)
                assert code == 0, f"the bot exited with {code}"
                for c in created:
                    match = stub.GetMatch(
                        referee_pb2.GetMatchRequest(match_id=c.match_id),
                        metadata=metadata)
                    assert match.status == game_pb2.MATCH_STATUS_FINISHED, match
                    names = [s.player_name for s in match.seats]
                    assert names == [ENTRANT] * c.num_seats, names
                    print(f"{match.game}: seats {names}, finished, "
                          f"scores {list(match.result.scores)}")
            revoked = subprocess.run(admin + ["revoke", f"--entrant={ENTRANT}"],
                                     check=True, capture_output=True, text=True)
            assert f"revoked: {ENTRANT}" in revoked.stdout, revoked.stdout
        finally:
            if bot_process is not None and bot_process.poll() is None:
                bot_process.kill()
            referee.terminate()
            referee.wait(timeout=10)
    print("the invited example bot played a match of every game by invitation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
