#!/usr/bin/python3
"""The Kubernetes recipe of docs/scale.md, without a cluster: the Jobs
rendered by deploy/k8s/render.py have the fields an Indexed Job and its merge
need, bad parameters are refused, the Dockerfile builds on Debian 12 with
the project's Debian packages and installs what the Jobs run; and the
rendered pods' own commands and environment, run here as plain processes
(one per completion index, then the merge), give the single run's audit
and a merged event.

    manifests_test.py BUILD_TOOLS_DIR SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def render(src, *args, check=0):
    result = subprocess.run(
        ["/usr/bin/python3", os.path.join(src, "deploy/k8s/render.py")]
        + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    if result.returncode != check:
        fail(f"render.py {' '.join(args)}: exit {result.returncode}, not "
             f"{check}: {result.stderr}")
    if check != 0:
        return result.stderr
    return list(yaml.safe_load_all(result.stdout))


def container(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    if len(containers) != 1:
        fail(f"{job['metadata']['name']}: {len(containers)} containers")
    return containers[0]


def check_common(job, name, image, claim):
    if job.get("apiVersion") != "batch/v1" or job.get("kind") != "Job":
        fail(f"{name}: not a batch/v1 Job: {job.get('apiVersion')} "
             f"{job.get('kind')}")
    if job["metadata"]["name"] != name:
        fail(f"job name {job['metadata']['name']!r}, not {name!r}")
    if not re.match(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", name) or \
            len(name) > 63:
        fail(f"{name!r} is no DNS-1123 label")
    pod = job["spec"]["template"]["spec"]
    if pod.get("restartPolicy") not in ("Never", "OnFailure"):
        fail(f"{name}: restartPolicy {pod.get('restartPolicy')}")
    c = container(job)
    if c["image"] != image:
        fail(f"{name}: image {c['image']}")
    mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    if mounts.get("data") != "/data" or \
            volumes["data"]["persistentVolumeClaim"]["claimName"] != claim:
        fail(f"{name}: the shared volume is not {claim} at /data")
    if "cpu" not in c["resources"]["requests"]:
        fail(f"{name}: no cpu request")


def env_of(c):
    return {e["name"]: e["value"] for e in c.get("env", [])}


def check_pair(docs, kind, name, shards, parallelism, image, claim, folder,
               args):
    if len(docs) != 2:
        fail(f"{len(docs)} documents, not the shards and the merge")
    shard_job, merge_job = docs
    check_common(shard_job, f"{name}-shards", image, claim)
    check_common(merge_job, f"{name}-merge", image, claim)
    spec = shard_job["spec"]
    if spec.get("completionMode") != "Indexed":
        fail("the shards' Job is not Indexed")
    if spec["completions"] != shards or spec["parallelism"] != parallelism:
        fail(f"completions {spec['completions']}, parallelism "
             f"{spec['parallelism']}; wanted {shards}, {parallelism}")
    if spec.get("backoffLimit", 0) < 1:
        fail("a failed shard pod is never retried (backoffLimit)")
    c = container(shard_job)
    env = env_of(c)
    step = "tournament" if kind == "tournament" else "audit"
    if env != {"CARDREF_STEP": f"{step}-shard", "CARDREF_DIR": folder,
               "CARDREF_SHARDS": str(shards)}:
        fail(f"shard env {env}")
    if "$JOB_COMPLETION_INDEX" not in " ".join(c["command"]):
        fail("the shard command does not use JOB_COMPLETION_INDEX")
    if c["args"] != args:
        fail(f"args {c['args']} != {args}")
    m = container(merge_job)
    if m["command"] != ["cardref_task", f"{step}-merge", folder, str(shards)]:
        fail(f"merge command {m['command']}")
    if merge_job["spec"].get("completionMode") == "Indexed" or \
            merge_job["spec"]["completions"] != 1:
        fail("the merge is not one pod")


def run_pods(docs, tools, src, tmp):
    """Runs each pod's command as Kubernetes would (command + args, env, and
    JOB_COMPLETION_INDEX), with cardref_task on PATH; then the merge."""
    shim = os.path.join(tmp, "bin")
    os.makedirs(shim, exist_ok=True)
    task = os.path.join(shim, "cardref_task")
    if not os.path.exists(task):
        os.symlink(os.path.join(src, "deploy/slurm/cardref_task.sh"), task)
    base = dict(os.environ, PATH=f"{shim}:{os.environ['PATH']}",
                CARDREF_BIN=tools)
    shard_job, merge_job = docs
    c = container(shard_job)
    procs = []
    for index in range(shard_job["spec"]["completions"]):
        env = dict(base, **env_of(c), JOB_COMPLETION_INDEX=str(index))
        procs.append(subprocess.Popen(c["command"] + c["args"], env=env,
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    for index, p in enumerate(procs):
        out, _ = p.communicate(timeout=300)
        if p.returncode != 0:
            print(out[-3000:])
            fail(f"pod of index {index} exited {p.returncode}")
    m = container(merge_job)
    merged = subprocess.run(m["command"], env=base, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    print(merged.stdout[-2000:])
    if merged.returncode != 0:
        fail(f"the merge pod exited {merged.returncode}")


def check_dockerfile(src, docs):
    with open(os.path.join(src, "deploy/k8s/Dockerfile")) as f:
        text = f.read()
    lines = [l for l in text.splitlines()
             if l.strip() and not l.lstrip().startswith("#")]
    if not lines or not re.match(r"^FROM debian:12(\s|$)", lines[0]):
        fail("the Dockerfile is not FROM debian:12")
    body = "\n".join(lines).replace("\\\n", " ")
    installs = re.findall(r"apt-get install ([^&\n]*)", body)
    packages = {w for i in installs for w in i.split() if not
                w.startswith("-")}
    with open(os.path.join(src, "scripts/install_deps.sh")) as f:
        deps = f.read()
    listed = set(re.search(r"PACKAGES=\(([^)]*)\)", deps).group(1).split())
    if not packages or not packages <= listed:
        fail(f"the Dockerfile installs {sorted(packages - listed)}, which "
             "scripts/install_deps.sh does not list (Debian packages only)")
    if re.search(r"\b(curl|wget|pip3? install|git clone)\b", body):
        fail("the Dockerfile downloads something besides Debian packages")
    for needed in ("cardref_tournament", "cardref_referee", "cardref_bot",
                   "cardref_analyze", "deploy/slurm/cardref_task.sh "
                   "/usr/local/bin/cardref_task"):
        if needed not in body:
            fail(f"the Dockerfile does not install {needed}")
    for doc in docs:
        c = container(doc)
        program = c["command"][0]
        if program not in ("/bin/sh", "cardref_task"):
            fail(f"{doc['metadata']['name']} runs {program}, not in the image")


def main():
    tools, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--trust_bots", "--bot=random=cardref_bot --quiet",
                "--bot=first=cardref_bot --quiet --strategy=first",
                "--games=craits:2", "--duplicate"]
        docs = render(src, "tournament", "--name=spring-2026", "--shards=8",
                      "--parallelism=3", "--image=registry.example/cardref:1",
                      "--claim=events", "--", *args)
        check_pair(docs, "tournament", "spring-2026", 8, 3,
                   "registry.example/cardref:1", "events",
                   "/data/events/spring-2026", args)
        docs = render(src, "audit", "--name=logs", "--shards=5", "--",
                      "/data/logs", "/data/more logs")
        check_pair(docs, "audit", "logs", 5, 5, "cardref:0.1", "cardref-data",
                   "/data/audits/logs", ["/data/logs", "/data/more logs"])
        check_dockerfile(src, docs)
        for bad, why in ((["--name=Spring", "--shards=2"], "DNS-1123"),
                         (["--name=x", "--shards=0"], "at least 1"),
                         (["--name=x", "--shards=2", "--dir=rel"], "absolute")):
            message = render(src, "tournament", *bad, check=2)
            if why not in message:
                fail(f"render.py {bad}: the error does not say {why!r}: "
                     f"{message}")
        if "needs the logs" not in render(src, "audit", "--name=x",
                                          "--shards=2", check=2):
            fail("an audit without logs is not refused")
        print("ok: manifests, refusals and Dockerfile")

        # The pods' commands, run here: an audit equal to the single run.
        inputs = [os.path.join(src, "testdata/logs"),
                  os.path.join(src, "testdata/tampered")]
        audit_dir = os.path.join(tmp, "audit")
        docs = render(src, "audit", "--name=a", "--shards=3",
                      f"--dir={audit_dir}", "--", *inputs)
        run_pods(docs, tools, src, tmp)
        single = subprocess.run([f"{tools}/cardref_analyze", "audit",
                                 "--quiet", "--format=json"] + inputs,
                                stdout=subprocess.PIPE, text=True).stdout
        with open(os.path.join(audit_dir, "audit.jsonl")) as f:
            if f.read() != single:
                fail("the pods' merged audit differs from the single run")
        print("ok: the audit pods' merged findings equal the single run's")

        # And a small event: every shard played, the standings merged.
        event = os.path.join(tmp, "event")
        bots = [f"--bot=random={tools}/cardref_bot --quiet",
                f"--bot=first={tools}/cardref_bot --quiet --strategy=first"]
        docs = render(src, "tournament", "--name=e", "--shards=2",
                      f"--dir={event}", "--", "--trust_bots", *bots,
                      "--games=craits:2", "--duplicate", "--matches=2",
                      "--params=game_length=SHORT,rounds=4")
        run_pods(docs, tools, src, tmp)
        with open(os.path.join(event, "standings.json")) as f:
            standings = json.load(f)
        games = {g["game"]: int(g["games"]) for g in standings["games"]}
        if games != {"craits": 4}:
            fail(f"merged standings count {games}, not 4 craits games")
        print("PASS: the Kubernetes Jobs render, validate and run as pods")


if __name__ == "__main__":
    main()
