#!/usr/bin/env bash
# Runs a sharded event or audit on Kubernetes (docs/scale.md): renders the
# Jobs (render.py), applies the Indexed Job of the shards, waits for it to
# complete, then applies the merge Job and waits for that. Not run in this
# repository's tests (there is no cluster here); render.py's output is.
#
#   deploy/k8s/submit.sh tournament|audit --name=NAME --shards=N [render.py flags] -- ARGS...
#
# Environment: KUBECTL (default kubectl), CARDREF_K8S_TIMEOUT (default 24h).
# Running it again after a failure resumes: delete the failed Job first
# (kubectl delete job NAME-shards); the new pods skip what is done.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kubectl=${KUBECTL:-kubectl}
timeout=${CARDREF_K8S_TIMEOUT:-24h}
name=""
for a in "$@"; do
  [ "$a" = "--" ] && break
  case $a in --name=*) name=${a#--name=} ;; esac
done
[ -n "$name" ] || { echo "submit.sh: give --name=NAME (see render.py --help)" >&2; exit 2; }
"$here/render.py" "$1" --only=shards "${@:2}" >/dev/null  # the arguments are valid
set -x
"$here/render.py" "$1" --only=shards "${@:2}" | $kubectl apply -f -
$kubectl wait --for=condition=complete --timeout="$timeout" "job/$name-shards"
"$here/render.py" "$1" --only=merge "${@:2}" | $kubectl apply -f -
$kubectl wait --for=condition=complete --timeout="$timeout" "job/$name-merge"
$kubectl logs "job/$name-merge"
