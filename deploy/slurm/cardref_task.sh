#!/usr/bin/env bash
# One step of a distributed event or audit (docs/scale.md), the same under
# any batch system: Slurm's job arrays (deploy/slurm/*.sbatch), Kubernetes
# Indexed Jobs (deploy/k8s/) or plain processes. Shard indices are 0-based
# (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX).
#
#   cardref_task.sh tournament-shard EVENT I N [cardref_tournament flags...]
#       Plays shard I of N of the event into EVENT/shards/I (its own
#       referee, bots, logs, report and standings.partial), with the
#       event's secret EVENT/event.secret (made by the first task to run).
#       Run again, it resumes: finished matches are skipped.
#   cardref_task.sh tournament-merge EVENT N
#       Every shard's standings.partial merged by `cardref_analyze merge`
#       into EVENT/standings.json and standings.txt, equal to the standings
#       of the event played in one process; EVENT/summary.txt counts the
#       matches.
#   cardref_task.sh audit-shard OUT I N INPUT...
#       `cardref_analyze audit --shard=I+1/N --partial` of the inputs into
#       OUT/partials/; a shard already written is not audited again.
#   cardref_task.sh audit-merge OUT N
#       The N partials merged into OUT/audit.jsonl (the findings, as
#       `cardref_analyze audit --format=json` of every input) and
#       OUT/audit.txt; OUT/audit.exit is the audit's exit code.
#
# Every shard of one event (or audit) must be given the same N and the same
# flags (or inputs): the first task records them in EVENT/task.args, and a
# task given others stops with exit 2 rather than mixing two events.
# The binaries come from $CARDREF_BIN (a folder), else from PATH, else from
# build/tools of this checkout.
#
# Exit: 0 done; 2 usage or a mismatch with the recorded event; 3 a shard
# left matches unplayed (its referee was lost: run the task again);
# anything else is the failing tool's.
set -uo pipefail

usage() {  # [exit code]: 0 prints to stdout (--help), else to stderr
  if [ "${1:-2}" -eq 0 ]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  else
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  fi
  exit "${1:-2}"
}
die() {
  echo "cardref_task: $*" >&2
  exit 2
}

if [ -n "${CARDREF_BIN:-}" ]; then
  bin=$CARDREF_BIN
elif command -v cardref_tournament >/dev/null 2>&1; then
  bin=$(dirname "$(command -v cardref_tournament)")
else
  bin=$(cd "$(dirname "$0")/../.." && pwd)/build/tools
fi

is_count() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ]; }
check_shard() {  # I N
  is_count "$2" || die "N must be a whole number >= 1, got '$2'"
  [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -lt "$2" ] ||
    die "I must be a whole number with 0 <= I < N ($2), got '$1'"
}

# Writes $2 to file $1 unless it exists; all racing writers but one lose,
# and everyone then reads the same contents (link(2) is atomic, also on NFS).
create_once() {
  [ -e "$1" ] && return 0
  local tmp="$1.$$.$RANDOM.tmp"
  printf '%s\n' "$2" >"$tmp" && chmod "${3:-0644}" "$tmp" &&
    ln "$tmp" "$1" 2>/dev/null
  rm -f "$tmp"
  [ -e "$1" ] || die "cannot create $1"
}

# The first task records N and the arguments; the others must agree.
check_args() {  # DIR N ARGS...
  local dir=$1 n=$2
  shift 2
  local want
  want=$(printf 'shards=%s\n' "$n"; printf '%s\n' "$@")
  create_once "$dir/task.args" "$want"
  [ "$(cat "$dir/task.args")" = "$want" ] || die "$dir was started with
$(cat "$dir/task.args")
and this task was given
$want
Give every shard the same N and arguments (or use a new folder)."
}

# A top-level number of a report.json (nlohmann's 2-space dump).
report_field() { sed -n "s/^  \"$2\": \([0-9]*\).*/\1/p" "$1"; }

