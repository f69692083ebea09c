#!/usr/bin/python3
"""The ladder's multi-machine recipes of docs/scale.md, without a cluster:
deploy/k8s/ladder/*.yaml hold what a PostgreSQL StatefulSet and a Deployment
of workers need and agree with each other (labels, Service, Secret, URL,
no password anywhere but the Secret); the database image builds on Debian 12
from the project's packages; the Slurm array script parses and runs
`cardref_ladder run` against $CARDREF_LADDER_DB. Then, when the server
binaries are here and the test runs as root, the image's entrypoint runs
for real (as the postgres user, on a free TCP port): it creates the
cluster, the ladder's role (password authentication) and database; and
`cardref_ladder migrate` moves a SQLite ladder into it over TCP with the
password from PGPASSWORD; a restart keeps it.

    ladder_deploy_test.py CARDREF_LADDER SOURCE_DIR
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import yaml

PG_BIN = "/usr/lib/postgresql/15/bin"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def load(src, name):
    with open(os.path.join(src, "deploy/k8s/ladder", name)) as f:
        return list(yaml.safe_load_all(f))


def only(docs, kind):
    found = [d for d in docs if d.get("kind") == kind]
    if len(found) != 1:
        fail(f"{len(found)} {kind}s, not 1")
    return found[0]


def env_of(container):
    return {e["name"]: e for e in container.get("env", [])}


def check_manifests(src):
    db_docs = load(src, "postgres.yaml")
    service, stateful = only(db_docs, "Service"), only(db_docs, "StatefulSet")
    if stateful.get("apiVersion") != "apps/v1":
        fail("the StatefulSet is not apps/v1")
    labels = stateful["spec"]["template"]["metadata"]["labels"]
    for selector in (stateful["spec"]["selector"]["matchLabels"],
                     service["spec"]["selector"]):
        if any(labels.get(k) != v for k, v in selector.items()):
            fail(f"selector {selector} does not match the pod's {labels}")
    if stateful["spec"]["replicas"] != 1:
        fail("more than one PostgreSQL primary")
    if stateful["spec"]["serviceName"] != service["metadata"]["name"]:
        fail("the StatefulSet's serviceName is not the Service")
    db = stateful["spec"]["template"]["spec"]["containers"][0]
    db_env = env_of(db)
    secret = db_env["LADDER_DB_PASSWORD"]["valueFrom"]["secretKeyRef"]
    claims = stateful["spec"]["volumeClaimTemplates"]
    if [m["name"] for m in db["volumeMounts"]] != [claims[0]["metadata"]["name"]]:
        fail("the database's volume is not its claim template")
    if db["volumeMounts"][0]["mountPath"] != "/var/lib/postgresql/data":
        fail("the volume is not where the image keeps PGDATA")

    workers = only(load(src, "workers.yaml"), "Deployment")
    if workers.get("apiVersion") != "apps/v1":
        fail("the workers' Deployment is not apps/v1")
    pod = workers["spec"]["template"]
    if any(pod["metadata"]["labels"].get(k) != v for k, v in
           workers["spec"]["selector"]["matchLabels"].items()):
        fail("the Deployment's selector does not match its pods")
    worker = pod["spec"]["containers"][0]
    command = worker["command"]
    if command[:3] != ["cardref_ladder", "run",
                       "--db=$(CARDREF_LADDER_DB)"]:
        fail(f"the workers run {command[:3]}")
    env = env_of(worker)
    url = env["CARDREF_LADDER_DB"]["value"]
    m = re.match(r"^postgresql://([^:@/]+)@([^:/]+):(\d+)/([^?]+)", url)
    if not m:
        fail(f"CARDREF_LADDER_DB {url!r} is not postgresql://USER@HOST:PORT/DB"
             " (and holds no password)")
    user, host, port, database = m.groups()
    if host != service["metadata"]["name"] or \
            int(port) != service["spec"]["ports"][0]["port"]:
        fail(f"the workers connect to {host}:{port}, not the Service")
    if (user, database) != (db_env["LADDER_DB_USER"]["value"],
                            db_env["LADDER_DB_NAME"]["value"]):
        fail("the workers' user or database is not the one the image makes")
    if env["PGPASSWORD"]["valueFrom"]["secretKeyRef"] != secret:
        fail("the workers' password is not the database's Secret")
    grace = pod["spec"]["terminationGracePeriodSeconds"]
    if grace < 60:
        fail(f"{grace} s is too short to finish or release a match")
    # Passwords only through the Secret: no literal one in a URL, a
    # password= parameter or a variable named for one.
    for container in (db, worker):
        for name, entry in env_of(container).items():
            value = str(entry.get("value", ""))
            if re.search(r"://[^/@]*:[^/@]*@", value) or \
                    "password=" in value.lower() or \
                    ("PASSWORD" in name and "valueFrom" not in entry):
                fail(f"{name} of {container['name']} holds a password")


def check_image(src):
    with open(os.path.join(src, "deploy/k8s/ladder/postgres/Dockerfile")) as f:
        text = f.read()
    lines = [l for l in text.splitlines()
             if l.strip() and not l.lstrip().startswith("#")]
    if not re.match(r"^FROM debian:12(\s|$)", lines[0]):
        fail("the database image is not FROM debian:12")
    body = "\n".join(lines).replace("\\\n", " ")
    installs = re.findall(r"apt-get install ([^&\n]*)", body)
    packages = {w for i in installs for w in i.split() if not
                w.startswith("-")}
    with open(os.path.join(src, "scripts/install_deps.sh")) as f:
        listed = set(re.search(r"PACKAGES=\(([^)]*)\)", f.read()).group(1)
                     .split())
    if packages != {"postgresql-15"} or not packages <= listed:
        fail(f"the database image installs {sorted(packages)}")
    for script in ("deploy/k8s/ladder/postgres/entrypoint.sh",):
        subprocess.run(["sh", "-n", os.path.join(src, script)], check=True)
    sbatch = os.path.join(src, "deploy/slurm/ladder_workers.sbatch")
    subprocess.run(["bash", "-n", sbatch], check=True)
    with open(sbatch) as f:
        text = f.read()
    if not re.search(r'exec "\$bin/cardref_ladder" run --db="\$CARDREF_LADDER_DB"',
                     text):
        fail("the Slurm script does not exec cardref_ladder run on "
             "$CARDREF_LADDER_DB")
    if "#SBATCH --signal=TERM@" not in text:
        fail("the Slurm script does not ask for SIGTERM before the limit")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(src, pgdata, port, password, log):
    env = dict(os.environ, PGDATA=pgdata, PGPORT=str(port),
               LADDER_DB_PASSWORD=password,
               PATH=f"{PG_BIN}:{os.environ['PATH']}")
    server = subprocess.Popen(
        [os.path.join(src, "deploy/k8s/ladder/postgres/entrypoint.sh")],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 90
    while time.time() < deadline:
        if server.poll() is not None:
            fail(f"the entrypoint exited {server.returncode}")
        ready = subprocess.run([f"{PG_BIN}/pg_isready", "-q", "-h",
                                "127.0.0.1", "-p", str(port)])
        if ready.returncode == 0:
            return server
        time.sleep(0.3)
    server.kill()
    fail("the database did not come up in 90 s")


def stop(server):
    server.send_signal(2)  # SIGINT: fast shutdown
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def run_entrypoint_and_migrate(ladder, src):
    if os.geteuid() != 0:
        print("SKIP: the entrypoint's live run needs root (it runs the "
              "server as postgres)")
        return False
    if not os.access(f"{PG_BIN}/postgres", os.X_OK):
        print(f"SKIP: no PostgreSQL server in {PG_BIN}")
        return False
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        pgdata = os.path.join(tmp, "volume", "pgdata")
        port, password = free_port(), "s3cret with spaces"
        log = open(os.path.join(tmp, "server.log"), "w")
        server = start(src, pgdata, port, password, log)
        try:
            url = f"postgresql://ladder@127.0.0.1:{port}/ladder"
            db_file = os.path.join(tmp, "ladder.db")
            for args in (["init", f"--store={db_file}", "--name=moved",
                          "--games=craits:3"],
                         ["add", f"--store={db_file}", "--entrant=alice",
                          "--command=bot", "--content_hash=h1"]):
                subprocess.run([ladder] + args, check=True,
                               stdout=subprocess.DEVNULL)
            wrong = subprocess.run(
                [ladder, "migrate", f"--from={db_file}", f"--to={url}"],
                env=dict(os.environ, PGPASSWORD="wrong"),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if wrong.returncode != 1 or "password authentication failed" \
                    not in wrong.stderr or "wrong" in wrong.stderr:
                fail(f"a wrong password: exit {wrong.returncode}, "
                     f"{wrong.stderr!r}")
            moved = subprocess.run(
                [ladder, "migrate", f"--from={db_file}", f"--to={url}"],
                env=dict(os.environ, PGPASSWORD=password),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if moved.returncode != 0 or "entrants 1, versions 1" not in \
                    moved.stdout:
                fail(f"migrate: exit {moved.returncode}: {moved.stdout} "
                     f"{moved.stderr}")
            stop(server)
            server = start(src, pgdata, port, password, log)
            psql = subprocess.run(
                [f"{PG_BIN}/psql", url, "-tAc",
                 "SELECT l.name, v.content_hash FROM ladder l, versions v"],
                env=dict(os.environ, PGPASSWORD=password),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if psql.stdout.strip() != "moved|h1":
                fail(f"after a restart the database holds {psql.stdout!r} "
                     f"{psql.stderr}")
        finally:
            stop(server)
            log.close()
    return True


def main():
    ladder, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    check_manifests(src)
    check_image(src)
    live = run_entrypoint_and_migrate(ladder, src)
    print("OK" + ("" if live else " (manifests and scripts only)"))


if __name__ == "__main__":
    main()
