#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into testdata/fuzz/<target>/.

Run by hand when the inputs it derives from change (golden logs, notation):
  tests/fuzz/make_seed_corpus.py REPO_ROOT CARDREF_LOG_BINARY
Inputs found by longer fuzzing runs are added next to the seeds with
`-merge=1` (docs/testing.md); this script never deletes them.
"""
import os
import random
import struct
import subprocess
import sys


def frames(data):
    """The payloads of a TFRecord-framed file (checksums not checked)."""
    pos, out = 0, []
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        out.append(data[pos + 12 : pos + 12 + length])
        pos += 12 + length + 4
    return out


def write(folder, name, data):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def main():
    root, cardref_log = sys.argv[1], sys.argv[2]
    out = os.path.join(root, "testdata", "fuzz")
    logs = os.path.join(root, "testdata", "logs")
    golden = sorted(f for f in os.listdir(logs) if f.endswith(".cardlog"))
    rng = random.Random(20261201)

    for name in golden:
        data = open(os.path.join(logs, name), "rb").read()
        base = name[: -len(".cardlog")]
        write(os.path.join(out, "record_reader"), base, data)
        chunked = b"".join(struct.pack("<H", len(p)) + p for p in frames(data))
        write(os.path.join(out, "log_audit"), base, chunked)
        json = subprocess.run([cardref_log, "json", os.path.join(logs, name)],
                              check=True, capture_output=True).stdout
        write(os.path.join(out, "json_import"), base + ".jsonl", json)
    corrupt = os.path.join(root, "testdata", "corrupt")
    for name in sorted(os.listdir(corrupt)):
        if name.endswith(".tfrecord"):
            data = open(os.path.join(corrupt, name), "rb").read()
            write(os.path.join(out, "record_reader"), name, data)

    # Game index = position in the registry's ascending ids.
    games = {"craits": 0, "kraken": 1, "krass_kariert": 2}
    params = {"craits": [b"", b"num_players=2", b"num_players=5"],
              "kraken": [b""],
              "krass_kariert": [b"", b"num_players=3", b"num_players=5"]}
    for game, index in games.items():
        for i, text in enumerate(params[game]):
            body = bytes(rng.randrange(256) for _ in range(3000))
            write(os.path.join(out, "engine"), f"{game}_{i}",
                  bytes([index]) + text + b"\n" + body)
    notations = {"craits": [b"play 8S:H", b"draw", b"call fool", b"pass"],
                 "kraken": [b"trump H", b"play JH", b"pass", b"challenge"],
                 "krass_kariert": [b"play 1-3", b"pass", b"place 4",
                                   b"take"]}
    for game, index in games.items():
        for i, text in enumerate(notations[game]):
            head = bytes([index]) + struct.pack("<Q", rng.getrandbits(64))
            write(os.path.join(out, "notation"), f"{game}_{i}",
                  head + bytes([rng.randrange(40)]) + text)

    # Scripts: create a match (op 1), join every seat (op 3), play (op 6).
    for game, index in games.items():
        players = {"craits": 2, "kraken": 4, "krass_kariert": 3}[game]
        script = bytes([1, index, players - 2])
        script += bytes([3, 0]) * players
        for _ in range(150):
            script += bytes([6, rng.randrange(256), rng.randrange(256),
                             rng.randrange(256)])
        write(os.path.join(out, "match_service"), game, script)


if __name__ == "__main__":
    main()
