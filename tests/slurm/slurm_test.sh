#!/usr/bin/env bash
# A real single-node Slurm cluster, started by this test in a temporary
# folder (docs/scale.md): munged, slurmctld and slurmd with their own key,
# socket, config, state and ports, on loopback only. Through
# deploy/slurm/submit.sh --wait it runs
#   - a 4-task array of a small tournament and the merge job: the merged
#     standings must equal those of the same event (same secret) played and
#     analysed in one process;
#   - a 4-task array auditing golden and tampered logs and the merge job:
#     the findings must equal a single `cardref_analyze audit`.
# Every daemon it started is stopped on exit. Not root: SKIP (exit 77).
#
#   slurm_test.sh BUILD_TOOLS_DIR SOURCE_DIR
set -uo pipefail
tools=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)

if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: the Slurm test needs root (it installs slurm-wlm and munge" \
    "and runs slurmctld, slurmd and munged as root); run it as root or in CI"
  exit 77
fi
fail() {
  echo "FAIL: $*"
  exit 1
}

# Debian's packages, installed when missing (CI runs as root).
missing=()
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -q >/dev/null &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "${missing[@]}" >/dev/null ||
    fail "cannot install ${missing[*]}"
fi

tmp=$(mktemp -d /tmp/cardref_slurm.XXXXXX)
chmod 0700 "$tmp"
started_pids=()
cleanup() {
  local pidfile pid
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  if [ "${KEEP_SLURM_TMP:-0}" = 1 ]; then
    echo "kept $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
show_logs() {
  for f in "$tmp"/munge/munged.log "$tmp"/slurmctld.log "$tmp"/slurmd.log; do
    [ -e "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
  done
  find "$tmp" -path '*/slurm/*.out' -print -exec tail -n 20 {} \; 2>/dev/null
}

# munged with its own key and socket (never the system's /run/munge).
mkdir -m 0700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" 2>/dev/null ||
  { dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null &&
    chmod 0600 "$tmp/munge/munge.key"; }
socket="$tmp/munge/munge.socket"
munged --force --socket="$socket" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" || { show_logs; fail "munged did not start"; }
munge --socket="$socket" -n | unmunge --socket="$socket" >/dev/null ||
  { show_logs; fail "munge credentials do not round-trip"; }

# Two free loopback ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$tmp/state" "$tmp/spool"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=cardreftest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
JobCompType=jobcomp/none
# sbatch --wait polls after 2 s, then 4 times longer each time while the
# wait is below both 32 s and MinJobAge/2: with the default 300 a job of
# 12 s is seen ended at 42 s. 16 keeps the polls 8 s apart and an ended
# job known long enough for submit.sh's scontrol to read its state.
MinJobAge=16
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus State=UNKNOWN
PartitionName=cardref Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c -f "$SLURM_CONF" || { show_logs; fail "slurmctld did not start"; }
slurmd -f "$SLURM_CONF" -N "$host" || { show_logs; fail "slurmd did not start"; }
up=0
for _ in $(seq 100); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then
    up=1
    break
  fi
  sleep 0.2
done
[ "$up" = 1 ] || { sinfo; show_logs; fail "the node did not become idle"; }
echo "slurm up: $host, $cpus CPUs, slurmctld :$ctld_port, slurmd :$slurmd_port"

cd "$tmp"  # the submit folder: the jobs run here
export CARDREF_BIN="$tools"
# One CPU per task, so that tasks share the node as on a small cluster.
export CARDREF_SBATCH_ARGS="--cpus-per-task=1"
flags=(--trust_bots --params=game_length=SHORT,rounds=4
  "--bot=random=$tools/cardref_bot --quiet --strategy=random"
  "--bot=heuristic=$tools/cardref_bot --quiet --strategy=heuristic"
  "--bot=first=$tools/cardref_bot --quiet --strategy=first"
  --games=craits:3,krass_kariert:3,kraken:4 --duplicate --concurrency=2)

# The same event in one process: the reference standings.
"$tools/cardref_tournament" --out="$tmp/single" "${flags[@]}" >"$tmp/single.out" 2>&1 ||
  { tail -n 20 "$tmp/single.out"; fail "the single-process event failed"; }
mkdir "$tmp/event"
cp -p "$tmp/single/event.secret" "$tmp/event/"  # the same deals

start=$(date +%s)
timeout 300 "$src/deploy/slurm/submit.sh" --wait tournament "$tmp/event" 4 "${flags[@]}" ||
  { show_logs; fail "the tournament's jobs failed"; }
echo "tournament on slurm: $(($(date +%s) - start)) s"
for i in 0 1 2 3; do
  ls "$tmp"/event/slurm/cardref-event-*_"$i".out >/dev/null 2>&1 ||
    fail "no output of array task $i"
  ls "$tmp/event/shards/$i/logs/"*.cardlog >/dev/null 2>&1 ||
    fail "array task $i played no match"
done
cat "$tmp/event/summary.txt"
cmp "$tmp/event/standings.json" "$tmp/single/standings.json" ||
  { diff "$tmp/event/standings.txt" "$tmp/single/standings.txt"; fail "the merged standings differ from the single-process event's"; }
cmp -s "$tmp/event/standings.txt" "$tmp/single/standings.txt" ||
  fail "the merged standings.txt differs from the single-process event's"
echo "ok: merged standings of 4 array tasks equal the single-process event's"

# Resubmitting a task resumes it: shard 2 again plays nothing.
CARDREF_TASK="$src/deploy/slurm/cardref_task.sh" sbatch --wait --array=2 --cpus-per-task=1 --output="$tmp/event/slurm/again-%a.out" \
  "$src/deploy/slurm/tournament_shard.sbatch" "$tmp/event" 4 "${flags[@]}" >/dev/null ||
  { show_logs; fail "the resubmitted task failed"; }
grep -q " 0 to play" "$tmp/event/slurm/again-2.out" ||
  { cat "$tmp/event/slurm/again-2.out"; fail "the resubmitted task played matches again"; }
# A failing task (another N for the same event) cancels the merge.
if timeout 120 "$src/deploy/slurm/submit.sh" --wait tournament "$tmp/event" 3 "${flags[@]}"; then
  fail "the merge ran although its array failed"
fi
grep -q "same N and arguments" "$tmp"/event/slurm/cardref-event-*_0.out ||
  fail "the failing task does not say why"
cmp -s "$tmp/event/standings.json" "$tmp/single/standings.json" ||
  fail "a failed submission changed the standings"
echo "ok: a resubmitted task resumes; a failed array cancels the merge"

inputs=("$src/testdata/logs" "$src/testdata/tampered" "$tmp/single/logs")
"$tools/cardref_analyze" audit --quiet --format=json "${inputs[@]}" >"$tmp/audit_single.jsonl"
single_rc=$?
start=$(date +%s)
timeout 300 "$src/deploy/slurm/submit.sh" --wait audit "$tmp/audit" 4 "${inputs[@]}" ||
  { show_logs; fail "the audit's jobs failed"; }
echo "audit on slurm: $(($(date +%s) - start)) s"
for i in 0 1 2 3; do
  [ -s "$tmp/audit/partials/audit-$i-of-4.partial" ] || fail "no partial of audit task $i"
done
cmp "$tmp/audit/audit.jsonl" "$tmp/audit_single.jsonl" ||
  fail "the merged audit's findings differ from the single run's"
[ "$(cat "$tmp/audit/audit.exit")" = "$single_rc" ] ||
  fail "the merged audit's exit code $(cat "$tmp/audit/audit.exit") is not $single_rc"
grep -q '"MISMATCH"' "$tmp/audit/audit.jsonl" || fail "the tampered logs were not found out"
tail -n1 "$tmp/audit/audit.txt"
echo "PASS: a 4-task Slurm array and its merge equal the single-process event and audit"