tournament_shard() {
  [ $# -ge 3 ] || usage
  local event=$1 i=$2 n=$3
  shift 3
  check_shard "$i" "$n"
  mkdir -p "$event/shards" || die "cannot create $event/shards"
  check_args "$event" "$n" "$@"
  create_once "$event/event.secret" \
    "$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')" 0600
  local shard="$event/shards/$i"
  mkdir -p "$shard"
  if [ -e "$shard/event.secret" ]; then
    cmp -s "$event/event.secret" "$shard/event.secret" ||
      die "$shard/event.secret differs from $event/event.secret"
  else
    create_once "$shard/event.secret" "$(cat "$event/event.secret")" 0600
  fi
  echo "cardref_task: shard $i of $n of $event on $(hostname -s)"
  "$bin/cardref_tournament" --out="$shard" --shard="$i/$n" "$@"
  local rc=$?
  [ "$rc" -eq 3 ] || return "$rc"
  # Some matches did not finish. Recorded ones (a bot's fault) are final;
  # unrecorded ones wait for the task to run again.
  local scheduled played
  scheduled=$(report_field "$shard/report.json" scheduled)
  played=$(report_field "$shard/report.json" played)
  if [ -n "$played" ] && [ "$played" = "$scheduled" ]; then
    echo "cardref_task: shard $i: every match is recorded (some did not" \
      "finish: $shard/report.json says why)"
    return 0
  fi
  echo "cardref_task: shard $i: $played of $scheduled matches recorded;" \
    "run this task again to play the rest" >&2
  return 3
}

tournament_merge() {
  [ $# -eq 2 ] || usage
  local event=$1 n=$2 i
  is_count "$n" || die "N must be a whole number >= 1, got '$n'"
  [ -e "$event/task.args" ] || die "$event is no sharded event (no task.args)"
  [ "$(head -n1 "$event/task.args")" = "shards=$n" ] ||
    die "$event was played in $(head -n1 "$event/task.args"), not shards=$n"
  local partials=() totals=(0 0 0) summary=""
  for ((i = 0; i < n; i++)); do
    local shard="$event/shards/$i"
    [ -s "$shard/standings.partial" ] && [ -s "$shard/report.json" ] ||
      die "shard $i has not run to its end ($shard/standings.partial missing)"
    local scheduled played not_finished
    scheduled=$(report_field "$shard/report.json" scheduled)
    played=$(report_field "$shard/report.json" played)
    not_finished=$(report_field "$shard/report.json" not_finished)
    [ "$played" = "$scheduled" ] ||
      die "shard $i recorded $played of $scheduled matches: run it again"
    partials+=("$shard/standings.partial")
    totals=($((totals[0] + scheduled)) $((totals[1] + played))
      $((totals[2] + not_finished)))
    summary+="shard $i: $scheduled matches, $((played - not_finished)) finished, $not_finished not finished"$'\n'
  done
  local format
  for format in json text; do
    local file="$event/standings.$([ $format = text ] && echo txt || echo json)"
    "$bin/cardref_analyze" merge --format="$format" "${partials[@]}" \
      >"$file.tmp" || {
      local rc=$?
      rm -f "$file.tmp"
      echo "cardref_task: cardref_analyze merge failed (exit $rc)" >&2
      return "$rc"
    }
    mv "$file.tmp" "$file"
  done
  summary+="event: ${totals[0]} matches, $((totals[1] - totals[2])) finished, ${totals[2]} not finished"
  printf '%s\n' "$summary" >"$event/summary.txt"
  cat "$event/summary.txt"
  echo "standings ($event/standings.json):"
  cat "$event/standings.txt"
}

audit_shard() {
  [ $# -ge 4 ] || usage
  local out=$1 i=$2 n=$3
  shift 3
  check_shard "$i" "$n"
  mkdir -p "$out/partials" || die "cannot create $out/partials"
  check_args "$out" "$n" "$@"
  local partial="$out/partials/audit-$i-of-$n.partial"
  if [ -s "$partial" ]; then
    echo "cardref_task: audit shard $i of $n: already written ($partial)"
    return 0
  fi
  local tmp="$partial.$$.tmp"
  "$bin/cardref_analyze" audit --quiet --shard="$((i + 1))/$n" \
    --partial="$tmp" "$@"
  local rc=$?
  # 1 and 3 are findings (errors, interrupted games), not a failed task.
  case $rc in
    0 | 1 | 3) mv "$tmp" "$partial" ;;
    *)
      rm -f "$tmp"
      return "$rc"
      ;;
  esac
  echo "cardref_task: audit shard $i of $n written ($partial, exit $rc)"
}

audit_merge() {
  [ $# -eq 2 ] || usage
  local out=$1 n=$2 i partials=()
  is_count "$n" || die "N must be a whole number >= 1, got '$n'"
  for ((i = 0; i < n; i++)); do
    local p="$out/partials/audit-$i-of-$n.partial"
    [ -s "$p" ] || die "audit shard $i of $n has not run ($p missing)"
    partials+=("$p")
  done
  local rc
  "$bin/cardref_analyze" merge --format=json "${partials[@]}" \
    >"$out/audit.jsonl.tmp"
  rc=$?
  if [ "$rc" -eq 2 ]; then
    rm -f "$out/audit.jsonl.tmp"
    echo "cardref_task: cardref_analyze merge failed (exit 2)" >&2
    return 2
  fi
  "$bin/cardref_analyze" merge "${partials[@]}" >"$out/audit.txt.tmp"
  mv "$out/audit.jsonl.tmp" "$out/audit.jsonl"
  mv "$out/audit.txt.tmp" "$out/audit.txt"
  echo "$rc" >"$out/audit.exit"
  tail -n1 "$out/audit.txt"
  echo "cardref_task: audit of $n shards merged into $out/audit.jsonl" \
    "(the audit's exit code, $rc, is in $out/audit.exit)"
}

[ $# -ge 1 ] || usage
step=$1
shift
case $step in
  tournament-shard) tournament_shard "$@" ;;
  tournament-merge) tournament_merge "$@" ;;
  audit-shard) audit_shard "$@" ;;
  audit-merge) audit_merge "$@" ;;
  -h | --help | help) usage 0 ;;
  *) die "unknown step '$step' (tournament-shard, tournament-merge, audit-shard, audit-merge)" ;;
esac
