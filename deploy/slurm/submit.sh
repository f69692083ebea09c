#!/usr/bin/env bash
# Submits a sharded event or audit to Slurm: a job array of N shards and
# the merge job, which runs only if every shard succeeded
# (--dependency=afterok). docs/scale.md explains the folders.
#
#   deploy/slurm/submit.sh [--wait] tournament EVENT N [cardref_tournament flags...]
#   deploy/slurm/submit.sh [--wait] audit OUT N INPUT...
#
# --wait: return when the merge job has ended, with its exit code (sbatch
# --wait); a failed shard cancels the merge and fails the submission.
# Submit from a folder every node sees (the jobs run in it); EVENT, OUT and
# the inputs must be on that shared filesystem. Running the same command
# again resumes: finished matches and audit shards are skipped.
# Environment: CARDREF_BIN, the folder of the cardref binaries on the nodes
# (default: build/tools of this checkout); CARDREF_SBATCH_ARGS, extra sbatch
# options for both jobs (e.g. "--partition=batch --time=02:00:00"); sbatch's
# own SBATCH_* variables apply too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&"${2:-2}"
  exit "$1"
}
wait_flag=()
if [ "${1:-}" = "--wait" ]; then
  wait_flag=(--wait)
  shift
fi
case "${1:-}" in
  -h | --help) usage 0 1 ;;
  tournament | audit) ;;
  *) usage 2 ;;
esac
[ $# -ge 3 ] || usage 2
kind=$1 dir=$2 n=$3
shift 3
[[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || {
  echo "submit.sh: N must be a whole number >= 1, got '$n'" >&2
  exit 2
}
if [ "$kind" = audit ] && [ $# -eq 0 ]; then
  echo "submit.sh: audit needs the logs (files, folders or patterns)" >&2
  exit 2
fi
export CARDREF_TASK="$here/cardref_task.sh"
export CARDREF_BIN="${CARDREF_BIN:-$(cd "$here/../.." && pwd)/build/tools}"
mkdir -p "$dir/slurm"
read -r -a extra <<<"${CARDREF_SBATCH_ARGS:-}"
shards=$(sbatch --parsable --array="0-$((n - 1))" "${extra[@]}" \
  --output="$dir/slurm/%x-%A_%a.out" \
  "$here/${kind}_shard.sbatch" "$dir" "$n" "$@")
shards=${shards%%;*}
echo "submit.sh: $kind shards: job array $shards (0-$((n - 1)))"
echo "submit.sh: $kind merge after it (afterok:$shards)"
rc=0
merge=$(sbatch --parsable "${wait_flag[@]}" "${extra[@]}" \
  --dependency="afterok:$shards" --kill-on-invalid-dep=yes \
  --output="$dir/slurm/%x-%j.out" \
  "$here/${kind}_merge.sbatch" "$dir" "$n") || rc=$?
# sbatch --wait returns 0 for a merge cancelled because a shard failed
# (its dependency can never be met): the job's state says what happened.
if [ ${#wait_flag[@]} -gt 0 ] && [ "$rc" -eq 0 ] && [ -n "$merge" ]; then
  state=$(scontrol show job -o "$merge" 2>/dev/null |
    sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
  if [ -n "$state" ] && [ "$state" != COMPLETED ]; then
    echo "submit.sh: the merge job $merge is $state: a shard failed" \
      "(see $dir/slurm/); run the same command again to resume" >&2
    rc=1
  fi
fi
if [ ${#wait_flag[@]} -eq 0 ]; then
  echo "submit.sh: $kind merge: job $merge (output in $dir/slurm/)"
else
  echo "submit.sh: $kind merge: job ${merge:-?} ended with exit $rc" \
    "(output in $dir/slurm/)"
fi
exit "$rc"
