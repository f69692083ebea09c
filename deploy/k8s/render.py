#!/usr/bin/python3
"""Renders the Kubernetes Jobs of a sharded event or audit (docs/scale.md)
from deploy/k8s/shards-job.yaml and merge-job.yaml: an Indexed Job of N
shards and the merge Job to apply once it has completed.

    render.py tournament|audit --name=NAME --shards=N [--parallelism=P]
              [--image=cardref:0.1] [--claim=cardref-data] [--dir=PATH]
              [--only=shards|merge] [-- ARGS...]

ARGS are cardref_tournament's flags (tournament) or the logs to audit
(audit), paths inside the container (the volume is mounted at /data).
--dir is the event or audit folder (default /data/events/NAME or
/data/audits/NAME). Prints both Jobs as one YAML stream (or the one of
--only). Needs Debian's python3-yaml. Exit 2 on bad arguments.
"""
import argparse
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
# Job names become pod labels and host names: DNS-1123 labels, and room
# for the "-shards" / "-merge" suffix and the index the controller adds.
NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
MAX_NAME = 40


def load(name):
    with open(os.path.join(HERE, name)) as f:
        return yaml.safe_load(f)


def render(kind, name, shards, parallelism, image, claim, folder, args):
    step = {"tournament": ("tournament-shard", "tournament-merge"),
            "audit": ("audit-shard", "audit-merge")}[kind]
    labels = {"app.kubernetes.io/name": "cardref",
              "app.kubernetes.io/instance": name, "cardref/kind": kind}
    jobs = {}
    for which, template in (("shards", "shards-job.yaml"),
                            ("merge", "merge-job.yaml")):
        job = load(template)
        job["metadata"]["name"] = f"{name}-{which}"
        job["metadata"]["labels"].update(labels)
        job["spec"]["template"]["metadata"]["labels"].update(labels)
        pod = job["spec"]["template"]["spec"]
        pod["volumes"][0]["persistentVolumeClaim"]["claimName"] = claim
        container = pod["containers"][0]
        container["image"] = image
        jobs[which] = job
    shard_job = jobs["shards"]["spec"]
    shard_job["completions"] = shards
    shard_job["parallelism"] = min(parallelism, shards)
    container = shard_job["template"]["spec"]["containers"][0]
    container["args"] = list(args)
    env = {e["name"]: e for e in container["env"]}
    env["CARDREF_STEP"]["value"] = step[0]
    env["CARDREF_DIR"]["value"] = folder
    env["CARDREF_SHARDS"]["value"] = str(shards)
    merge = jobs["merge"]["spec"]["template"]["spec"]["containers"][0]
    merge["command"] = ["cardref_task", step[1], folder, str(shards)]
    return jobs


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("kind", choices=["tournament", "audit"])
    parser.add_argument("--name", required=True)
    parser.add_argument("--shards", type=int, required=True)
    parser.add_argument("--parallelism", type=int, default=0,
                        help="pods at once (default: all N)")
    parser.add_argument("--image", default="cardref:0.1")
    parser.add_argument("--claim", default="cardref-data")
    parser.add_argument("--dir", default="")
    parser.add_argument("--only", choices=["shards", "merge"])
    rest = []
    if "--" in argv:
        at = argv.index("--")
        argv, rest = argv[:at], argv[at + 1:]
    a = parser.parse_args(argv)
    a.args = rest
    if not NAME.match(a.name) or len(a.name) > MAX_NAME:
        parser.error(f"--name must be lower-case letters, digits and '-' "
                     f"(a DNS-1123 label) of at most {MAX_NAME} characters, "
                     f"got {a.name!r}")
    if a.shards < 1:
        parser.error(f"--shards must be at least 1, got {a.shards}")
    if a.parallelism < 0:
        parser.error(f"--parallelism must be 0 (all) or more, got "
                     f"{a.parallelism}")
    if a.kind == "audit" and not a.args:
        parser.error("audit needs the logs to audit (after --)")
    folder = a.dir or f"/data/{a.kind.replace('tournament', 'event')}s/{a.name}"
    if not folder.startswith("/"):
        parser.error(f"--dir must be an absolute path in the container, got "
                     f"{folder!r}")
    jobs = render(a.kind, a.name, a.shards, a.parallelism or a.shards,
                  a.image, a.claim, folder, a.args)
    docs = [jobs[a.only]] if a.only else [jobs["shards"], jobs["merge"]]
    yaml.safe_dump_all(docs, sys.stdout, sort_keys=False,
                       default_flow_style=False)


if __name__ == "__main__":
    main(sys.argv[1:])
